import Foundation
import TradingModel

/// What mapping executions, positions and snapshots needs besides the messages.
public struct MappingContext: Sendable {
    /// The contracts of the universe.
    public var contracts: ContractBook
    /// The account to keep; empty keeps every account.
    public var account: String
    /// The zone of execution times without one.
    public var defaultZone: TimeZone
    /// When the message being mapped was received. Set, an execution whose time does not read (an unknown zone, a
    /// malformed text) is mapped with this time and a `BrokerExecution.timeNote` instead of failing: a fill is never
    /// dropped for its time. `nil`: such an execution is an error.
    public var receivedAt: Timestamp?

    /// Creates a context.
    public init(
        contracts: ContractBook, account: String = "", defaultZone: TimeZone = TWSTimeParser.utc,
        receivedAt: Timestamp? = nil
    ) {
        self.contracts = contracts
        self.account = account
        self.defaultZone = defaultZone
        self.receivedAt = receivedAt
    }

    func accepts(_ account: String) -> Bool { self.account.isEmpty || account.isEmpty || account == self.account }
}
