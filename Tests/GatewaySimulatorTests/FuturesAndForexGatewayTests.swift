import BundledData
import Foundation
import GatewayCore
import Simulation
import TWSProtocol
import Testing
import TradingModel

/// The simulator serves and fills futures (ES contract months of Q4 2013) and a currency pair (EUR.USD, 2017) as IB
/// does: contracts by root and month or by currency, the multiplier in every money figure, expired months refused,
/// IDEALPRO's sizes, no trades for a currency.
@Suite struct FuturesAndForexGatewayTests {
    /// 2013-12-02 15:00 UTC, a Monday: every bundled ES month trades.
    static let december = Timestamp(year: 2013, month: 12, day: 2, secondOfDay: 15 * 3600)
    /// 2017-06-06 15:00 UTC, a Tuesday in US regular hours (the simulator trades intraday data in those).
    static let june = Timestamp(year: 2017, month: 6, day: 6, secondOfDay: 15 * 3600)

    func connected(_ set: BundledDataSet, at start: Timestamp) throws -> GatewayState {
        var state = GatewayState(data: try MarketDataSet.bundled(set), configuration: GatewayConfiguration(), start: start)
        _ = state.connect(connection: 1, clientID: 7, serverVersion: 200)
        return state
    }

    func future(_ root: String, month: String = "", local: String = "") -> TWSContract {
        var c = TWSContract(symbol: root, securityType: "FUT", exchange: "CME", currency: "USD")
        c.lastTradeDateOrContractMonth = month
        c.localSymbol = local
        return c
    }

    let euro = TWSContract(symbol: "EUR", securityType: "CASH", exchange: "IDEALPRO", currency: "USD")

    func details(_ out: [TWSResponse]) -> [TWSContractDetails] {
        out.compactMap { if case .contractDetails(_, let d) = $0 { return d } else { return nil } }
    }

    func executions(_ out: [TWSResponse]) -> [TWSExecution] {
        out.compactMap { if case .executionDetails(_, _, let e) = $0 { return e } else { return nil } }
    }

    func commissions(_ out: [TWSResponse]) -> [Double] {
        out.compactMap { if case .commissionReport(let c) = $0 { return c.commission } else { return nil } }
    }

    func summary(_ state: inout GatewayState) -> [String: Double] {
        var values: [String: Double] = [:]
        for case .accountSummary(_, _, let tag, let value, _) in sent(state.handle(
            .accountSummary(requestID: 90, group: "All", tags: "All"), from: 1, wallTime: 0)) {
            values[tag] = Double(value)
        }
        return values
    }

    /// `$LEDGER:ALL`: IB's exchange rate of each currency, the base currency (dollars) per unit, from the pairs it
    /// serves (EUR.USD, GBP.USD); the account's figures stay in its base currency.
    @Test func theLedgerGivesEachCurrencysRateInTheBaseCurrency() throws {
        var state = try connected(.futuresFX, at: Self.december)
        var rates: [String: Double] = [:]
        var currencies: [String: String] = [:]
        for case .accountSummary(_, _, let tag, let value, let currency) in sent(state.handle(
            .accountSummary(requestID: 91, group: "All", tags: "NetLiquidation,$LEDGER:ALL"), from: 1, wallTime: 0)) {
            if tag == "ExchangeRate" { rates[currency] = Double(value) } else { currencies[tag] = currency }
        }
        #expect(currencies["NetLiquidation"] == "USD")
        #expect(rates["BASE"] == 1 && rates["USD"] == 1)
        let euro = try #require(rates["EUR"])
        let pound = try #require(rates["GBP"])
        #expect(euro > 1.3 && euro < 1.4, "EUR.USD in December 2013: \(euro)")
        #expect(pound > 1.6 && pound < 1.7, "GBP.USD in December 2013: \(pound)")
        // Without the ledger: no rates.
        let plain = sent(state.handle(.accountSummary(requestID: 92, group: "All", tags: "NetLiquidation"), from: 1, wallTime: 0))
        #expect(!plain.contains { if case .accountSummary(_, _, "ExchangeRate", _, _) = $0 { true } else { false } })
    }

