import TWSProtocol

/// How fast messages may leave for TWS (PROTOCOL.md §8.1: at most 50 messages per second, all types together).
///
/// Two mechanisms work together:
/// - a token bucket (here in its GCRA form): `messagesPerSecond` on average, bursts of up to `burst` at once;
/// - a sliding-window guard: never more than `ceilingPerWindow` messages in any closed window of length `window`.
///   This is the hard ceiling; the bucket alone would allow `burst + messagesPerSecond` in one second.
///
/// ```swift
/// let limit = OutboundRateLimit(messagesPerSecond: 40)   // burst 1, ceiling 49 per second
/// ```
public struct OutboundRateLimit: Sendable, Equatable {
    /// The highest ceiling TWS tolerates: it reacts to 50 or more messages in a second (errMsg 100).
    public static let maximumCeiling = 49

    /// The average rate, in messages per second.
    public let messagesPerSecond: Int
    /// How many messages may leave back to back after an idle period.
    public let burst: Int
    /// The most messages allowed in any closed window of length `window`.
    public let ceilingPerWindow: Int
    /// The length of the sliding window of the hard ceiling.
    public let window: Duration

    /// The default: 45 messages per second, as ib_async does; bursts of 3, so a bracket (parent, take-profit,
    /// stop-loss) leaves at once instead of 22 ms apart per child; hard ceiling 49 per second.
    public static let `default` = OutboundRateLimit(burst: 3)

    /// Creates a rate limit; values are clamped so the hard ceiling stays below 50 per second.
    /// - Parameters:
    ///   - messagesPerSecond: the average rate, clamped to `1...49`.
    ///   - burst: back-to-back messages after idling, at least 1.
    ///   - ceilingPerSecond: the hard ceiling in any 1-second window, clamped to `1...49`.
    public init(messagesPerSecond: Int = 45, burst: Int = 1, ceilingPerSecond: Int = Self.maximumCeiling) {
        self.messagesPerSecond = min(max(messagesPerSecond, 1), Self.maximumCeiling)
        self.burst = max(burst, 1)
        self.ceilingPerWindow = min(max(ceilingPerSecond, 1), Self.maximumCeiling)
        self.window = .seconds(1)
    }

    /// The spacing of messages at the average rate.
    var emissionInterval: Duration { .seconds(1) / messagesPerSecond }
}
