import Backtest
import Foundation
import Research
import Testing
import TradingEngine
import TradingModel

@testable import TraderConfig

/// Issue 41's "one home per concept" for strategies: `StrategySpec.visit(_:style:)` is the one place a built-in spec
/// becomes its strategy (the backtest, the sweeps, the live run, the replay, the drift report and `StrategyRunner` all
/// go through it), and a walk-forward window gates and styles a strategy in one order whichever path runs it.
@Suite("strategy dispatch")
struct StrategyDispatchTests {
    /// The type a visitor is handed.
    struct TypeName: StrategyVisitor {
        func visit<S: Strategy>(_ strategy: S) -> String { String(describing: S.self) }
    }

    static let style = ExecutionStyle(
        entry: .limit(offset: .ticks(0), from: .last), timeout: .seconds(120), onTimeout: .reprice, reprices: 1,
        repriceStep: .ticks(1), afterReprices: .market)

    @Test("every built-in spec is handed over as its own strategy, styled when a style is given")
    func everySpecNamesItsStrategy() {
        let specs: [(StrategySpec, String)] = [
            (.movingAverageCrossover(config: MovingAverageCrossoverConfig()), "MovingAverageCrossover"),
            (.rsiMeanReversion(config: RSIMeanReversionConfig()), "RSIMeanReversion"),
            (.bollingerMeanReversion(config: BollingerMeanReversionConfig()), "BollingerMeanReversion"),
            (.momentumRotation(config: MomentumRotationConfig()), "MomentumRotation"),
            (.performanceAllocator(config: PerformanceAllocatorConfig()), "PerformanceAllocator<PerSymbolStrategy>"),
        ]
        for (spec, name) in specs {
            #expect(spec.visit(TypeName()) == name)
            #expect(spec.visit(TypeName(), style: Self.style) == "ExecutionStyled<\(name)>")
        }
    }

    /// One minute bars that cross their averages often, so styled entries are working when a window opens.
    static func wavyMinuteBars(count: Int) -> MarketData {
        let start = Timestamp(seconds: 1_704_205_800)  // 2024-01-02 14:30 UTC
        var bars: [Bar] = []
        var previous = 100.0
        for i in 0..<count {
            let close = 100 + 5 * sin(Double(i) / 7) + 2 * sin(Double(i) / 2.3)
            let open = previous
            let high = max(open, close) + 0.2
            let low = min(open, close) - 0.2
            func price(_ value: Double) -> Price { Price(approximately: (value * 100).rounded() / 100) }
            bars.append(
                Bar(
                    timestamp: start + .seconds(Int64(60 * i)), open: price(open), high: price(high), low: price(low),
                    close: price(close), volume: Quantity(10_000)))
            previous = close
        }
        return MarketData(symbol: "WAVE", bars: bars)
    }

    @Test("a styled walk-forward window: the built-in path and a runner's gate inside the style, the same fills")
    func gatedAndStyledInOneOrder() throws {
        let spec = StrategySpec.movingAverageCrossover(
            config: MovingAverageCrossoverConfig(
                kind: .simple, fastPeriod: 3, slowPeriod: 8, allowShort: false, sizing: .fixedQuantity(Quantity(10))))
        let data = Self.wavyMinuteBars(count: 400)
        var config = BacktestConfig()
        config.recordsEquityCurve = true
        var evaluator = BacktestEvaluator(spec: spec, config: config)
        evaluator.execution = Self.style
        let runner = StrategyRunner(spec: spec).styled(Self.style)
        let times = data.series[0].map(\.timestamp)
        var compared = 0
        // Every window start over a stretch of bars, so some open while an entry before them is still working.
        for start in times[100..<160] {
            let builtIn = try evaluator.backtest(ParameterSet([]), data: data, tradingStart: start)
            let custom = runner.gated(data, config, start)
            #expect(!builtIn.fills.isEmpty)
            #expect(builtIn.fills.allSatisfy { $0.timestamp >= start })
            #expect(
                builtIn.fills.map(Self.row) == custom.fills.map(Self.row),
                "window from \(start): built-in \(builtIn.fills.count) fills, runner \(custom.fills.count)")
            compared += 1
        }
        #expect(compared == 60)
    }

    static func row(_ fill: Fill) -> String { "\(fill.timestamp) \(fill.side) \(fill.quantity) \(fill.price)" }
}