    /// An account kept in euros (`GatewayConfiguration.baseCurrency`): its figures in EUR, each in its rows' currency;
    /// a future bought in dollars moves the dollar balance (the commission, then the gain), counted at 1 / EUR.USD;
    /// the ledger's rates are euros per unit (USD 1 / EUR.USD, GBP GBP.USD / EUR.USD). Checked by hand from the pairs'
    /// own prices.
    @Test func anAccountKeptInEurosReportsInEurosAtThePairsRates() throws {
        var configuration = GatewayConfiguration(startingCash: 500_000)
        configuration.baseCurrency = "EUR"
        var state = GatewayState(data: try MarketDataSet.bundled(.futuresFX), configuration: configuration, start: Self.december)
        _ = state.connect(connection: 1, clientID: 7, serverVersion: 200)
        func mark(_ symbol: String) throws -> Double {
            let instrument = try #require(state.data.instrument(symbol: symbol))
            return try #require(QuoteModel.top(instrument, at: state.now)).last.doubleValue
        }
        func ledger() -> (values: [String: Double], currencies: [String: String], rates: [String: Double]) {
            var values: [String: Double] = [:], currencies: [String: String] = [:], rates: [String: Double] = [:]
            for case .accountSummary(_, _, let tag, let value, let currency) in sent(state.handle(
                .accountSummary(requestID: 93, group: "All", tags: "NetLiquidation,TotalCashValue,GrossPositionValue,$LEDGER:ALL"),
                from: 1, wallTime: 0)) {
                if tag == "ExchangeRate" { rates[currency] = Double(value) } else { (values[tag], currencies[tag]) = (Double(value), currency) }
            }
            return (values, currencies, rates)
        }
        let start = ledger()
        #expect(start.currencies["NetLiquidation"] == "EUR" && start.values["NetLiquidation"] == 500_000)
        let eurusd = try mark("EURUSD"), gbpusd = try mark("GBPUSD")
        #expect(start.rates["BASE"] == 1 && start.rates["EUR"] == 1)
        #expect(abs((start.rates["USD"] ?? 0) - 1 / eurusd) < 1e-8, "\(start.rates)")
        #expect(abs((start.rates["GBP"] ?? 0) - gbpusd / eurusd) < 1e-8, "\(start.rates)")

        let bought = sent(state.handle(
            .placeOrder(orderID: 1, contract: future("ES", month: "201403"), order: wireOrder("BUY", 1)), from: 1, wallTime: 0))
        let buy = try #require(executions(bought).first)
        #expect(commissions(bought) == [2.25])
        _ = state.advance(to: Self.december + .days(7))
        let es = try mark("ESH2014"), rate = 1 / (try mark("EURUSD"))
        let later = ledger()
        // Euros untouched; dollars: −2.25 of commission; the position's P&L in dollars; all at the week's rate.
        let expected = 500_000 + (-2.25 + (es - buy.price) * 50) * rate
        #expect(abs((later.values["NetLiquidation"] ?? 0) - expected) < 0.01, "\(later.values) vs \(expected)")
        #expect(abs((later.values["TotalCashValue"] ?? 0) - (500_000 - 2.25 * rate)) < 0.01)
        #expect(abs((later.values["GrossPositionValue"] ?? 0) - es * 50 * rate) < 0.01)
        // updateAccountValue says the account's currency too.
        let values = sent(state.handle(.accountUpdates(subscribe: true, accountCode: ""), from: 1, wallTime: 0))
        #expect(values.contains { if case .accountValue("Currency", "EUR", "EUR", _) = $0 { true } else { false } })
        #expect(values.contains { if case .accountValue("NetLiquidation", _, "EUR", _) = $0 { true } else { false } })
    }

