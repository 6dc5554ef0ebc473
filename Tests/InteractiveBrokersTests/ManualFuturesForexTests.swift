import BundledData
import Foundation
import GatewayCore
import GatewaySimulator
import LiveSession
import Logging
import Storage
import TWSClient
import TWSProtocol
import Testing
import TraderKit
import TradingEngine
import TradingModel

@testable import InteractiveBrokers

/// The manual tools trade futures and currency pairs as the bot names them and as IB's local symbols name them
/// (issue 79), against the simulator over the bundled ES months and EUR.USD (`bundled:futures-fx`, December 2013):
/// the same risk rules as the bot (the multiplier in exposure, IDEALPRO's sizes), the contract qualified by its local
/// symbol, the positions listed with their terms, and a future's order modified and cancelled as a stock's.
@Suite("manual futures and currency pairs against the simulator", .serialized, .timeLimit(.minutes(2)))
struct ManualFuturesForexTests {
    /// Monday 2013-12-02 15:00 UTC: ES December 2013 (ESZ3) trades until 2013-12-20, entries until its roll day.
    static let start = Timestamp(year: 2013, month: 12, day: 2, secondOfDay: 15 * 3600)

    static func withSimulator<Result: Sendable>(_ body: @Sendable (GatewaySimulator, Int) async throws -> Result) async throws -> Result {
        var logger = Logger(label: "test.gateway")
        logger.logLevel = .warning
        let simulator = GatewaySimulator(
            configuration: GatewaySimulatorConfiguration(
                host: "127.0.0.1", port: 0, data: try MarketDataSet.bundled(.futuresFX),
                gateway: GatewayConfiguration(accounts: ["DU1234567"], startingCash: 100_000), start: Self.start,
                clock: .manual),
            logger: logger)
        return try await withThrowingTaskGroup(of: Void.self, returning: Result.self) { group in
            group.addTask { try await simulator.run() }
            let port = await simulator.listeningPort()
            defer { group.cancelAll() }
            return try await body(simulator, port)
        }
    }

    static func settings(_ journal: OrderJournal?, risk: RiskConfig = RiskConfig()) -> ManualSettings {
        var settings = ManualSettings(clock: { start })
        settings.journal = journal
        settings.timeout = .seconds(5)
        settings.risk = risk
        return settings
    }

    static func ticket(
        _ side: String, _ symbol: String, _ quantity: String, _ change: (inout ManualOrderArguments) -> Void = { _ in }
    ) throws -> ManualOrderTicket {
        var a = ManualOrderArguments(side: side, symbol: symbol, quantity: quantity)
        change(&a)
        return try ManualOrderTicket(a, at: start)
    }

    static func place(_ ticket: ManualOrderTicket, key: String, port: Int, settings: ManualSettings) async throws -> ManualOrderResult {
        try await TWSConnection.connect(connectionConfiguration(port, clientID: 43)) { connection, info in
            try await ManualTrading.placeOrder(ticket, clientOrderID: ClientOrderID(key), on: (connection, info, settings))
        }
    }

    static func positions(_ port: Int) async throws -> [ManualPosition] {
        try await TWSConnection.connect(connectionConfiguration(port, clientID: 44)) { c, info in
            try await ManualTrading.positions(on: c, info: info, settings: Self.settings(nil))
        }
    }

