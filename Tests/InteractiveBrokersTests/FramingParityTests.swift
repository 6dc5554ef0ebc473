import Foundation
import Testing
import TWSTestSupport
import TraderConfig
import TraderKit
import TradingEngine
import TradingModel

/// Issue 43's acceptance: the bot at the top server version (226: binary ids, protobuf both ways) and at 200 (text)
/// against the simulator makes the same decisions on the demo: the same intents, the same orders at the broker, the
/// same fills, and the same session log: every input at the same (virtual) time leading to the same actions.
@Suite("The demo decides the same over protobuf and text", .ownThread)
struct FramingParityTests {
    @Test(.timeLimit(.minutes(5)))
    func demoAt226EqualsDemoAt200() async throws {
        let (settings, momentum) = try DemoRotationTests.example()
        let runner = LiveRunSetup.runner(settings, options: LiveRunOptions())
        #expect(runner.connection.versions.upperBound == 226, "run advertises connection.maxServerVersion")
        var scenario = ParityScenario(
            data: try GatewaySetup.data(GatewaySetup.demoData, synthetic: nil, seed: 0), symbols: runner.session.symbols,
            start: GatewaySetup.demoStart, warmup: runner.session.warmupDuration, steps: 30 * 12, engine: runner.session.engine)
        scenario.barSize = runner.session.warmupBarSize
        scenario.allowsRestingOrders = true
        scenario.maximumServerVersion = 200
        let text = try await paperRun(MomentumRotation(config: momentum), scenario)
        scenario.maximumServerVersion = 226
        let protobuf = try await paperRun(MomentumRotation(config: momentum), scenario)
        #expect(!text.intents.isEmpty, "the demo traded within the half hour")
        #expect(protobuf.intents == text.intents)
        #expect(protobuf.received == text.received)
        #expect(protobuf.executions == text.executions)
        #expect(protobuf.bars.map(\.1) == text.bars.map(\.1))
        // The session logs: step for step the same time and the same decisions (log lines and milestones may name
        // the framing).
        #expect(protobuf.sessionLog.count == text.sessionLog.count)
        let steps = zip(protobuf.sessionLog, text.sessionLog)
        let first = steps.enumerated().first { $0.element.0.time != $0.element.1.time || $0.element.0.decisions != $0.element.1.decisions }
        #expect(first == nil, "first different step: \(first.map { "\($0.offset): \($0.element.0.input) → \($0.element.0.decisions) vs \($0.element.1.input) → \($0.element.1.decisions)" } ?? "")")
    }
}