    @Test("a futures contract is qualified by root and month, by local symbol or by its last day, as IB lays it out")
    func futuresContractDetails() throws {
        var state = try connected(.futures, at: Self.december)
        for asked in [future("ES", month: "201312"), future("ES", local: "ESZ3"), future("ES", month: "20131220")] {
            let found = details(sent(state.handle(.contractDetails(requestID: 3, contract: asked), from: 1, wallTime: 0)))
            let d = try #require(found.first)
            #expect(found.count == 1)
            #expect(d.contract.securityType == "FUT")
            #expect(d.contract.exchange == "CME")
            #expect(d.contract.multiplier == "50")
            #expect(d.contract.lastTradeDateOrContractMonth == "20131220")
            #expect(d.contract.localSymbol == "ESZ3")
            #expect(d.contract.tradingClass == "ES")
            #expect(d.contractMonth == "201312")
            #expect(d.realExpirationDate == "20131220")
            #expect(d.minTick == 0.25)
            #expect(d.longName == "E-mini S&P 500")
            #expect(d.validExchanges == "CME")
            #expect(d.marketRuleIDs == "")  // one tick at every price: the client keeps minTick
        }
        // The root alone lists every live month, nearest first (how a client finds the front month).
        let all = details(sent(state.handle(.contractDetails(requestID: 4, contract: future("ES")), from: 1, wallTime: 0)))
        #expect(all.map(\.contractMonth) == ["201312", "201403", "201406", "201409", "201412"])
        // Not a month of the data, another multiplier, a stock named ES: no security definition.
        for asked in [future("ES", month: "201402"), { var c = future("ES", month: "201312"); c.multiplier = "5"; return c }(),
                      stock("ES")] {
            #expect(errorCodes(sent(state.handle(.contractDetails(requestID: 5, contract: asked), from: 1, wallTime: 0)))
                == [200])
        }
    }

    @Test("an expired contract month is no longer listed: its details and orders get error 200")
    func expiredContractIsRefused() throws {
        var state = try connected(.futures, at: Timestamp(year: 2013, month: 12, day: 23, secondOfDay: 15 * 3600))
        let december = future("ES", month: "201312")
        #expect(errorCodes(sent(state.handle(.contractDetails(requestID: 3, contract: december), from: 1, wallTime: 0)))
            == [200])
        let order = sent(state.handle(.placeOrder(orderID: 1, contract: december, order: wireOrder("BUY", 1)),
                                      from: 1, wallTime: 0))
        #expect(errorCodes(order) == [200])
        #expect(executions(order).isEmpty)
        // The next month trades.
        let march = sent(state.handle(.placeOrder(orderID: 2, contract: future("ES", month: "201403"),
                                                  order: wireOrder("BUY", 1)), from: 1, wallTime: 0))
        #expect(executions(march).count == 1)
    }

    @Test("a futures round trip: cash moves by commissions and the gain, never the price; IB's per-contract cost")
    func futuresRoundTripMoney() throws {
        var state = try connected(.futures, at: Self.december)
        let start = summary(&state)
        let contract = future("ES", month: "201403")
        let bought = sent(state.handle(.placeOrder(orderID: 1, contract: contract, order: wireOrder("BUY", 2)),
                                       from: 1, wallTime: 0))
        let buy = try #require(executions(bought).first)
        #expect(buy.exchange == "CME")
        #expect(commissions(bought) == [4.5])  // 2 × 2.25, IBKR's fixed rate and fees for a future
        #expect(buy.price.truncatingRemainder(dividingBy: 0.25) == 0)
        let held = summary(&state)
        #expect(held["TotalCashValue"] == (start["TotalCashValue"] ?? 0) - 4.5)
        let positions = sent(state.handle(.positions, from: 1, wallTime: 0))
        guard case .position(_, let c, let quantity, let averageCost) = positions.first else {
            Issue.record("no position")
            return
        }
        #expect(c.multiplier == "50" && quantity == 2)
        // Per contract, as IB reports a future's: the price times 50, with the commission spread over the contracts.
        #expect(abs(averageCost - (buy.price * 50 + 2.25)) < 1e-6)

        // A week later the position is worth its P&L; then it is sold.
        _ = state.advance(to: Self.december + .days(7))
        let instrument = try #require(state.data.instrument(symbol: "ESH2014"))
        let mark = try #require(QuoteModel.top(instrument, at: state.now)).last.doubleValue
        let marked = summary(&state)
        #expect(abs((marked["NetLiquidation"] ?? 0) - ((start["NetLiquidation"] ?? 0) - 4.5 + 2 * (mark - buy.price) * 50))
            < 0.01)
        #expect(abs((marked["GrossPositionValue"] ?? 0) - 2 * mark * 50) < 0.01)
        let sold = sent(state.handle(.placeOrder(orderID: 2, contract: contract, order: wireOrder("SELL", 2)),
                                     from: 1, wallTime: 0))
        let sell = try #require(executions(sold).first)
        let end = summary(&state)
        let gain = (sell.price - buy.price) * 2 * 50 - 9
        #expect(abs((end["TotalCashValue"] ?? 0) - (start["TotalCashValue"] ?? 0) - gain) < 1e-6)
        #expect(abs((end["RealizedPnL"] ?? 0) - gain) < 0.01)
        #expect(end["GrossPositionValue"] == 0)
    }

    @Test("at expiry a contract's working orders are cancelled and its positions settle in cash at the final price")
    func expirySettlesInCash() throws {
        // ESZ2013's last trading day is Friday 2013-12-20.
        var state = try connected(.futures, at: Timestamp(year: 2013, month: 12, day: 19, secondOfDay: 15 * 3600))
        _ = state.handle(.positions, from: 1, wallTime: 0)
        let start = summary(&state)
        let december = future("ES", month: "201312")
        let bought = sent(state.handle(.placeOrder(orderID: 1, contract: december, order: wireOrder("BUY", 2)),
                                       from: 1, wallTime: 0))
        let buy = try #require(executions(bought).first)
        var resting = wireOrder("SELL", 2, "LMT", limit: 2500)
        resting.timeInForce = "GTC"
        _ = state.handle(.placeOrder(orderID: 2, contract: december, order: resting), from: 1, wallTime: 0)

        let after = sent(state.advance(to: Timestamp(year: 2013, month: 12, day: 23, secondOfDay: 15 * 3600)))
        let statuses = after.compactMap { if case .orderStatus(let s) = $0, s.orderID == 2 { return s.status } else { return nil } }
        #expect(statuses == ["Cancelled"])
        #expect(executions(after).isEmpty)  // IB reports no execution for an expiry
        let positions = after.compactMap { if case .position(_, let c, let q, _) = $0 { return (c.localSymbol, q) } else { return nil } }
        #expect(positions.contains { $0.0 == "ESZ3" && $0.1 == 0 }, "\(positions)")
        // The final price: ESZ2013's close on its last trading day, from the file.
        let instrument = try #require(state.data.instrument(symbol: "ESZ2013"))
        let last = try #require(instrument.series.bars.last { $0.timestamp.dayNumber <= Timestamp(year: 2013, month: 12, day: 20).dayNumber })
        let settled = (last.close.doubleValue - buy.price) * 2 * 50
        let end = summary(&state)
        #expect(abs((end["TotalCashValue"] ?? 0) - ((start["TotalCashValue"] ?? 0) - 4.5 + settled)) < 1e-6)
        #expect(abs((end["RealizedPnL"] ?? 0) - (settled - 4.5)) < 0.01)
        #expect(end["GrossPositionValue"] == 0)
    }

    @Test("a future's order price is on its tick and its size in whole contracts")
    func futuresTickAndSize() throws {
        var state = try connected(.futures, at: Self.december)
        let contract = future("ES", month: "201403")
        let offTick = sent(state.handle(.placeOrder(
            orderID: 1, contract: contract, order: wireOrder("BUY", 1, "LMT", limit: 1700.10)), from: 1, wallTime: 0))
        #expect(errorCodes(offTick) == [110])
        let part = sent(state.handle(.placeOrder(orderID: 2, contract: contract, order: wireOrder("BUY", 1.5)),
                                     from: 1, wallTime: 0))
        #expect(errorCodes(part) == [201])
        let onTick = sent(state.handle(.placeOrder(
            orderID: 3, contract: contract, order: wireOrder("BUY", 1, "LMT", limit: 1000.25)), from: 1, wallTime: 0))
        #expect(errorCodes(onTick).isEmpty)
        // Nor can a modification make it part of a contract.
        let modified = sent(state.handle(.placeOrder(
            orderID: 3, contract: contract, order: wireOrder("BUY", 2.5, "LMT", limit: 1000.25)), from: 1, wallTime: 0))
        #expect(errorCodes(modified) == [201])
    }

    @Test("a currency pair: IDEALPRO's contract, a minimum order fills, one below it is an odd lot (399), above the maximum is refused")
    func forexSizes() throws {
        var state = try connected(.fx, at: Self.june)
        let d = try #require(details(sent(state.handle(.contractDetails(requestID: 3, contract: euro), from: 1, wallTime: 0))).first)
        #expect(d.contract.securityType == "CASH")
        #expect(d.contract.exchange == "IDEALPRO")
        #expect(d.contract.localSymbol == "EUR.USD")
        #expect(d.contract.symbol == "EUR" && d.contract.currency == "USD")
        #expect(d.minTick == 0.00005)
        var local = TWSContract(symbol: "", securityType: "CASH", exchange: "IDEALPRO", currency: "")
        local.localSymbol = "EUR.USD"
        #expect(details(sent(state.handle(.contractDetails(requestID: 4, contract: local), from: 1, wallTime: 0))).count == 1)

        let start = summary(&state)
        let minimum = sent(state.handle(.placeOrder(orderID: 1, contract: euro, order: wireOrder("BUY", 20_000)),
                                        from: 1, wallTime: 0))
        let fill = try #require(executions(minimum).first)
        #expect(errorCodes(minimum).isEmpty)
        #expect(fill.exchange == "IDEALPRO")
        // 0.2 basis points of 21,000-odd dollars is 0.43: IBKR's minimum of 2.00 applies.
        #expect(commissions(minimum) == [2])
        let afterBuy = summary(&state)
        #expect(abs((afterBuy["TotalCashValue"] ?? 0) - ((start["TotalCashValue"] ?? 0) - 20_000 * fill.price - 2)) < 1e-6)

        let oddLot = sent(state.handle(.placeOrder(orderID: 2, contract: euro, order: wireOrder("BUY", 10_000)),
                                       from: 1, wallTime: 0))
        #expect(errorCodes(oddLot) == [399])
        let note = oddLot.compactMap { if case .error(let e) = $0 { return e.message } else { return nil } }.first ?? ""
        #expect(note.contains("below the EUR 20000 IdealPro minimum and will be routed as an odd lot order"))
        #expect(executions(oddLot).count == 1)

        let tooLarge = sent(state.handle(.placeOrder(orderID: 3, contract: euro, order: wireOrder("BUY", 7_000_000)),
                                         from: 1, wallTime: 0))
        #expect(errorCodes(tooLarge) == [201])
        #expect(executions(tooLarge).isEmpty)
    }

    @Test("a currency has no trades: TRADES history is IB's error 162, MIDPOINT is served, its quotes have no last price")
    func forexMarketData() throws {
        var state = try connected(.fx, at: Self.june)
        func history(_ show: String) -> [TWSResponse] {
            sent(state.handle(.historicalData(TWSHistoricalDataRequest(
                requestID: 5, contract: euro, endDateTime: "", durationString: "2 D", barSizeSetting: "1 hour",
                whatToShow: show, useRTH: false)), from: 1, wallTime: 0))
        }
        let trades = history("TRADES")
        #expect(errorCodes(trades) == [162])
        guard case .error(let refusal) = trades.first else { return }
        #expect(refusal.message.contains("No historical market data for EUR/CASH@FXSUBPIP"))
        let midpoint = history("MIDPOINT")
        #expect(names(midpoint) == ["historicalData", "historicalDataEnd"])
        let quotes = sent(state.handle(.marketData(TWSMarketDataRequest(requestID: 6, contract: euro)), from: 1, wallTime: 0))
        let priceTypes = quotes.compactMap { if case .tickPrice(let t) = $0 { return t.tickType } else { return nil } }
        #expect(priceTypes.contains(.bid) && priceTypes.contains(.ask))
        #expect(!priceTypes.contains(.last))
        for case .tickPrice(let t) in quotes where t.tickType == .bid {
            #expect(t.size == 5_000_000)
        }
        // One tick wide, 0.5 pip (IDEALPRO's spread is a fraction of a pip; 2 bp would be 2.5 pips at 1.19).
        let bid = quotes.compactMap { if case .tickPrice(let t) = $0, t.tickType == .bid { t.price } else { nil } }.first
        let ask = quotes.compactMap { if case .tickPrice(let t) = $0, t.tickType == .ask { t.price } else { nil } }.first
        #expect(abs(try #require(ask) - (try #require(bid)) - 0.00005) < 1e-9, "\(String(describing: bid)) \(String(describing: ask))")
        // The backtest's model of those quotes: a buy pays one tick, a sell gets the price; a stock keeps 2 bp.
        let model = SlippageModel.quotedSpreadOnInstrumentTick(basisPoints: 2)
        let price = Price("1.19735")!, tick = Price("0.00005")!
        #expect(model.apply(to: price, side: .buy, volumeShare: 0, tick: tick, currencyPair: true) == Price("1.1974")!)
        #expect(model.apply(to: price, side: .sell, volumeShare: 0, tick: tick, currencyPair: true) == price)
        #expect(model.apply(to: Price(150), side: .buy, volumeShare: 0, tick: Price("0.01")!) == Price("150.02")!)
    }
}
