import Foundation
import TWSProtocol
import TradingModel

/// A position as the broker reports it.
public struct BrokerPosition: Sendable, Hashable {
    /// The account.
    public var account: String
    /// The instrument.
    public var instrument: InstrumentID
    /// Signed quantity (negative: short).
    public var quantity: Quantity
    /// Average cost per unit (IB includes commissions; for multiplied contracts divided by the multiplier).
    public var averagePrice: Price

    /// Creates a position.
    public init(account: String, instrument: InstrumentID, quantity: Quantity, averagePrice: Price) {
        self.account = account
        self.instrument = instrument
        self.quantity = quantity
        self.averagePrice = averagePrice
    }

    /// The domain position (no realized P&L or commission history: the broker does not report them here).
    public var position: Position {
        var position = Position(instrument: instrument)
        position.quantity = quantity
        position.averagePrice = quantity.isZero ? .zero : averagePrice
        return position
    }
}

/// reqPositions results → `BrokerPosition`s. Pure.
public enum PositionMapping {
    /// One position.
    /// - Throws: `IBMappingError` for an unknown contract, an unset quantity, a bad average cost or multiplier.
    public static func position(_ position: TWSPosition, contracts: ContractBook) throws(IBMappingError)
        -> BrokerPosition
    {
        let quantity = try WireNumbers.quantity(position.quantity, field: "position")
        var multiplier = 1.0
        if !position.contract.multiplier.isEmpty {
            guard let m = Double(position.contract.multiplier), m.isFinite, m > 0 else {
                throw .invalidPrice(field: "multiplier", value: position.contract.multiplier)
            }
            multiplier = m
        }
        let average = try WireNumbers.price(position.averageCost / multiplier, field: "averageCost", allowZero: true)
        return BrokerPosition(
            account: position.account, instrument: try contracts.instrument(for: position.contract),
            quantity: quantity, averagePrice: average)
    }
}