    @Test("ESZ3 (IB's local symbol) buys ES December 2013 as the bot would, and positions list it with its terms")
    func aFutureByItsLocalSymbol() async throws {
        let ticket = try Self.ticket("buy", "ESZ3", "1")
        #expect(ticket.symbol == "ES 2013-12" && ticket.localSymbol == "ESZ3")
        try await withScratchJournal { journal in
            try await Self.withSimulator { simulator, port in
                let result = try await Self.place(ticket, key: "es1", port: port, settings: Self.settings(journal))
                #expect(result.outcome == .acknowledged, "\(result)")
                #expect(result.legs.first?.state == .filled)
                #expect(result.contract?.description == "ES 201312 (FUT ×50, ESZ3)")
                let text = ManualListing.order(result, json: false).first ?? ""
                #expect(text.hasPrefix("acknowledged: IBT:manual:es1 in ES 201312 (FUT ×50, ESZ3) (account DU1234567)"), "\(text)")
                let record = ManualListing.order(result, json: true).first ?? ""
                #expect(record.contains(#""secType":"FUT""#) && record.contains(#""localSymbol":"ESZ3""#), "\(record)")
                // The contract went out as IB lists it: ES on CME, December 2013, multiplier 50.
                let held = await simulator.state().account.holdings
                #expect(held.values.map(\.quantity) == [Quantity(1)])
                let positions = try await Self.positions(port)
                let es = try #require(positions.first)
                #expect(es.contract.description == "ES 201312 (FUT ×50, ESZ3)", "\(es.contract)")
                #expect(es.contract.expiry == "20131220" && es.quantity == Quantity(1))
                // The journal keeps the fill's contract: its month, multiplier and local symbol.
                let fill = try #require(try journal.fills().first)
                #expect(fill.symbol == "ES 2013-12")
                #expect(fill.contract?.localSymbol == "ESZ3" && fill.contract?.multiplier == "50", "\(String(describing: fill.contract))")
                #expect(try journal.order(ClientOrderID("IBT:manual:es1"))?.intent.symbol == "ES 2013-12")
            }
        }
    }

    @Test("a local symbol is read at the gateway's time: ESZ3 typed in 2026 against a gateway replaying 2013 is ES 2013-12")
    func theGatewaysTimeDecides() async throws {
        let wall = Timestamp(seconds: 1_776_254_400)  // 2026-04-15: the command's own clock
        var a = ManualOrderArguments(side: "buy", symbol: "ESZ3", quantity: "1")
        a.type = "MKT"
        let ticket = try ManualOrderTicket(a, at: wall)
        #expect(ticket.symbol == "ES 2033-12", "read at the wall clock before connecting")
        try await Self.withSimulator { _, port in
            var settings = Self.settings(nil)
            settings.clock = { wall }
            let result = try await Self.place(ticket, key: "gw", port: port, settings: settings)
            // At the gateway's 2013-12-02 it is December 2013, traded (its roll day, 2013-12-13, is ahead).
            #expect(result.outcome == .acknowledged, "\(result)")
            #expect(result.contract?.expiry == "20131220", "\(String(describing: result.contract))")
        }
    }

    @Test("the multiplier counts in exposure: 2 ES (about 180,000) break a 1 × equity cap of 100,000, 1 ES does not")
    func theMultiplierInExposure() async throws {
        let risk = { () -> RiskConfig in
            var risk = RiskConfig()
            risk.maxGrossExposureRatio = 1
            return risk
        }()
        try await Self.withSimulator { _, port in
            // Valued as shares, 2 at about 1,800 would be 3,600: far inside the cap.
            let two = try await Self.place(try Self.ticket("buy", "ESZ2013", "2"), key: "x2", port: port, settings: Self.settings(nil, risk: risk))
            guard case .denied(let denial) = two.outcome else {
                Issue.record("2 contracts (about 180,000 of exposure on 100,000) must be denied: \(two.outcome)")
                return
            }
            #expect(denial.rule == .maxGrossExposure, "\(denial)")
            let one = try await Self.place(try Self.ticket("buy", "ES 2013-12", "1"), key: "x1", port: port, settings: Self.settings(nil, risk: risk))
            #expect(one.outcome == .acknowledged, "\(one)")
        }
    }

    @Test("EUR.USD within IDEALPRO's sizes goes; 10,000 EUR is below its minimum and refused as the bot refuses it")
    func aCurrencyPair() async throws {
        try await Self.withSimulator { _, port in
            let small = try await Self.place(try Self.ticket("buy", "EURUSD", "10000"), key: "fx0", port: port, settings: Self.settings(nil))
            guard case .denied(let denial) = small.outcome else {
                Issue.record("10,000 EUR is below IDEALPRO's minimum: \(small.outcome)")
                return
            }
            #expect(denial.rule == .forexOrderSize && denial.detail.contains("20000"), "\(denial)")
            let ticket = try Self.ticket("buy", "EUR.USD", "25000")
            #expect(ticket.symbol == "EUR.USD")
            let result = try await Self.place(ticket, key: "fx1", port: port, settings: Self.settings(nil))
            #expect(result.outcome == .acknowledged, "\(result)")
            let positions = try await Self.positions(port)
            let pair = try #require(positions.first)
            #expect(pair.contract.description == "EUR.USD (CASH)" && pair.quantity == Quantity(25_000), "\(positions)")
        }
    }

