import Foundation

/// What mapping executions, positions and snapshots needs besides the messages.
public struct MappingContext: Sendable {
    /// The contracts of the universe.
    public var contracts: ContractBook
    /// The account to keep; empty keeps every account.
    public var account: String
    /// The zone of execution times without one.
    public var defaultZone: TimeZone

    /// Creates a context.
    public init(contracts: ContractBook, account: String = "", defaultZone: TimeZone = TWSTimeParser.utc) {
        self.contracts = contracts
        self.account = account
        self.defaultZone = defaultZone
    }

    func accepts(_ account: String) -> Bool { self.account.isEmpty || account.isEmpty || account == self.account }
}
