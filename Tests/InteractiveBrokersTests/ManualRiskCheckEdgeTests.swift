import Foundation
import LiveSession
import Testing
import TradingEngine
import TradingModel

/// The manual risk check's boundaries and inputs that its other tests leave at zero (issue 80's generated mutants of
/// `ManualRiskCheck.swift`): the daily loss at exactly its limit and from a day that started at nothing, which limits
/// need a price, a position already held (with open orders adding to it, in the gross exposure, flipped to the same
/// size), and a bracket's stop distance.
@Suite("ibtrader order: the risk check's edges")
struct ManualRiskCheckEdgeTests {
    static let flat = ManualAccountState(equity: Money(100_000), grossExposure: .zero, activePositions: 0, position: .zero)

    static func ticket(_ side: String = "buy", _ quantity: String = "100", _ change: (inout ManualOrderArguments) -> Void = { _ in })
        throws -> ManualOrderTicket
    {
        var arguments = ManualOrderArguments(side: side, symbol: "AAPL", quantity: quantity)
        change(&arguments)
        return try ManualOrderTicket(arguments, at: .zero)
    }

    @Test("the daily loss limit denies below it, not at it; a day that started at nothing or less has no loss limit")
    func dailyLossAtItsLimit() throws {
        let buy = try Self.ticket()
        var config = RiskConfig()
        config.maxDailyLossPercent = 50
        var state = Self.flat
        state.equity = Money(50_000)
        state.dailyPnL = Money(-50_000)  // started at 100,000: down exactly 50 %
        #expect(ManualRiskCheck.denial(buy, config: config, account: state, referencePrice: Price(10), at: .zero) == nil)
        state.dailyPnL = Money(-50_001)
        #expect(ManualRiskCheck.denial(buy, config: config, account: state, referencePrice: Price(10), at: .zero)?.rule == .maxDailyLoss)
        // Equity of −100 after a day's −100: the day started at 0, of which no percentage is a loss.
        state.equity = Money(-100)
        state.dailyPnL = Money(-100)
        #expect(ManualRiskCheck.denial(buy, config: config, account: state, referencePrice: Price(10), at: .zero) == nil)
    }

    @Test("without a price, an order is denied exactly when a limit needs its value", arguments: [
        ("none", false), ("maxPositionValue", true), ("maxPositionPercentOfEquity", true), ("maxGrossExposureRatio", true),
        ("maxRiskPerTradePercent", true), ("requireSettledCash", true),
    ])
    func unpricedOrders(_ limit: String, _ denied: Bool) throws {
        var config = RiskConfig()
        switch limit {
        case "maxPositionValue": config.maxPositionValue = Money(1_000_000)
        case "maxPositionPercentOfEquity": config.maxPositionPercentOfEquity = 100
        case "maxGrossExposureRatio": config.maxGrossExposureRatio = 10
        case "maxRiskPerTradePercent": config.maxRiskPerTradePercent = 100
        case "requireSettledCash": config.requireSettledCash = true
        default: break
        }
        let denial = ManualRiskCheck.denial(try Self.ticket(), config: config, account: Self.flat, referencePrice: nil, at: .zero)
        #expect(denial?.rule == (denied ? .invalidOrder : nil), "\(limit): \(String(describing: denial))")
    }

    @Test("a position held counts with the open orders adding to it, and in the gross exposure only once")
    func heldPosition() throws {
        var value = RiskConfig()
        value.maxPositionValue = Money(10_000)
        var state = Self.flat
        state.position = Quantity(100)
        state.grossExposure = Money(6_000)
        state.activePositions = 1
        let buy = try Self.ticket("buy", "40")
        // 100 held + 40 = 140 × 60 = 8,400: inside; with 50 more working here, 190 × 60 = 11,400 is not.
        #expect(ManualRiskCheck.denial(buy, config: value, account: state, referencePrice: Price(60), at: .zero) == nil)
        state.pendingOrders = [ManualPendingOrder(sameContract: true, side: .buy, quantity: Quantity(50), price: nil, increases: true)]
        #expect(ManualRiskCheck.denial(buy, config: value, account: state, referencePrice: Price(60), at: .zero)?.rule == .maxPositionValue)

        // The gross exposure replaces the held 6,000 by the position after: 30,000 − 6,000 + 8,400 = 32,400 ≤ 33,000.
        var gross = RiskConfig()
        gross.maxGrossExposureRatio = 0.33
        state.pendingOrders = []
        state.grossExposure = Money(30_000)
        #expect(ManualRiskCheck.denial(buy, config: gross, account: state, referencePrice: Price(60), at: .zero) == nil)
        state.grossExposure = Money(30_700)
        #expect(ManualRiskCheck.denial(buy, config: gross, account: state, referencePrice: Price(60), at: .zero)?.rule == .maxGrossExposure)
    }

    @Test("a sell that flips a long to a short of the same size is no entry: the value limits let it through")
    func flipToTheSameSize() throws {
        var value = RiskConfig()
        value.maxPositionValue = Money(1_000)
        var state = Self.flat
        state.position = Quantity(50)
        #expect(ManualRiskCheck.denial(try Self.ticket("sell", "100"), config: value, account: state, referencePrice: Price(60), at: .zero) == nil)
        #expect(ManualRiskCheck.denial(try Self.ticket("sell", "101"), config: value, account: state, referencePrice: Price(60), at: .zero)?.rule == .maxPositionValue)
    }

    @Test("a bracket's risk is its stop's distance below the entry's price")
    func bracketStopDistance() throws {
        var config = RiskConfig()
        config.maxRiskPerTradePercent = 1
        let bracket = try Self.ticket("buy", "100") {
            $0.type = "LMT"
            $0.limit = "60"
            $0.stopLoss = "50"
            $0.takeProfit = "70"
        }
        // 100 × (60 − 50) = 1,000: exactly 1 % of 100,000, allowed; with the stop at 49.99 it is above.
        #expect(ManualRiskCheck.denial(bracket, config: config, account: Self.flat, referencePrice: Price(60), at: .zero) == nil)
        var wider = bracket
        wider.stopLoss = Price("49.99")
        #expect(ManualRiskCheck.denial(wider, config: config, account: Self.flat, referencePrice: Price(60), at: .zero)?.rule == .riskPerTrade)
    }
}
