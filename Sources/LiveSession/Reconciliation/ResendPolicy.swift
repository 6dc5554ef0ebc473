import TradingModel

/// When an intent that never reached the broker may still be sent after a restart. Pure.
///
/// A restart can come seconds or days after the crash. An order the strategy wanted then is not necessarily one it
/// wants now: a market order journaled before yesterday's close must not go out this morning. So an unsent intent
/// is **abandoned** (journaled as cancelled, with the reason logged) when it is older than `maxAge`, or when it is a
/// market or DAY order from an earlier (UTC) day than now; otherwise it is sent once, under its original orderRef.
///
/// ```swift
/// let policy = ResendPolicy(maxAge: .minutes(5))
/// policy.staleReason(createdAt: intentTime, request: request, now: now)   // nil: send it
/// ```
public struct ResendPolicy: Sendable, Hashable, Codable {
    /// The oldest intent that is still sent (`nil`: no age limit; zero: none is ever sent again).
    public var maxAge: TimeSpan?
    /// Market and DAY orders created on an earlier UTC day than now are abandoned whatever their age.
    public var sameDayOnlyForMarketAndDay: Bool

    /// Creates a policy; default: 5 minutes, market/DAY orders of an earlier day abandoned.
    public init(maxAge: TimeSpan? = .minutes(5), sameDayOnlyForMarketAndDay: Bool = true) {
        self.maxAge = maxAge
        self.sameDayOnlyForMarketAndDay = sameDayOnlyForMarketAndDay
    }

    /// The policy of `orders.resendMaxAge` (seconds; 0: never resend), market/DAY orders of an earlier day
    /// abandoned.
    public static func maxAge(seconds: Double) -> ResendPolicy {
        ResendPolicy(maxAge: TimeSpan(nanoseconds: Int64((seconds * 1e9).rounded())))
    }

    /// A policy that sends every unsent intent, however old (tests, and the reconciler's default when no time
    /// is given).
    public static let always = ResendPolicy(maxAge: nil, sameDayOnlyForMarketAndDay: false)

    /// Why an intent is too old to send, or `nil` when it may be sent.
    /// - Parameters:
    ///   - createdAt: when the intent was journaled (`nil`: unknown; never judged stale).
    ///   - request: what it asks for.
    ///   - now: the time of the restart (`nil`: unknown; never judged stale).
    /// - Returns: the reason to abandon it, or `nil`.
    public func staleReason(createdAt: Timestamp?, request: OrderRequest, now: Timestamp?) -> String? {
        if let maxAge, maxAge.nanoseconds <= 0 { return "resending after a restart is off (maximum age 0)" }
        guard let createdAt, let now else { return nil }
        let age = TimeSpan(nanoseconds: now.nanoseconds - createdAt.nanoseconds)
        if sameDayOnlyForMarketAndDay, request.type == .market || request.timeInForce == .day,
            createdAt.dayNumber < now.dayNumber
        {
            return "a \(request.type == .market ? "market" : "DAY") order journaled on an earlier day (\(createdAt))"
        }
        if let maxAge, age > maxAge {
            return "journaled \(age.nanoseconds / 1_000_000_000) s ago, more than the \(maxAge.nanoseconds / 1_000_000_000) s allowed"
        }
        return nil
    }
}
