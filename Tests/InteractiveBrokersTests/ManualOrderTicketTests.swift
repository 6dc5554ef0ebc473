import LiveSession
import Testing
import TradingEngine
import TradingModel

@testable import InteractiveBrokers

@Suite("ibtrader order: arguments and risk")
struct ManualOrderTicketTests {
    static func args(
        _ side: String = "buy", _ quantity: String = "10", type: String = "MKT",
        _ change: (inout ManualOrderArguments) -> Void = { _ in }
    ) -> ManualOrderArguments {
        var a = ManualOrderArguments(side: side, symbol: "aapl", quantity: quantity)
        a.type = type
        change(&a)
        return a
    }

    static func message(_ a: ManualOrderArguments) -> String? {
        do {
            _ = try ManualOrderTicket(a, at: .zero)
            return nil
        } catch {
            return error.message
        }
    }

    @Test("futures and currency pairs are named as the bot names them, and by IB's local symbols")
    func futuresAndPairsAreNamedAsTheBotNamesThem() throws {
        // 2026-04-15 12:00 UTC.
        let now = Timestamp(seconds: 1_776_254_400)
        for (written, name, local) in [
            ("ES 2026-12", "ES 2026-12", nil), ("esz26", "ES 2026-12", nil), ("ESZ2026", "ES 2026-12", nil),
            ("ESZ6", "ES 2026-12", "ESZ6"), ("mesm6", "MES 2026-06", "MESM6"), ("EUR.USD", "EUR.USD", nil),
            ("EURUSD", "EUR.USD", nil), ("eur/usd", "EUR.USD", nil), ("BRK.B", "BRK.B", nil), ("aapl", "AAPL", nil),
        ] as [(String, String, String?)] {
            let ticket = try ManualOrderTicket(Self.args { $0.symbol = written }, at: now)
            #expect(ticket.symbol.rawValue == name && ticket.localSymbol == local, "\(written)")
        }
        #expect(try ManualOrderTicket(Self.args { $0.symbol = "MESM6" }, at: now).referenceName == "MESM6")
        #expect(try ManualOrderTicket(Self.args { $0.symbol = "ES 2026-12" }, at: now).referenceName == "ES2026-12")
        #expect(try ManualOrderTicket(Self.args { $0.symbol = "ESZ6" }, at: now).kind.multiplier == 50)
        let unknown = Self.message(Self.args { $0.symbol = "XXZ6" })
        #expect(unknown?.contains("XX is not a futures root IBTrader knows the terms of") == true, "\(unknown ?? "taken")")
        let rolled = Self.message(Self.args { $0.symbol = "ES continuous" })
        #expect(rolled?.contains("names its contract month") == true, "\(rolled ?? "taken")")
        #expect(Self.message(Self.args { $0.symbol = "AAPL MSFT" })?.contains("must be one word") == true)
        #expect(Self.message(Self.args { $0.symbol = "ES 2026-13" })?.contains("YYYY-MM") == true)
    }

