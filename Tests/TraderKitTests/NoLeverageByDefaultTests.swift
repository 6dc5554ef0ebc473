import Backtest
import Foundation
import Simulation
import Testing
import TWSTestSupport
import TraderConfig
import TraderKit
import TradingEngine
import TradingModel

/// Issue 42: leverage is opt-in for every strategy. Without `risk.allowLeverage` the risk profile caps gross exposure
/// at 1 × equity whatever the strategy, so no run borrows; with it, Reg T margin applies unless a rate is configured.
@Suite(.ownThread)
struct NoLeverageByDefaultTests {
    /// A small deterministic generator (SplitMix64), so a failing case names its seed.
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
        mutating func int(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(next() % UInt64(range.count)) }
        mutating func pick<T>(_ items: [T]) -> T { items[int(0...(items.count - 1))] }
    }

    /// Daily bars on weekdays as a random walk, written as `SYMBOL_1d.csv` files. Without `gaps` each open is the
    /// previous close (a market order fills at the price it was checked at); with it the open jumps from the close
    /// by up to ±`gaps` (a fraction), and by four times that now and then.
    static func writeBars(
        symbols: [String], days: Int, into directory: String, random: inout Random, gaps: Double = 0
    ) throws {
        for symbol in symbols {
            var close = 5 + random.unit() * 1_995
            let volatility = 0.01 + random.unit() * 0.04
            var text = "date,open,high,low,close,volume\n"
            var date = Date(timeIntervalSince1970: 1_262_563_200)  // Monday 2010-01-04
            var written = 0
            let format = DateFormatter()
            format.dateFormat = "yyyy-MM-dd"
            format.timeZone = TimeZone(identifier: "UTC")
            while written < days {
                let weekday = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: date).weekday!
                if weekday != 1 && weekday != 7 {
                    let jump = gaps * (random.unit() < 0.1 ? 4 : 1) * (random.unit() * 2 - 1)
                    let open = max(0.5, close * (1 + jump))
                    // A fat-tailed day now and then, so sizing meets both calm and violent markets.
                    let shock = random.unit() < 0.05 ? 4.0 : 1.0
                    close = max(0.5, open * (1 + volatility * shock * (random.unit() * 2 - 1)))
                    let high = max(open, close) * (1 + random.unit() * volatility / 2)
                    let low = min(open, close) * (1 - random.unit() * volatility / 2)
                    func cents(_ value: Double) -> String { String(format: "%.2f", value) }
                    text += "\(format.string(from: date)),\(cents(open)),\(cents(high)),\(cents(low)),\(cents(close)),"
                        + "\(random.int(10_000...5_000_000))\n"
                    written += 1
                }
                date.addTimeInterval(86_400)
            }
            try text.write(toFile: directory + "/\(symbol)_1d.csv", atomically: true, encoding: .utf8)
        }
    }

    static func run(_ sets: [String: String]) throws -> (BacktestResult, RiskConfig) {
        let flags = sets.sorted { $0.key < $1.key }.map { ConfigOverride(path: $0.key, value: $0.value, flag: "--set \($0.key)") }
        let job = BacktestJob(try ConfigLoader.load(ConfigSources(files: [], flags: flags)).settings)
        let spec = try #require(job.spec)
        let market = try BacktestDataLoader.load(try job.resolveData(), settings: job.configuration.backtest)
        let config = job.backtestConfig(spec: spec)
        let runner = job.configuration.strategy.runner.styled(job.configuration.orders.executionStyle)
        return (runner.backtest(market.data, config, nil), config.engine.risk)
    }

    /// Random settings a trader might write: any strategy, long-only, sized by a fixed share count (up to far more
    /// than the account can pay), a percentage of equity, or ATR risk.
    static func randomSettings(_ random: inout Random, directory: String, symbols: [String]) -> [String: String] {
        let strategy = random.pick(["sma-cross", "rsi", "bollinger", "momentum"])
        var sets = [
            "strategy.name": strategy, "backtest.data": directory,
            "backtest.slippageBps": "0", "universe.symbols": "[\(symbols.joined(separator: ", "))]",
            "strategy.cash": "\(random.int(5...500) * 1_000)",
        ]
        switch strategy {
        case "momentum":
            sets["strategy.parameters.holdings"] = "\(random.int(1...symbols.count))"
            sets["strategy.parameters.lookback"] = "\(random.int(5...40))"
            sets["strategy.parameters.investedFraction"] = "\(Double(random.int(50...100)) / 100)"
        default:
            sets["strategy.parameters.sizing"] = random.pick([
                "fixed: \(random.int(1...20_000))", "percentOfEquity: \(random.int(5...100))",
                "{riskBased: {riskPercent: \(random.int(1...5)), atrMultiple: 1}}",
            ])
        }
        if strategy == "sma-cross" {
            let fast = random.int(2...10)
            sets["strategy.parameters.fastPeriod"] = "\(fast)"
            sets["strategy.parameters.slowPeriod"] = "\(fast + random.int(1...20))"
        }
        // Any schedule: the check leaves room for the commission an entry pays (cash stays at or above zero after it).
        sets["backtest.commission"] = random.pick(["none", "ibkr-fixed", "ibkr-tiered", "percent:0.2"])
        return sets
    }

    @Test(arguments: 0..<16)
    func noRunWithoutAllowLeverageBorrows(seed: Int) throws {
        var random = Random(state: UInt64(seed) &* 7_919 &+ 42)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("noleverage-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let symbols = (0..<random.int(1...5)).map { "S\($0)" }
        try Self.writeBars(symbols: symbols, days: 260, into: directory, random: &random)
        let sets = Self.randomSettings(&random, directory: directory, symbols: symbols)
        let (result, risk) = try Self.run(sets)
        #expect(risk.maxGrossExposureRatio == 0.9975, "seed \(seed): 1 less the 0.25 % cash buffer; \(sets)")
        #expect(!result.equityCurve.isEmpty)
        for point in result.equityCurve {
            let ratio = point.grossExposure.doubleValue / point.equity.doubleValue
            #expect(ratio <= 1 + 1e-9, "seed \(seed) at \(point.time): gross \(ratio) × equity; \(sets)")
            #expect(point.cash >= .zero, "seed \(seed) at \(point.time): cash \(point.cash); \(sets)")
            if ratio > 1 + 1e-9 || point.cash < .zero { break }
        }
    }

    /// Across gaps, an unlevered run that wants no borrowing at all has it: entries capped by a limit above the last
    /// close (`orders.entry: limit`, `orders.limitOffset: N bps`) are checked at their cap, so no fill pays more than
    /// the check counted, and buys spend settled cash only (`risk.requireSettledCash` with T+1), so no sale's
    /// proceeds are counted before the sale has filled at whatever the open gave. Random strategies, sizes and caps
    /// over prices that gap up to 8 % at the open (32 % now and then): cash never goes below zero, nor gross exposure
    /// above equity. Each part is needed: with market entries 4 of these seeds go over, with caps checked at the
    /// last close 2, with T+0 (a sale counted before it fills) 1.
    @Test(arguments: 0..<12)
    func cappedEntriesOnSettledCashNeverBorrowAcrossGaps(seed: Int) throws {
        var random = Random(state: UInt64(seed) &* 104_729 &+ 7)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gaps-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let symbols = (0..<random.int(1...5)).map { "S\($0)" }
        try Self.writeBars(symbols: symbols, days: 260, into: directory, random: &random, gaps: 0.08)
        var sets = Self.randomSettings(&random, directory: directory, symbols: symbols)
        sets["orders.entry"] = "limit"
        sets["orders.limitOffset"] = "\(random.int(0...200)) bps"
        sets["risk.requireSettledCash"] = "true"
        sets["backtest.settlementDays"] = "1"
        let (result, _) = try Self.run(sets)
        #expect(result.fills.count > 2, "seed \(seed): too few fills to mean anything; \(sets)")
        for point in result.equityCurve {
            let ratio = point.grossExposure.doubleValue / point.equity.doubleValue
            #expect(ratio <= 1 + 1e-9, "seed \(seed) at \(point.time): gross \(ratio) × equity; \(sets)")
            #expect(point.cash >= .zero, "seed \(seed) at \(point.time): cash \(point.cash); \(sets)")
            if ratio > 1 + 1e-9 || point.cash < .zero { break }
        }
    }

    /// The summary's warning names what a run that went over its gross exposure limit lacks: market entries get both
    /// remedies, capped entries on cash counted before the sale filled get settled cash, and with both only prices
    /// moving the book are left. Without a configured limit nothing goes over 1 × equity any more (issue 80: cash pays
    /// every fill, a gap at the open cuts it), so there is no warning, and the summary counts the cuts instead.
    @Test func theExposureWarningSaysWhatRulesTheGapOut() throws {
        func summary(_ extra: [String: String]) throws -> BacktestSummaryReport {
            var sets = [
                "strategy.name": "sma-cross", "strategy.parameters.sizing": "percentOfEquity: 50",
                "backtest.data": "bundled:stocks", "universe.symbols": "[AAPL, MSFT, GOOG]",
            ]
            sets.merge(extra) { $1 }
            let flags = sets.sorted { $0.key < $1.key }.map { ConfigOverride(path: $0.key, value: $0.value, flag: "--set \($0.key)") }
            let job = BacktestJob(try ConfigLoader.load(ConfigSources(files: [], flags: flags)).settings)
            return try job.run(progress: ProgressBar(quiet: true)).summary
        }
        let unlevered = try summary([:])
        #expect(unlevered.exposureWarning == nil)
        #expect(unlevered.result.fundsCuts.count > 0, "the gaps the warning used to report are cut at the fill")
        let limited = ["risk.maxGrossExposureRatio": "0.5"]
        let market = try #require(try summary(limited).exposureWarning)
        #expect(market.contains("Market entries are sized and checked at the signal bar's close"))
        #expect(market.contains("cap entries (orders.entry: limit") && market.contains("risk.requireSettledCash"))
        var capped = limited
        capped.merge(["orders.entry": "limit", "orders.limitOffset": "50 bps"]) { $1 }
        let cappedWarning = try #require(try summary(capped).exposureWarning)
        #expect(cappedWarning.contains("a buy counted on a sale's proceeds before the sale filled"))
        #expect(!cappedWarning.contains("cap entries"))
        var both = capped
        both["risk.requireSettledCash"] = "true"
        both["backtest.settlementDays"] = "1"
        let moved = try #require(try summary(both).exposureWarning)
        #expect(moved.contains("Prices moved the book beyond it"))
    }

    /// The issue's own case: 2,000 shares of GOOG (over $1M on $100,000) is scaled down to fit, the summary names
    /// the limit and where it came from; with `allowLeverage` Reg T margin bounds it at 2 × equity at each entry.
    @Test func aFixedSizeAboveEquityIsScaledDownAndSaysWhy() throws {
        let base = [
            "strategy.name": "sma-cross", "strategy.parameters.sizing": "fixed: 2000", "backtest.data": "bundled:stocks",
            "universe.symbols": "[GOOG]",
        ]
        let (result, risk) = try Self.run(base)
        #expect(risk.maxGrossExposureRatio == 0.9975)
        #expect(result.riskAdjustmentCounts[.maxGrossExposure, default: 0] > 0)
        #expect(result.riskAdjustments.allSatisfy { $0.note.contains("gross exposure") })
        let profile = RiskSettings().profile(for: nil)
        let line = try #require(profile.lines.first { $0.key == "maxGrossExposureRatio" })
        #expect(line.origin == .safetyDefault)
        #expect(profile.text.contains("maxGrossExposureRatio 0.9975 × equity (safety default: no leverage without "
            + "risk.allowLeverage, less risk.cashBufferPercent 0.25 % kept in cash)"))
        // Before: 4.3 × equity and cash of −$385,780. Now cash pays every fill: a gap at the open cuts the fill.
        let peak = try #require(result.exposureExtremes)
        #expect(peak.peakGrossRatio <= 1 + 1e-9)

        var levered = base
        levered["risk.allowLeverage"] = "true"
        let (leveredResult, leveredRisk) = try Self.run(levered)
        #expect(leveredRisk.maxGrossExposureRatio == nil)
        #expect(leveredRisk.initialMarginPercent == RiskProfile.regTInitialMarginPercent)
        #expect(leveredResult.riskAdjustmentCounts[.initialMargin, default: 0] > 0)
        let leveredPeak = try #require(leveredResult.exposureExtremes)
        #expect(leveredPeak.peakGrossRatio > 1.5 && leveredPeak.peakGrossRatio < 2.2)
        // Buying power (equity less the book's initial margin) is reported with the margin rule, and only with it.
        #expect(result.lowestBuyingPower == nil)
        let low = try #require(leveredResult.lowestBuyingPower)
        let atLow = try #require(leveredResult.equityCurve.first { $0.time == low.time })
        #expect(abs(low.value.doubleValue - (atLow.equity.doubleValue - 0.5 * atLow.grossExposure.doubleValue)) < 0.02)
        // The curve carries buying power at every point with the margin rule (equity.csv's buying_power), and its
        // lowest is the summary's; without the rule, no column.
        let curve = leveredResult.equityCurve
        #expect(curve.hasBuyingPower && !result.equityCurve.hasBuyingPower)
        let lowest = try #require(curve.indices.compactMap { curve.buyingPower(at: $0) }.min())
        #expect(lowest == low.value)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bp-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try BacktestOutput(result: leveredResult, isDaily: true).writeEquityCSV(to: folder + "/levered.csv")
        try BacktestOutput(result: result, isDaily: true).writeEquityCSV(to: folder + "/plain.csv")
        let leveredRows = try String(contentsOfFile: folder + "/levered.csv", encoding: .utf8).split(separator: "\n")
        #expect(leveredRows.first == "time,equity,cash,gross_exposure,drawdown,buying_power")
        #expect(leveredRows.count == curve.count + 1 && leveredRows.dropFirst().allSatisfy { $0.split(separator: ",").count == 6 })
        let plain = try String(contentsOfFile: folder + "/plain.csv", encoding: .utf8)
        #expect(plain.hasPrefix("time,equity,cash,gross_exposure,drawdown\n"))
    }

    /// A configured limit always wins over the safety defaults.
    @Test func aConfiguredLimitWins() {
        var risk = RiskSettings()
        risk.limits.maxGrossExposureRatio = 0.5
        #expect(risk.profile(for: nil).config.maxGrossExposureRatio == 0.5)
        #expect(risk.profile(for: nil).lines.first { $0.key == "maxGrossExposureRatio" }?.origin == .configured)
        risk.allowLeverage = true
        risk.limits.maxGrossExposureRatio = nil
        risk.limits.initialMarginPercent = 30
        let profile = risk.profile(for: nil)
        #expect(profile.config.maxGrossExposureRatio == nil)
        #expect(profile.config.initialMarginPercent == 30)
    }
}
