import NIOCore
import TWSProtocol

/// Which pacing planner a held request waits on.
enum PacingLane: Sendable, Equatable {
    /// reqHistoricalData: every rule of PROTOCOL.md §8.2.
    case historical
    /// reqRealTimeBars: no more than 60 new requests per 10 minutes.
    case realTimeBars
}

/// A request held back by a pacing planner.
struct PendingPacedRequest: Sendable {
    var lane: PacingLane
    var pacing: HistoricalPacingRequest
    var requestID: Int
    var frame: ByteBuffer
}

extension HistoricalPacingLimits {
    /// Real-time bars: only the 60-per-10-minutes rule applies (PROTOCOL.md §8.2); the other rules are off.
    public static var realTimeBars: HistoricalPacingLimits {
        var limits = HistoricalPacingLimits()
        limits.identicalInterval = .zero
        limits.seriesLimit = Int.max / 2
        limits.maximumOpenRequests = Int.max
        return limits
    }
}

extension TWSConnection {
    /// Queues a request behind its pacing planner; it leaves when the planner allows it. One the planner holds back
    /// counts as a pacing wait.
    /// Whether a paced request is still held by the planner (not yet handed to the rate limiter).
    func isPacedWaiting(_ requestID: Int) -> Bool {
        pacedBacklog.contains { $0.requestID == requestID }
    }

    func enqueuePaced(_ pending: PendingPacedRequest) {
        if decision(for: pending, now: clock.now()) != .sendNow { pacingWaits += 1 }
        pacedBacklog.append(pending)
        wakeupContinuation.yield()
    }

    private func decision(for pending: PendingPacedRequest, now: Duration) -> HistoricalPacingDecision {
        switch pending.lane {
        case .historical: return pacing.decision(for: pending.pacing, now: now)
        case .realTimeBars: return realTimeBarPacing.decision(for: pending.pacing, now: now)
        }
    }

    /// Releases held requests that may leave at `now`, one at a time and only into an idle rate limiter, so the
    /// time recorded for pacing is the time the frame is written.
    func releasePacedRequests(now: Duration) -> [ByteBuffer] {
        var released: [ByteBuffer] = []
        var index = 0
        while index < pacedBacklog.count, scheduler.isEmpty, scheduler.earliestSendTime(now: now) <= now {
            let pending = pacedBacklog[index]
            guard case .sendNow = decision(for: pending, now: now) else {
                index += 1
                continue
            }
            pacedBacklog.remove(at: index)
            switch pending.lane {
            case .historical: pacing.recordSent(pending.pacing, requestID: pending.requestID, at: now)
            case .realTimeBars: realTimeBarPacing.recordSent(pending.pacing, requestID: pending.requestID, at: now)
            }
            scheduler.enqueue(pending.frame)
            released += scheduler.dequeueReady(now: now)
        }
        return released
    }

    /// When the next held request may leave; `nil` when none is held or all wait for an open slot.
    func nextPacedRelease(now: Duration) -> Duration? {
        var earliest: Duration?
        for pending in pacedBacklog {
            let time: Duration
            switch decision(for: pending, now: now) {
            case .sendNow: time = now
            case .sendAt(let at): time = at
            case .waitForOpenSlot: continue
            }
            let candidate = max(time, scheduler.earliestSendTime(now: now))
            earliest = min(earliest ?? candidate, candidate)
        }
        return earliest
    }

    /// A paced request ended (data complete, error, or cancel): free its open slot, or drop it from the backlog
    /// when it was never sent.
    /// - Returns: whether the request was still held in the backlog (never sent).
    @discardableResult
    func pacedRequestFinished(requestID: Int) -> Bool {
        if let index = pacedBacklog.firstIndex(where: { $0.requestID == requestID }) {
            pacedBacklog.remove(at: index)
            return true
        }
        pacing.finished(requestID: requestID)
        realTimeBarPacing.finished(requestID: requestID)
        if !pacedBacklog.isEmpty { wakeupContinuation.yield() }
        return false
    }
}

extension TWSConnection {
    /// The connection's budgets now.
    public var budgets: TWSBudgets {
        let now = clock.now()
        var budgets = TWSBudgets()
        budgets.queued = scheduler.pendingCount
        budgets.messagesPerSecond = scheduler.limit.messagesPerSecond
        budgets.pacedWaiting = pacedBacklog.count
        budgets.historicalOpen = pacing.openRequestCount
        budgets.historicalInWindow = pacing.weightInGlobalWindow(now: now)
        budgets.historicalWindowLimit = pacing.limits.globalLimit
        budgets.historicalWindowSeconds = Int(pacing.limits.globalWindow.components.seconds)
        budgets.pacingWaits = pacingWaits
        return budgets
    }
}
