import TradingModel

/// The engine's cash at a point the journal's fills are known to agree with it: written by the live runner after
/// its start-up reconciliation, so the next restart restores the cash the crashed run had instead of starting
/// again from the configured capital (`CashRestore` in `InteractiveBrokers`).
///
/// The cash includes the effect of every fill of the account journaled up to `fillCheckpoint` (with the
/// commissions known then, `fillCommissions`); fills journaled after it, and commissions joined later to the
/// earlier fills, are what a restart adds.
public struct JournalCashCheckpoint: Hashable, Sendable, Codable {
    /// Journal order (assigned by the journal).
    public var sequence: Int64 = 0
    /// When it was written.
    public var time: Timestamp
    /// The IB account the engine trades.
    public var account: String
    /// The journal run that wrote it (`OrderJournal.beginRun`), if any.
    public var run: Int64?
    /// The engine's cash.
    public var cash: Money
    /// The engine's commission total.
    public var commissions: Money
    /// The last fill sequence accounted for (`JournalFill.sequence`; 0: none).
    public var fillCheckpoint: Int64
    /// The commissions of the account's fills up to `fillCheckpoint`, as known when it was written.
    public var fillCommissions: Money
    /// The engine's positions then, by symbol (non-zero only).
    public var positions: [Symbol: Quantity]
    /// An account in one currency trading instruments priced in others: the cash in each other currency, by ISO code
    /// (`cash` is then the account currency's own, `commissions` the total converted). Empty in one currency.
    public var foreignCash: [String: Money] = [:]
    /// The commissions of the account's fills up to `fillCheckpoint` in each other currency (`fillCommissions` is then
    /// the account currency's fills' only).
    public var foreignFillCommissions: [String: Money] = [:]
    /// The account's currency per unit of each other when it was written: a restart's rate until the pair's first
    /// price.
    public var foreignRates: [String: Double] = [:]

    /// Creates a checkpoint.
    public init(
        time: Timestamp, account: String, run: Int64? = nil, cash: Money, commissions: Money = .zero,
        fillCheckpoint: Int64, fillCommissions: Money = .zero, positions: [Symbol: Quantity] = [:]
    ) {
        self.time = time
        self.account = account
        self.run = run
        self.cash = cash
        self.commissions = commissions
        self.fillCheckpoint = fillCheckpoint
        self.fillCommissions = fillCommissions
        self.positions = positions
    }

    private enum CodingKeys: String, CodingKey {
        case sequence, time, account, run, cash, commissions, fillCheckpoint, fillCommissions, positions, foreignCash,
            foreignFillCommissions, foreignRates
    }

    /// Decodes a checkpoint; one written before other currencies (a session log of an older run) has none.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        sequence = try c.decode(Int64.self, forKey: .sequence)
        time = try c.decode(Timestamp.self, forKey: .time)
        account = try c.decode(String.self, forKey: .account)
        run = try c.decodeIfPresent(Int64.self, forKey: .run)
        cash = try c.decode(Money.self, forKey: .cash)
        commissions = try c.decode(Money.self, forKey: .commissions)
        fillCheckpoint = try c.decode(Int64.self, forKey: .fillCheckpoint)
        fillCommissions = try c.decode(Money.self, forKey: .fillCommissions)
        positions = try c.decode([Symbol: Quantity].self, forKey: .positions)
        foreignCash = try c.decodeIfPresent([String: Money].self, forKey: .foreignCash) ?? [:]
        foreignFillCommissions = try c.decodeIfPresent([String: Money].self, forKey: .foreignFillCommissions) ?? [:]
        foreignRates = try c.decodeIfPresent([String: Double].self, forKey: .foreignRates) ?? [:]
    }
}

/// A bot run registered in the journal; its number names the run's orderRef namespace.
public struct JournalRun: Hashable, Sendable, Codable {
    /// The run number: unique and increasing within a journal.
    public var number: Int64
    /// When it started.
    public var startedAt: Timestamp
    /// The account traded, if known at start.
    public var account: String?
    /// The journal's bot identity (four base-36 characters, made with the journal): it names the bot's orderRef
    /// namespace, so two bots on one account never take each other's orders or positions for their own. `nil` in
    /// session logs written before identities.
    public var bot: String?

    /// Creates a run.
    public init(number: Int64, startedAt: Timestamp, account: String?, bot: String? = nil) {
        self.number = number
        self.startedAt = startedAt
        self.account = account
        self.bot = bot
    }
}
