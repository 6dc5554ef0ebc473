import Testing
import TradingEngine
import TradingModel

/// The risk monitor's limits at their exact values and one cent past them, the rapid-loss window at its exact
/// length, and which halts a restart's baseline counts as halted (issue 80: the generated mutants of
/// `RiskMonitor.swift` these catch survived the older tests, which stop a dollar short of each limit).
@Suite struct RiskMonitorEdgeTests {
    /// 1 cent: the smallest loss a test here adds past a limit.
    static let cent = Money("0.01")!

    @Test("a daily loss of exactly the limit is allowed, one cent more blocks entries")
    func aDailyLossOfExactlyTheLimitIsAllowed() {
        var config = RiskConfig()
        config.maxDailyLossPercent = 2
        var monitor = RiskMonitor(config: config)
        monitor.observe(equity: Money(100_000), at: E.time(0))
        monitor.observe(equity: Money(98_000), at: E.time(1))
        #expect(!monitor.status.dailyLossBreached)
        monitor.observe(equity: Money(98_000) - Self.cent, at: E.time(2))
        #expect(monitor.status.dailyLossBreached)
    }

    @Test("a drawdown of exactly the limit from the peak is allowed, one cent more halts entries")
    func aDrawdownOfExactlyTheLimitIsAllowed() {
        var config = RiskConfig()
        config.maxDrawdownPercent = 10
        var monitor = RiskMonitor(config: config)
        monitor.observe(equity: Money(100_000), at: E.time(0))
        monitor.observe(equity: Money(120_000), at: E.time(1))
        monitor.observe(equity: Money(108_000), at: E.time(2))
        #expect(!monitor.status.drawdownHalted)
        monitor.observe(equity: Money(108_000) - Self.cent, at: E.time(3))
        #expect(monitor.status.drawdownHalted)
    }

    @Test("a rapid loss of exactly the limit is allowed, one cent more halts entries")
    func aRapidLossOfExactlyTheLimitIsAllowed() {
        var config = RiskConfig()
        config.rapidLossPercent = 3
        config.rapidLossWindow = .minutes(10)
        var monitor = RiskMonitor(config: config)
        monitor.observe(equity: Money(100_000), at: E.time(0))
        monitor.observe(equity: Money(97_000), at: E.time(1))
        #expect(!monitor.status.rapidLossHalted)
        monitor.observe(equity: Money(97_000) - Self.cent, at: E.time(2))
        #expect(monitor.status.rapidLossHalted)
    }

    @Test("the high exactly the window ago is still in the rapid-loss window, one nanosecond later it is not")
    func theRapidLossWindowIncludesItsStart() {
        var config = RiskConfig()
        config.rapidLossPercent = 3
        config.rapidLossWindow = .minutes(10)
        var atTheEdge = RiskMonitor(config: config)
        atTheEdge.observe(equity: Money(100_000), at: E.time(0))
        atTheEdge.observe(equity: Money(96_000), at: E.time(10))
        #expect(atTheEdge.status.rapidLossHalted)
        var past = RiskMonitor(config: config)
        past.observe(equity: Money(100_000), at: E.time(0))
        past.observe(equity: Money(96_000), at: E.time(10) + TimeSpan(nanoseconds: 1))
        #expect(!past.status.rapidLossHalted)
    }

    @Test("a baseline is halted by any one of its three halts, and by none when all are clear")
    func aBaselineIsHaltedByAnyOneHalt() {
        let clear = RiskBaseline(day: 18_263, dayStartEquity: Money(100_000), peakEquity: Money(100_000))
        #expect(!clear.isHalted)
        var daily = clear
        daily.dailyLossBreached = true
        #expect(daily.isHalted)
        var drawdown = clear
        drawdown.drawdownHalted = true
        #expect(drawdown.isHalted)
        var rapid = clear
        rapid.rapidLossHalted = true
        #expect(rapid.isHalted)
    }
}
