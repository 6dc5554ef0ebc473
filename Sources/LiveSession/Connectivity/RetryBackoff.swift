import Logging

/// Capped exponential backoff with an ALERT after repeated failure, for something the run can go on without
/// (the quote feed: the strategy keeps running on bars). Pure.
///
/// ```swift
/// let retry = RetryBackoff(first: .seconds(1), maximum: .seconds(300), alertAfter: 3)
/// retry.delay(afterFailures: 1)   // 1 s
/// retry.delay(afterFailures: 4)   // 8 s
/// retry.isAlert(failures: 3)      // true (once: 4 is not)
/// ```
public struct RetryBackoff: Sendable, Equatable, Codable {
    /// The delay after the first failure.
    public var first: Duration
    /// The longest delay.
    public var maximum: Duration
    /// The failure in a row that raises the ALERT (logged once per streak).
    public var alertAfter: Int

    /// Creates a policy.
    public init(first: Duration, maximum: Duration, alertAfter: Int) {
        self.first = first
        self.maximum = max(first, maximum)
        self.alertAfter = max(1, alertAfter)
    }

    /// The delay before the next attempt after `failures` in a row (1 = the first failure): `first` doubling, capped.
    public func delay(afterFailures failures: Int) -> Duration {
        var delay = first
        var n = 1
        while n < failures, delay < maximum {
            delay = delay * 2
            n += 1
        }
        return min(delay, maximum)
    }

    /// Whether this failure in a row raises the ALERT (exactly the `alertAfter`th).
    public func isAlert(failures: Int) -> Bool { failures == alertAfter }

    /// The log line of a failure: info before the ALERT, a warning ALERT at `alertAfter`, a notice after it.
    public func failure(_ what: String, reason: String, failures: Int) -> (Logger.Level, String) {
        let next = "retrying in \(delay(afterFailures: failures))"
        if isAlert(failures: failures) {
            return (.warning, "ALERT: \(what) failed \(failures) times in a row (last: \(reason)); \(next)")
        }
        return (failures > alertAfter ? .notice : .info, "\(what) failed (\(failures) in a row): \(reason); \(next)")
    }
}
