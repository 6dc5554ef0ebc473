import NIOCore
import TWSProtocol

/// A historical-data request held back by the pacing planner.
struct PendingHistoricalRequest: Sendable {
    var pacing: HistoricalPacingRequest
    var requestID: Int
    var frame: ByteBuffer
}

extension TWSConnection {
    /// Queues a historical-data request behind the pacing planner; it leaves when the rules of PROTOCOL.md §8.2
    /// allow it.
    func enqueueHistorical(_ pending: PendingHistoricalRequest) {
        historicalBacklog.append(pending)
        wakeupContinuation.yield()
    }

    /// Releases held historical requests that may leave at `now`, one at a time and only into an idle rate
    /// limiter, so the time recorded for pacing is the time the frame is written.
    func releaseHistoricalRequests(now: Duration) -> [ByteBuffer] {
        var released: [ByteBuffer] = []
        var index = 0
        while index < historicalBacklog.count, scheduler.isEmpty, scheduler.earliestSendTime(now: now) <= now {
            let pending = historicalBacklog[index]
            guard case .sendNow = pacing.decision(for: pending.pacing, now: now) else {
                index += 1
                continue
            }
            historicalBacklog.remove(at: index)
            pacing.recordSent(pending.pacing, requestID: pending.requestID, at: now)
            scheduler.enqueue(pending.frame)
            released += scheduler.dequeueReady(now: now)
        }
        return released
    }

    /// When the next held historical request may leave; `nil` when none is held or all wait for an open slot.
    func nextHistoricalRelease(now: Duration) -> Duration? {
        var earliest: Duration?
        for pending in historicalBacklog {
            let time: Duration
            switch pacing.decision(for: pending.pacing, now: now) {
            case .sendNow: time = now
            case .sendAt(let at): time = at
            case .waitForOpenSlot: continue
            }
            let candidate = max(time, scheduler.earliestSendTime(now: now))
            earliest = min(earliest ?? candidate, candidate)
        }
        return earliest
    }

    /// A historical request ended (data complete, error, or cancel): free its open slot.
    func historicalFinished(requestID: Int) {
        guard pacing.openRequestCount > 0 else { return }
        pacing.finished(requestID: requestID)
        if !historicalBacklog.isEmpty { wakeupContinuation.yield() }
        historicalBacklog.removeAll { $0.requestID == requestID }
    }
}
