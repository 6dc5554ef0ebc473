import Foundation
import Logging
import Storage
import TWSClient
import TWSProtocol
import TradingEngine
import TradingModel

/// A stop request seen outside the event loop (while reconnecting).
final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value: String?
    var isSet: Bool { lock.withLock { value != nil } }
    var reason: String? { lock.withLock { value } }
    func set(_ reason: String) { lock.withLock { if value == nil { value = reason } } }
    /// Returns once set (or when the task is cancelled), looking every 50 ms.
    func wait() async {
        while !isSet {
            do { try await Task.sleep(for: .milliseconds(50)) } catch { return }
        }
    }
    /// Sleeps `span` in small steps, returning early once set.
    func sleep(for span: Duration) async throws {
        let clock = ContinuousClock()
        let end = clock.now.advanced(by: span)
        while clock.now < end, !isSet {
            try await Task.sleep(for: min(.milliseconds(100), end - clock.now))
        }
    }
}

/// How a connected stretch of the run ended.
enum ConnectedOutcome {
    case stopped(String)
    case lost(String)
    case resubscribe
    case feedFailed(String)
}

/// The time the runner stamps: the latest bar time (data time, which is wall time against a real gateway and
/// replay time against the simulator).
final class RunnerTime: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Timestamp
    init(_ start: Timestamp) { value = start }
    func now() -> Timestamp { lock.withLock { value } }
    func advance(to time: Timestamp) { lock.withLock { if time > value { value = time } } }
    func set(_ time: Timestamp) { lock.withLock { value = time } }
}

/// The inputs of the event loop, in arrival order.
enum RunnerInput: Sendable {
    case broker(IBBrokerEvent)
    case market(IBMarketDataEvent)
    /// A quote feed event (LiveRunnerSession+Quotes.swift).
    case quotes(IBQuoteEvent)
    case tick
    case stop(String)
    /// The connection of that generation ended.
    case ended(Int, String)
    /// The drain period after stop is over.
    case drained
    /// A market data feed (connection generation, feed number) ended.
    case feedEnded(Int, Int, String)
    /// A connection state change (1100 lost, 1101/1102 restored, …) of that generation.
    case connectivity(Int, TWSConnectionState)
    /// A data farm's state (2103–2108, 2157, 2158) on the connection of that generation.
    case farm(Int, TWSFarmReport)
    /// The broker's executions, fetched beside the loop (LiveRunnerSession+ExecutionSync.swift).
    case executionsSynced(BrokerSnapshot)
}

/// Why new entries are paused (the engine refuses new orders while any reason holds; working orders stay).
enum EntryPause: Hashable, Sendable {
    /// The connection to IB is down longer than the grace period.
    case connectivity
    /// Bars missed during an outage are being replayed.
    case backfill
}