    @Test("a future's working order is modified and cancelled as a stock's")
    func modifyAndCancelAFutureOrder() async throws {
        try await withScratchJournal { journal in
            try await Self.withSimulator { _, port in
                let settings = Self.settings(journal)
                let placed = try await Self.place(
                    try Self.ticket("buy", "ESZ3", "1") { $0.type = "LMT"; $0.limit = "1500" }, key: "lmt", port: port,
                    settings: settings)
                #expect(placed.outcome == .acknowledged && placed.legs.first?.state == .accepted, "\(placed)")
                let orderID = try #require(placed.legs.first?.brokerOrderID)
                var change = ManualModifyArguments()
                change.limit = "1500.25"
                let modified = try await TWSConnection.connect(connectionConfiguration(port, clientID: 43)) { c, info in
                    try await ManualTrading.modifyOrder(orderID, modification: try ManualModification(change), on: (c, info, settings))
                }
                #expect(modified.outcome == .acknowledged, "\(modified)")
                #expect(modified.symbol == "ES 201312 (FUT ×50, ESZ3)" && modified.contract?.localSymbol == "ESZ3")
                let open = try await TWSConnection.connect(connectionConfiguration(port, clientID: 43)) { c, info in
                    try await ManualTrading.openOrders(on: c, info: info, settings: settings)
                }
                #expect(open.map(\.instrument) == ["ES 201312 (FUT ×50, ESZ3)"])
                let cancelled = try await TWSConnection.connect(connectionConfiguration(port, clientID: 43)) { c, info in
                    try await ManualTrading.cancel(.orderID(orderID), on: c, info: info, settings: settings)
                }
                #expect(cancelled.cancelled.map(\.orderRef) == ["IBT:manual:lmt"] && cancelled.stillOpen.isEmpty)
                #expect(try journal.order(ClientOrderID("IBT:manual:lmt"))?.state == .canceled)
            }
        }
    }

    @Test("a local symbol of a root IBTrader has no terms for, and a month IB does not list, are clear errors")
    func unknownNames() async throws {
        let error = #expect(throws: ManualOrderError.self) { try Self.ticket("buy", "XXZ3", "1") }
        #expect(error?.description.contains("XX is not a futures root") == true, "\(String(describing: error))")
        // ESH3 expired in March 2013: read in December 2013 it is March 2023, which the simulator does not list.
        let ticket = try Self.ticket("buy", "ESH3", "1")
        #expect(ticket.symbol == "ES 2023-03")
        try await Self.withSimulator { _, port in
            do {
                _ = try await Self.place(ticket, key: "nx", port: port, settings: Self.settings(nil))
                Issue.record("an unlisted contract month must not be traded")
            } catch let error as ManualTradingError {
                #expect(error.description.contains("ESH3 (ES 2023-03): TWS knows no such futures contract (CME"), "\(error)")
            }
        }
    }

    @Test("a contract month from its roll day on takes no entry, as in the bot; a sell of what is held goes")
    func aMonthAboutToExpire() throws {
        // Monday 2013-12-16: ESZ3's roll day (5 business days before its last trading day, 2013-12-20) has passed.
        let late = Timestamp(year: 2013, month: 12, day: 16, secondOfDay: 15 * 3600)
        var a = ManualOrderArguments(side: "buy", symbol: "ESZ3", quantity: "1")
        let buy = try ManualOrderTicket(a, at: late)
        let flat = ManualAccountState(equity: Money(approximately: 100_000), grossExposure: .zero, activePositions: 0, position: .zero)
        let denial = ManualRiskCheck.denial(buy, config: RiskConfig(), account: flat, referencePrice: Price(1800), at: late)
        #expect(denial?.rule == .contractExpiry && denial?.detail.contains("2013-12-20") == true, "\(String(describing: denial))")
        a.side = "sell"
        var long = flat
        long.position = Quantity(1)
        #expect(ManualRiskCheck.denial(try ManualOrderTicket(a, at: late), config: RiskConfig(), account: long, referencePrice: Price(1800), at: late) == nil)
        #expect(ManualRiskCheck.denial(buy, config: RiskConfig(), account: flat, referencePrice: Price(1800), at: Self.start) == nil)
    }
}
