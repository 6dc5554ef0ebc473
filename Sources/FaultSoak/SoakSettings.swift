import TradingModel

/// How long and how hard a soak runs (`FaultSoak.run`).
public struct SoakSettings: Sendable {
    /// How long the fault schedule runs (wall time).
    public var duration: Duration = .seconds(90)
    /// Then this long without faults, before the bot stops: the books must agree by the end.
    public var settle: Duration = .seconds(15)
    /// Wall time per 5-second replay step (10 bars a second per symbol at 100 ms).
    public var pace: Duration = .milliseconds(100)
    /// The fault script (the `--faults FILE` syntax; `at` = seconds into the cycle) and its cycle (seconds).
    public var script: String = SoakSchedule.standardScript
    public var cycle: Double = SoakSchedule.standardCycle
    /// The bot's position check (`health.positionCheck`): its interval — the "one reconciliation interval" a
    /// difference may go unalerted — and its confirmation delay.
    public var positionCheckInterval: Duration = .seconds(10)
    public var confirmAfter: Duration = .seconds(2)
    /// Differences shorter than this are fills on their way (seconds).
    public var briefDifference = 1.0
    /// Before a `restart-fresh`, the soak waits up to this long for the bot to journal every execution the old
    /// gateway made (an execution the gateway took with it before any report reached the bot is lost to any client).
    public var freshRestartWait: Duration = .seconds(5)
    /// The bot's client id, symbols and strategy period (bars between decisions per symbol).
    public var clientID = 71
    public var symbols = 3
    public var period = 20
    /// Every Nth order of the strategy rests as a limit and is modified through the market at the next decision
    /// (`SoakTrader.restEvery`; 0: market orders only). The field cycle's `lose-modify` and `twin-order` need it.
    public var restEvery = 0
    /// How far into the first regular session (Monday 2023-11-13 from 09:30 New York) the soak starts; the bot warms
    /// up on what comes before (at least its 10-minute warm-up).
    public var start: Duration = .seconds(3600)
    /// At each regular session's close the replay jumps to five minutes before the next open (nights, weekends and
    /// holidays pass in one step, as the data has no bars then), and the gateway makes its nightly restart. Off: the
    /// replay steps through the night.
    public var skipNights = true
    /// Where the journal goes (`nil`: a temporary directory, removed at the end).
    public var directory: String?
    /// A progress line this often (`nil`: none).
    public var progressEvery: Duration?

    /// The defaults: 90 s of faults, 15 s to settle.
    public init() {}
}
