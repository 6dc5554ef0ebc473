import Foundation
import LiveSession
import TradingEngine
import TradingModel

/// Settings of an `IBBroker`.
public struct IBBrokerConfiguration: Sendable {
    /// Account, outside-RTH, OCA type and orderRef namespace of every order.
    public var orderOptions: WireOrderOptions
    /// How long a fill waits for its commission report before it goes to the engine without it (`nil`: never
    /// wait). Overdue fills are released by `releaseOverdueCommissions()`, which the runner calls on its timer.
    public var commissionWait: TimeSpan?
    /// The zone of execution times TWS sends without one (its login zone).
    public var defaultTimeZone: TimeZone
    /// Where intents are written before they are sent (`nil`: not journaled, e.g. manual tools).
    public var journal: (any IntentJournal)?
    /// The order-efficiency limit on new entries (`nil`: counted and logged, never denied).
    public var orderEfficiency: OrderEfficiencyLimit?
    /// Test only: where the process exits abruptly (`IBTRADER_CRASH_AT`); `nil` in real use.
    public var crashPoint: CrashPoint?

    /// Creates a configuration; defaults: default account, RTH only, `IBT:` orderRefs, 5 s commission wait, UTC,
    /// no journal.
    public init(
        orderOptions: WireOrderOptions = WireOrderOptions(), commissionWait: TimeSpan? = .seconds(5),
        defaultTimeZone: TimeZone = TWSTimeParser.utc, journal: (any IntentJournal)? = nil,
        orderEfficiency: OrderEfficiencyLimit? = nil, crashPoint: CrashPoint? = nil
    ) {
        self.orderEfficiency = orderEfficiency
        self.crashPoint = crashPoint
        self.orderOptions = orderOptions
        self.commissionWait = commissionWait
        self.defaultTimeZone = defaultTimeZone
        self.journal = journal
    }

    /// The mapping context of executions, positions and snapshots.
    func mappingContext(_ contracts: ContractBook) -> MappingContext {
        MappingContext(contracts: contracts, account: orderOptions.account, defaultZone: defaultTimeZone)
    }
}

