import Foundation

/// One position of reqPositions.
public struct TWSPosition: Sendable, Equatable, Codable {
    /// The account holding it.
    public var account: String
    /// The contract.
    public var contract: TWSContract
    /// The quantity (negative when short); `nil` when TWS sent it unset.
    public var quantity: Decimal?
    /// The average cost.
    public var averageCost: Double

    /// Creates a position.
    public init(account: String, contract: TWSContract, quantity: Decimal?, averageCost: Double) {
        self.account = account
        self.contract = contract
        self.quantity = quantity
        self.averageCost = averageCost
    }
}
