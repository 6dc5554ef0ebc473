import Testing

@testable import LiveSession

/// Issue 45: what an operator reads has no Swift type or enum dump in it; `OperatorText.leak` finds one (the soak
/// scans every log line, alert and journal event of the fault catalogue's runs with it).
struct OperatorTextTests {
    /// The issue's own findings, and the shapes around them.
    @Test(arguments: [
        "connect failed: SingleConnectionFailure(target: [IPv4]127.0.0.1/127.0.0.1:4002, error: connection reset)",
        "webhook: HTTPClientError.deadlineExceeded",
        "stopped: CancellationError()",
        "snapshot: EncodingError.invalidValue: -inf (Double). Path: _1._0[0].minTick",
        "Error: ServiceGroupError: errorCode: A service has finished unexpectedly., file: ServiceLifecycle/ServiceGroup.swift, line: 700",
        "price Optional(150.25)",
        "request failed: TWSRequestError.timedOut",
        "decode: Swift.DecodingError.keyNotFound",
    ])
    func aDumpIsFound(_ text: String) {
        #expect(OperatorText.leak(in: text) != nil, "\(text)")
    }

    @Test(arguments: [
        "ALERT: positions differ from the broker's: AAPL 0 here, 100 at the broker. No new orders until they agree",
        "TWS error 202 (order 7): Order Canceled - reason:",
        "the journal cannot be written (database or disk is full); no new orders. Error rate: 0",
        "Failure to connect after 3 attempts; retrying in 4 s",
        "lost the connection to TWS / IB Gateway (connection reset by peer); reconnecting",
        "fill: buy 75 AAPL @ 330.55, commission 1 (order 29)",
    ])
    func wordsPass(_ text: String) {
        #expect(OperatorText.leak(in: text) == nil, "\(text)")
    }
}
