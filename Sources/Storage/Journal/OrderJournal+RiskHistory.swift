import GRDB
import JournalModel
import TradingModel

/// When a persisted halt of a risk state tripped: the first row of the current unbroken stretch of rows with the
/// flag set (`OrderJournal.riskTrips(account:runKey:)`).
public struct JournalRiskTrip: Hashable, Sendable {
    /// The time of that row (the runner's clock: bar time, so replay time against the simulator).
    public var time: Timestamp
    /// The run that journaled it.
    public var run: Int64?

    /// Creates a trip.
    public init(time: Timestamp, run: Int64?) {
        self.time = time
        self.run = run
    }
}

/// When each halt flag of an account's configuration tripped (`nil`: not set in the latest row).
public struct JournalRiskTrips: Hashable, Sendable {
    /// The daily-loss halt.
    public var dailyLoss: JournalRiskTrip?
    /// The drawdown halt.
    public var drawdown: JournalRiskTrip?
    /// The rapid-loss halt.
    public var rapidLoss: JournalRiskTrip?

    /// Creates trips.
    public init(dailyLoss: JournalRiskTrip? = nil, drawdown: JournalRiskTrip? = nil, rapidLoss: JournalRiskTrip? = nil) {
        self.dailyLoss = dailyLoss
        self.drawdown = drawdown
        self.rapidLoss = rapidLoss
    }
}

// Read-only queries over `risk_state` for `ibtrader risk status|reset` (no schema change: table of version 3).
extension OrderJournal {
    /// The latest risk state of every account and run key, ordered by account, then key.
    /// - Throws: `OrderJournalError`.
    public func latestRiskStates() throws(OrderJournalError) -> [JournalRiskState] {
        let pairs = try perform("read risk state keys") {
            try pool.read { db in
                try Row.fetchAll(
                    db, sql: "SELECT DISTINCT account, run_key FROM risk_state ORDER BY account, run_key")
            }
        }
        var states: [JournalRiskState] = []
        for pair in pairs {
            let account: String? = pair[0]
            let key: String? = pair[1]
            guard let account, let key else { throw .corruptRow(path: path, detail: "risk_state key") }
            if let state = try latestRiskState(account: account, runKey: key) { states.append(state) }
        }
        return states
    }

    /// When each halt set in the latest row of an account's configuration tripped: the first row after the last
    /// row with that flag clear.
    /// - Parameters:
    ///   - account: the account.
    ///   - runKey: the run configuration's key.
    /// - Throws: `OrderJournalError`.
    public func riskTrips(account: String, runKey: String) throws(OrderJournalError) -> JournalRiskTrips {
        guard let latest = try latestRiskState(account: account, runKey: runKey) else { return JournalRiskTrips() }
        var trips = JournalRiskTrips()
        if latest.dailyLossBreached { trips.dailyLoss = try trip("daily_loss_breached", account, runKey) }
        if latest.drawdownHalted { trips.drawdown = try trip("drawdown_halted", account, runKey) }
        if latest.rapidLossHalted { trips.rapidLoss = try trip("rapid_loss_halted", account, runKey) }
        return trips
    }

    /// `column` is one of the three flag columns above (never user input).
    private func trip(_ column: String, _ account: String, _ runKey: String) throws(OrderJournalError) -> JournalRiskTrip? {
        let row = try perform("read risk trip (\(column))") {
            try pool.read { db in
                try Row.fetchOne(
                    db,
                    sql: """
                        SELECT time, run FROM risk_state
                        WHERE account = ? AND run_key = ? AND \(column) = 1 AND seq > COALESCE((
                            SELECT MAX(seq) FROM risk_state WHERE account = ? AND run_key = ? AND \(column) = 0), 0)
                        ORDER BY seq LIMIT 1
                        """,
                    arguments: [account, runKey, account, runKey])
            }
        }
        guard let row else { return nil }
        let time: Int64? = row[0]
        guard let time else { throw .corruptRow(path: path, detail: "risk_state time") }
        return JournalRiskTrip(time: Timestamp(nanoseconds: time), run: row[1])
    }
}
