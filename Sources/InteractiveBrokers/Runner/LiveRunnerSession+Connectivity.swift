import Foundation
import Logging
import TWSClient
import TWSProtocol
import TradingEngine
import TradingModel

// Outages: 1100/1101/1102 through `ConnectivityMonitor`, socket losses and reconnects, resynchronization of
// executions and open orders (the back-fill of bars missed: LiveRunnerSession+Backfill.swift).
extension Session {
    /// A connectivity state change of the live connection; returns `true` when market data must be subscribed again.
    mutating func connectivityChanged(
        _ state: TWSConnectionState, connection: TWSConnection, broker: IBBroker
    ) async -> Bool {
        let now = configuration.resilience.clock()
        switch state {
        case .lost: return await carryOut(connectivity.lost(at: now), connection: connection, broker: broker)
        case .restored(let dataLost):
            return await carryOut(
                connectivity.restored(dataLost: dataLost, at: now), connection: connection, broker: broker)
        default: return false
        }
    }

    /// The 1-second tick: escalates a long interruption (alert, pause).
    mutating func connectivityTick() {
        for action in connectivity.tick(at: configuration.resilience.clock()) { carryOutLocally(action) }
    }

    /// The socket to TWS closed.
    mutating func socketLost(_ reason: String) {
        for action in connectivity.socketLost(reason: reason, at: configuration.resilience.clock()) {
            carryOutLocally(action)
        }
    }

    /// Before a reconnect attempt: quiet inside the reset window, a warning outside it.
    mutating func reconnectAttempt(after reason: String, delay: Duration) {
        connectivityTick()
        let level: Logger.Level = connectivity.isExpected(at: configuration.resilience.clock()) ? .info : .warning
        logger.log(level: level, "connection lost (\(reason)); reconnecting in \(delay)")
    }

    /// A reconnect attempt failed.
    func reconnectFailed(_ error: any Error) {
        let level: Logger.Level = connectivity.isExpected(at: configuration.resilience.clock()) ? .info : .warning
        logger.log(level: level, "reconnect failed: \(error)")
    }

    /// After a reconnect (the broker re-attached): the monitor's restoration (resume entries), a resynchronization,
    /// and the back-fill of the bars missed (the feed is subscribed afterwards).
    mutating func socketRestored(_ connection: TWSConnection, broker: IBBroker) async {
        let actions = connectivity.restored(dataLost: true, at: configuration.resilience.clock(), socket: true)
        _ = await carryOut(actions.filter { $0 != .resubscribe }, connection: connection, broker: broker)
        await backfill(connection, broker: broker, after: "the reconnect")
    }

    /// Carries out the monitor's actions; returns whether a resubscription is asked for.
    private mutating func carryOut(
        _ actions: [ConnectivityAction], connection: TWSConnection, broker: IBBroker
    ) async -> Bool {
        var resubscribe = false
        for action in actions {
            switch action {
            case .resynchronize: await resynchronizeAfterRestore(broker)
            case .resubscribe: resubscribe = true
            default: carryOutLocally(action)
            }
        }
        return resubscribe
    }

    private mutating func carryOutLocally(_ action: ConnectivityAction) {
        switch action {
        case .log(let level, let text): logger.log(level: level, "\(text)")
        case .pauseEntries:
            setEntryPause(.connectivity, true)
            configuration.resilience.observer?(.paused)
        case .resumeEntries:
            setEntryPause(.connectivity, false)
            configuration.resilience.observer?(.resumed)
        case .resynchronize, .resubscribe: break
        }
    }

    /// Turns one pause reason on or off; the engine refuses new orders while any holds.
    mutating func setEntryPause(_ reason: EntryPause, _ on: Bool) {
        if on { entryPauses.insert(reason) } else { entryPauses.remove(reason) }
        engine.pauseEntries(!entryPauses.isEmpty)
    }

    /// Executions and open orders again (fills missed while TWS was cut off from IB), applied once by execId and
    /// journaled.
    mutating func resynchronizeAfterRestore(_ broker: IBBroker) async {
        do {
            let missed = try await broker.resynchronize()
            let added = record(try await broker.brokerSnapshot().0, at: time.now())
            resynchronizations += 1
            let level: Logger.Level = missed > 0 ? .notice : .info
            logger.log(
                level: level, "resynchronized: \(missed) missed executions applied, \(added) new in the journal")
            configuration.resilience.observer?(.resynchronized(missedExecutions: missed))
        } catch {
            logger.error("resynchronization failed: \(error)")
        }
    }
}
