import Foundation
import LiveSession
import Logging
import ServiceLifecycle
import Synchronization
import TradingModel

/// Delivers the session's alerts to the configured channels, off the trading path: `post` only enqueues (a dead
/// channel never slows a bar), one queue per channel sends in order with retries (1 s, 2 s, 4 s), at most
/// `perMinute` messages a minute per channel, and a storm of one kind is coalesced (`AlertCoalescer`).
public final class AlertCenter: Service, Sendable {
    public let channels: [AlertChannel]
    let bot: String
    let logger: Logger
    let perMinute: Int
    let retryDelays: [Duration]
    private let clock: @Sendable () -> Timestamp
    private let coalescer: Mutex<AlertCoalescer>
    private let inbox: AsyncStream<OperatorAlert>
    private let sink: AsyncStream<OperatorAlert>.Continuation
    private let sent = Mutex<[String: Int]>([:])
    let routes: AlertRoutes

    /// Creates a center.
    public init(
        channels: [AlertChannel], bot: String, minimum: OperatorAlert.Severity, cooldown: TimeSpan, logger: Logger,
        routes: AlertRoutes = AlertRoutes(), perMinute: Int = 20, retryDelays: [Duration] = [.seconds(1), .seconds(2), .seconds(4)],
        clock: @escaping @Sendable () -> Timestamp = { Timestamp(nanoseconds: Int64(Date().timeIntervalSince1970 * 1e9)) }
    ) {
        self.channels = channels
        self.bot = bot
        self.logger = logger
        self.perMinute = perMinute
        self.retryDelays = retryDelays
        self.clock = clock
        self.routes = routes
        coalescer = Mutex(AlertCoalescer(minimum: minimum, cooldown: cooldown, alwaysSent: routes.namedKinds))
        // In a flood the first alerts are the ones that say what happened: the newest are dropped beyond 1,000.
        (inbox, sink) = AsyncStream.makeStream(of: OperatorAlert.self, bufferingPolicy: .bufferingOldest(1_000))
    }

    /// Hands an alert over; returns at once.
    public func post(_ alert: OperatorAlert) { sink.yield(alert) }

    /// Messages delivered so far, by channel (for tests and the log).
    public var delivered: [String: Int] { sent.withLock { $0 } }

    /// Ends the queues once what was posted is sent (the run's end).
    public func finish() { sink.finish() }

    public func run() async throws {
        let queues = channels.map { _ in AsyncStream.makeStream(of: OperatorAlert.self, bufferingPolicy: .bufferingNewest(200)) }
        let drains = zip(channels, queues).map { channel, queue in Task { await self.drain(queue.stream, to: channel) } }
        let flusher = Task {
            // Held-back alerts come out when their cooldown ends, even with nothing new arriving.
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(5))
                let due = self.coalescer.withLock { $0.flush(at: self.clock()) }
                for alert in due { self.route(alert, to: queues) }
            }
        }
        await withGracefulShutdownHandler {
            for await alert in inbox {
                let out = coalescer.withLock { $0.admit(alert, at: clock()) }
                for alert in out { route(alert, to: queues) }
            }
        } onGracefulShutdown: {
            self.sink.finish()
        }
        flusher.cancel()
        // What the cooldown still holds goes out now: after the stop nothing would send it.
        for alert in coalescer.withLock({ $0.flushAll() }) { route(alert, to: queues) }
        for queue in queues { queue.continuation.finish() }
        // The last alerts (the bot stopped) still go out; a channel that does not answer holds the exit 15 s at most.
        let deadline = Task {
            try? await Task.sleep(for: .seconds(15))
            for drain in drains { drain.cancel() }
        }
        for drain in drains { await drain.value }
        deadline.cancel()
    }

    /// Queues `alert` for the channels its route names (every channel without routes).
    private func route(
        _ alert: OperatorAlert,
        to queues: [(stream: AsyncStream<OperatorAlert>, continuation: AsyncStream<OperatorAlert>.Continuation)]
    ) {
        let names = routes.channels(for: alert)
        for (channel, queue) in zip(channels, queues) where names?.contains(channel.name) ?? true {
            queue.continuation.yield(alert)
        }
    }

    private func drain(_ queue: AsyncStream<OperatorAlert>, to channel: AlertChannel) async {
        var window: [ContinuousClock.Instant] = []
        for await alert in queue {
            window.removeAll { ContinuousClock.now - $0 > .seconds(60) }
            if window.count >= perMinute, let oldest = window.first {
                try? await Task.sleep(until: oldest + .seconds(60))
                window.removeFirst()
            }
            window.append(.now)
            await deliver(alert, to: channel)
        }
    }

    private func deliver(_ alert: OperatorAlert, to channel: AlertChannel) async {
        let deliveries: [AlertChannel.Delivery]
        do { deliveries = try channel.deliveries(alert, bot) } catch {
            logger.warning("alert not sent to \(channel.name): \(error)")
            return
        }
        for delivery in deliveries {
            var attempt = 0
            while true {
                do {
                    try await delivery()
                    sent.withLock { $0[channel.name, default: 0] += 1 }
                    break
                } catch {
                    guard attempt < retryDelays.count, !Task.isCancelled else {
                        logger.warning("alert not delivered to \(channel.name) after \(attempt + 1) attempts: \(error)")
                        break
                    }
                    try? await Task.sleep(for: retryDelays[attempt])
                    attempt += 1
                }
            }
        }
    }
}

struct AlertDeliveryError: Error, CustomStringConvertible {
    /// The HTTP status of an answer that was not 2xx; `nil` when none came.
    var status: Int?
    /// Why no answer came, without the channel's URL.
    var reason = ""
    var description: String { status.map { "the channel answered HTTP \($0)" } ?? "the channel could not be reached: \(reason)" }
}
