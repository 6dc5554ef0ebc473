import Foundation
import Testing
import TraderConfig
import TraderKit
import TradingEngine
import TradingModel

/// Issue 43's acceptance: the bot at the top server version (226: binary ids, protobuf both ways) and at 200 (text)
/// against the simulator makes the same decisions on the demo: the same intents, the same orders at the broker, the
/// same fills.
@Suite("The demo decides the same over protobuf and text")
struct FramingParityTests {
    @Test(.timeLimit(.minutes(5)))
    func demoAt226EqualsDemoAt200() async throws {
        let (settings, momentum) = try DemoRotationTests.example()
        let runner = LiveRunSetup.runner(settings, options: LiveRunOptions())
        #expect(runner.connection.versions.upperBound == 226, "run advertises connection.maxServerVersion")
        var scenario = ParityScenario(
            data: try GatewaySetup.data(GatewaySetup.demoData, synthetic: nil, seed: 0), symbols: runner.symbols,
            start: GatewaySetup.demoStart, warmup: runner.warmupDuration, steps: 30 * 12, engine: runner.engine)
        scenario.barSize = runner.warmupBarSize
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
    }
}