    @Test("each order type with its prices")
    func types() throws {
        #expect(try ManualOrderTicket(Self.args(), at: .zero).type == .market)
        #expect(try ManualOrderTicket(Self.args(type: "LMT") { $0.limit = "150.25" }, at: .zero).type == .limit(Price("150.25")!))
        #expect(try ManualOrderTicket(Self.args(type: "stp") { $0.stop = "140" }, at: .zero).type == .stop(Price(140)))
        #expect(
            try ManualOrderTicket(Self.args(type: "STP_LMT") { $0.stop = "140"; $0.limit = "139.5" }, at: .zero).type
                == .stopLimit(stop: Price(140), limit: Price("139.5")!))
        #expect(try ManualOrderTicket(Self.args(type: "TRAIL") { $0.trailPercent = "1.5" }, at: .zero).type == .trailingPercent(1.5))
        let ticket = try ManualOrderTicket(Self.args("SELL", type: "TRAIL") { $0.trailAmount = "2"; $0.timeInForce = "gtc" }, at: .zero)
        #expect(ticket.type == .trailingAmount(Price(2)) && ticket.side == .sell && ticket.timeInForce == .gtc)
        #expect(ticket.symbol == "AAPL")
    }

    @Test(
        "clear errors that name the option",
        arguments: [
            (ManualOrderTicketTests.args(type: "LMT"), "a LMT order needs --limit PRICE"),
            (ManualOrderTicketTests.args(type: "STP_LMT") { $0.stop = "1" }, "a STP_LMT order needs --stop PRICE and --limit PRICE"),
            (ManualOrderTicketTests.args(type: "TRAIL"), "a TRAIL order needs --trail-amount A or --trail-percent P"),
            (ManualOrderTicketTests.args(type: "TRAIL") { $0.trailAmount = "1"; $0.trailPercent = "1" }, "--trail-amount and --trail-percent are exclusive: give one"),
            (ManualOrderTicketTests.args { $0.limit = "1" }, "--limit does not apply to a MKT order"),
            (ManualOrderTicketTests.args { $0.takeProfit = "200" }, "a bracket needs both --take-profit PRICE and --stop-loss PRICE"),
            (ManualOrderTicketTests.args { $0.stopLoss = "100" }, "a bracket needs both --take-profit PRICE and --stop-loss PRICE"),
            (ManualOrderTicketTests.args { $0.takeProfit = "100"; $0.stopLoss = "200" }, "--take-profit 100 must be above --stop-loss 200 for a buy"),
            (ManualOrderTicketTests.args("hold"), "the side must be buy or sell, got 'hold'"),
            (ManualOrderTicketTests.args("buy", "-5"), "the quantity must be a positive number, got '-5'"),
            (ManualOrderTicketTests.args { $0.timeInForce = "FOK" }, "--tif must be DAY, GTC, IOC or GTD, got 'FOK'"),
            (ManualOrderTicketTests.args(type: "MOC"), "--type must be MKT, LMT, STP, STP_LMT, TRAIL or MIDPRICE, got 'MOC'"),
            (ManualOrderTicketTests.args(type: "LMT") { $0.limit = "abc" }, "--limit must be a positive price, got 'abc'"),
            (ManualOrderTicketTests.args(type: "TRAIL") { $0.trailPercent = "150" }, "--trail-percent must be a number in (0, 100), got '150'"),
        ])
    func errors(_ a: ManualOrderArguments, _ expected: String) {
        #expect(Self.message(a) == expected)
    }

    @Test("a bracket becomes the entry and its stop-loss and take-profit, linked, with stable keys")
    func bracketOrders() throws {
        let ticket = try ManualOrderTicket(Self.args(type: "LMT") { $0.limit = "100"; $0.takeProfit = "110"; $0.stopLoss = "95" }, at: .zero)
        let orders = ticket.orders(for: InstrumentID(index: 0), clientOrderID: "k1", at: .zero)
        #expect(orders.map(\.clientOrderID.rawValue) == ["k1", "k1-SL", "k1-TP"])
        #expect(orders.map(\.type) == [.limit(Price(100)), .stop(Price(95)), .limit(Price(110))])
        #expect(orders.map(\.side) == [.buy, .sell, .sell])
        #expect(orders.dropFirst().allSatisfy { $0.parentID == orders[0].id && $0.state == .submitted })
    }

    // MARK: - Risk

    static func account(position: Int64 = 0) -> ManualAccountState {
        ManualAccountState(
            equity: Money(100_000), grossExposure: Money(30_000), activePositions: 2, position: Quantity(position))
    }

    @Test("the engine's rules deny entries and let exits through")
    func riskRules() throws {
        var config = RiskConfig()
        config.maxPositionValue = Money(5_000)
        let buy = try ManualOrderTicket(Self.args("buy", "100"), at: .zero)
        let denial = ManualRiskCheck.denial(buy, config: config, account: Self.account(), referencePrice: Price(60), at: .zero)
        #expect(denial?.rule == .maxPositionValue)
        // Selling out of a 100-share long position is an exit: never blocked by value limits.
        let sell = try ManualOrderTicket(Self.args("sell", "100"), at: .zero)
        #expect(ManualRiskCheck.denial(sell, config: config, account: Self.account(position: 100), referencePrice: Price(60), at: .zero) == nil)
        #expect(ManualRiskCheck.denial(buy, config: config, account: Self.account(), referencePrice: Price(40), at: .zero) == nil)

        var positions = RiskConfig()
        positions.maxActivePositions = 2
        #expect(ManualRiskCheck.denial(buy, config: positions, account: Self.account(), referencePrice: Price(1), at: .zero)?.rule == .maxActivePositions)
        var exposure = RiskConfig()
        exposure.maxGrossExposureRatio = 0.35
        #expect(ManualRiskCheck.denial(buy, config: exposure, account: Self.account(), referencePrice: Price(60), at: .zero)?.rule == .maxGrossExposure)
    }

    @Test("daily loss from reqPnL, the kill switch, and an order that cannot be valued")
    func riskInputs() throws {
        let buy = try ManualOrderTicket(Self.args(), at: .zero)
        var daily = RiskConfig()
        daily.maxDailyLossPercent = 2
        var state = Self.account()
        state.dailyPnL = Money(-3_000)  // started the day at 103,000: down 2.9 %
        #expect(ManualRiskCheck.denial(buy, config: daily, account: state, referencePrice: Price(10), at: .zero)?.rule == .maxDailyLoss)
        state.dailyPnL = Money(-1_000)
        #expect(ManualRiskCheck.denial(buy, config: daily, account: state, referencePrice: Price(10), at: .zero) == nil)

        state.killSwitchEngaged = true
        #expect(ManualRiskCheck.denial(buy, config: RiskConfig(), account: state, referencePrice: nil, at: .zero)?.rule == .killSwitch)

        var value = RiskConfig()
        value.maxPositionPercentOfEquity = 10
        let unpriced = ManualRiskCheck.denial(buy, config: value, account: Self.account(), referencePrice: nil, at: .zero)
        #expect(unpriced?.rule == .invalidOrder)
        // A limit order is valued at its own price.
        let limit = try ManualOrderTicket(Self.args(type: "LMT") { $0.limit = "50" }, at: .zero)
        #expect(ManualRiskCheck.denial(limit, config: value, account: Self.account(), referencePrice: nil, at: .zero) == nil)
    }
}
