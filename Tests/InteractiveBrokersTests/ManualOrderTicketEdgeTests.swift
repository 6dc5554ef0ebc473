import LiveSession
import Testing
import TradingEngine
import TradingModel

@testable import InteractiveBrokers

/// `ibtrader order`'s validation at its exact boundaries (issue 80's generated mutants of `ManualOrderTicket.swift`):
/// each limit is taken at its value and refused one unit past it, and every refusal names the option to fix.
@Suite("ibtrader order: each validation at its boundary")
struct ManualOrderTicketEdgeTests {
    typealias Change = @Sendable (inout ManualOrderArguments) -> Void

    static func args(_ side: String = "buy", type: String = "MKT", _ change: Change = { _ in }) -> ManualOrderArguments {
        var a = ManualOrderArguments(side: side, symbol: "AAPL", quantity: "10")
        a.type = type
        change(&a)
        return a
    }

    @Test("a quantity of 0 is refused by name; the smallest positive one (1e-8, a fraction of a share or a unit) is taken")
    func quantityAtZero() throws {
        #expect(ManualOrderTicketTests.message(Self.args { $0.quantity = "0" }) == "the quantity must be a positive number, got '0'")
        #expect(ManualOrderTicketTests.message(Self.args { $0.quantity = "0.00000000" }) == "the quantity must be a positive number, got '0.00000000'")
        #expect(try ManualOrderTicket(Self.args { $0.quantity = "0.00000001" }, at: .zero).quantity == Quantity(units: 1))
    }

    @Test("a price of 0 is refused for every price option, naming it; the smallest positive price is taken")
    func pricesAtZero() throws {
        let options: [(String, String, Change)] = [
            ("--limit", "LMT", { $0.limit = "0" }),
            ("--stop", "STP", { $0.stop = "0" }),
            ("--trail-amount", "TRAIL", { $0.trailAmount = "0" }),
        ]
        for (option, type, change) in options {
            #expect(ManualOrderTicketTests.message(Self.args(type: type, change)) == "\(option) must be a positive price, got '0'", "\(option)")
        }
        #expect(ManualOrderTicketTests.message(Self.args { $0.takeProfit = "0"; $0.stopLoss = "1" }) == "--take-profit must be a positive price, got '0'")
        #expect(ManualOrderTicketTests.message(Self.args { $0.takeProfit = "2"; $0.stopLoss = "0" }) == "--stop-loss must be a positive price, got '0'")
        let tiny = try ManualOrderTicket(Self.args(type: "LMT") { $0.limit = "0.00000001" }, at: .zero)
        #expect(tiny.type == .limit(Price(units: 1)))
    }

    @Test("--trail-percent is taken just inside (0, 100) and refused at 0 and at 100")
    func trailPercentBounds() throws {
        for text in ["0", "100", "-1", "inf", "nan"] {
            #expect(
                ManualOrderTicketTests.message(Self.args(type: "TRAIL") { $0.trailPercent = text })
                    == "--trail-percent must be a number in (0, 100), got '\(text)'", "\(text)")
        }
        for (text, value) in [("0.001", 0.001), ("99.999", 99.999)] {
            #expect(try ManualOrderTicket(Self.args(type: "TRAIL") { $0.trailPercent = text }, at: .zero).type == .trailingPercent(value))
        }
    }

    @Test("--order-timeout is taken at exactly 1s and 24h and refused a nanosecond outside them")
    func orderTimeoutBounds() throws {
        for timeout in [Duration.seconds(1), .seconds(86_400)] {
            let ticket = try ManualOrderTicket(Self.args { $0.orderTimeout = timeout; $0.onTimeout = "cancel" }, at: .zero)
            #expect(ticket.work?.timeout == TimeSpan(nanoseconds: timeout.nanosecondsValue), "\(timeout)")
            #expect(ticket.work?.onTimeout == .cancel)
        }
        for timeout in [Duration.seconds(1) - .nanoseconds(1), .seconds(86_400) + .nanoseconds(1), .zero] {
            #expect(ManualOrderTicketTests.message(Self.args { $0.orderTimeout = timeout }) == "--order-timeout must be from 1s to 24h", "\(timeout)")
        }
    }

    @Test("--after-reprices takes cancel and market, and reaches the working plan")
    func afterReprices() throws {
        for (name, action) in [("cancel", ExecutionStyle.TimeoutAction.cancel), ("MARKET", .market)] {
            let ticket = try ManualOrderTicket(
                Self.args(type: "LMT") {
                    $0.limit = "10"
                    $0.orderTimeout = .seconds(5)
                    $0.onTimeout = "reprice"
                    $0.afterReprices = name
                }, at: .zero)
            #expect(ticket.work?.onTimeout == .reprice && ticket.work?.afterReprices == action, "\(name)")
        }
    }

    /// Each order type with each price option added alone to the ones it needs: taken (`nil`) or refused by name.
    static let foreignOptions: [(type: String, needs: Change, option: String, add: Change, refusal: String?)] = [
        ("MKT", { _ in }, "--limit", { $0.limit = "9" }, "--limit does not apply to a MKT order"),
        ("MKT", { _ in }, "--stop", { $0.stop = "9" }, "--stop does not apply to a MKT order"),
        ("MKT", { _ in }, "--trail-amount", { $0.trailAmount = "1" }, "--trail-amount/--trail-percent does not apply to a MKT order"),
        ("MKT", { _ in }, "--trail-percent", { $0.trailPercent = "1" }, "--trail-amount/--trail-percent does not apply to a MKT order"),
        ("LMT", { $0.limit = "10" }, "--stop", { $0.stop = "9" }, "--stop does not apply to a LMT order"),
        ("LMT", { $0.limit = "10" }, "--trail-amount", { $0.trailAmount = "1" }, "--trail-amount/--trail-percent does not apply to a LMT order"),
        ("LMT", { $0.limit = "10" }, "--trail-percent", { $0.trailPercent = "1" }, "--trail-amount/--trail-percent does not apply to a LMT order"),
        ("STP", { $0.stop = "10" }, "--limit", { $0.limit = "9" }, "--limit does not apply to a STP order"),
        ("STP", { $0.stop = "10" }, "--trail-amount", { $0.trailAmount = "1" }, "--trail-amount/--trail-percent does not apply to a STP order"),
        ("STP", { $0.stop = "10" }, "--trail-percent", { $0.trailPercent = "1" }, "--trail-amount/--trail-percent does not apply to a STP order"),
        ("STP_LMT", { $0.stop = "10"; $0.limit = "10.5" }, "--trail-amount", { $0.trailAmount = "1" },
         "--trail-amount/--trail-percent does not apply to a STP_LMT order"),
        ("STP_LMT", { $0.stop = "10"; $0.limit = "10.5" }, "--trail-percent", { $0.trailPercent = "1" },
         "--trail-amount/--trail-percent does not apply to a STP_LMT order"),
        ("MIDPRICE", { _ in }, "--limit", { $0.limit = "9" }, nil),
        ("MIDPRICE", { _ in }, "--stop", { $0.stop = "9" }, "--stop does not apply to a MIDPRICE order"),
        ("MIDPRICE", { _ in }, "--trail-amount", { $0.trailAmount = "1" }, "--trail-amount/--trail-percent does not apply to a MIDPRICE order"),
        ("MIDPRICE", { _ in }, "--trail-percent", { $0.trailPercent = "1" }, "--trail-amount/--trail-percent does not apply to a MIDPRICE order"),
        ("TRAIL", { $0.trailAmount = "1" }, "--limit", { $0.limit = "9" }, "--limit does not apply to a TRAIL order"),
        ("TRAIL", { $0.trailAmount = "1" }, "--stop", { $0.stop = "9" }, "--stop does not apply to a TRAIL order"),
    ]

    @Test("each order type refuses, by name, each price option it does not use, given alone")
    func eachTypeRefusesThePricesItDoesNotUse() throws {
        for (type, needs, option, add, refusal) in Self.foreignOptions {
            // Without the option the order is taken, so the refusal below is the option's.
            #expect(ManualOrderTicketTests.message(Self.args(type: type, needs)) == nil, "\(type)")
            let a = Self.args(type: type) {
                needs(&$0)
                add(&$0)
            }
            #expect(ManualOrderTicketTests.message(a) == refusal, "\(type) with \(option)")
        }
    }

    @Test("MIDPRICE: without --limit it has no cap, with it the limit is its cap; --limit-offset caps it from a quote")
    func midpriceCap() throws {
        #expect(try ManualOrderTicket(Self.args(type: "MIDPRICE"), at: .zero).type == .midprice(cap: nil))
        #expect(try ManualOrderTicket(Self.args(type: "midprice") { $0.limit = "150.1" }, at: .zero).type == .midprice(cap: Price("150.1")!))
        let fromQuote = try ManualOrderTicket(Self.args(type: "MIDPRICE") { $0.limitOffset = "2 ticks"; $0.limitFrom = "ask" }, at: .zero)
        #expect(fromQuote.limitFromQuote?.from == .ask)
        guard case .midprice(let cap?) = fromQuote.type else {
            Issue.record("not a capped MIDPRICE: \(fromQuote.type)")
            return
        }
        #expect(cap > .zero)
    }

    @Test("a bracket's take-profit equal to its stop-loss is refused, for a buy and for a sell; one tick apart is taken")
    func bracketLegsEqual() throws {
        #expect(
            ManualOrderTicketTests.message(Self.args("buy") { $0.takeProfit = "100"; $0.stopLoss = "100" })
                == "--take-profit 100 must be above --stop-loss 100 for a buy")
        #expect(
            ManualOrderTicketTests.message(Self.args("sell") { $0.takeProfit = "100"; $0.stopLoss = "100" })
                == "--take-profit 100 must be below --stop-loss 100 for a sell")
        #expect(
            ManualOrderTicketTests.message(Self.args("sell") { $0.takeProfit = "100.01"; $0.stopLoss = "100" })
                == "--take-profit 100.01 must be below --stop-loss 100 for a sell")
        let buy = try ManualOrderTicket(Self.args("buy") { $0.takeProfit = "100.01"; $0.stopLoss = "100" }, at: .zero)
        #expect(buy.isBracket && buy.takeProfit == Price("100.01") && buy.stopLoss == Price(100))
        let sell = try ManualOrderTicket(Self.args("sell") { $0.takeProfit = "99.99"; $0.stopLoss = "100" }, at: .zero)
        #expect(sell.isBracket && sell.takeProfit == Price("99.99") && sell.stopLoss == Price(100))
        let orders = sell.orders(for: InstrumentID(index: 0), clientOrderID: "s1", at: .zero)
        #expect(orders.map(\.side) == [.sell, .buy, .buy])
        #expect(orders.map(\.type) == [.market, .stop(Price(100)), .limit(Price("99.99")!)])
    }

    /// A bracket's limit entry: at or beyond either leg refused, a cent inside both taken.
    static let bracketLimits: [(side: String, limit: String, takeProfit: String, stopLoss: String, refused: Bool)] = [
        ("buy", "95", "110", "95", true),  // at the stop-loss
        ("buy", "95.01", "110", "95", false),
        ("buy", "110", "110", "95", true),  // at the take-profit
        ("buy", "109.99", "110", "95", false),
        ("buy", "120", "110", "95", true),  // above both
        ("buy", "90", "110", "95", true),  // below both
        ("sell", "90", "90", "105", true),  // at the take-profit
        ("sell", "90.01", "90", "105", false),
        ("sell", "105", "90", "105", true),  // at the stop-loss
        ("sell", "104.99", "90", "105", false),
        ("sell", "80", "90", "105", true),  // below both
        ("sell", "110", "90", "105", true),  // above both
    ]

    @Test("a bracket's limit entry at either leg or beyond it is refused, a cent inside both is taken (buy and sell)")
    func bracketLimitBetweenTheLegs() {
        for (side, limit, takeProfit, stopLoss, refused) in Self.bracketLimits {
            let message = ManualOrderTicketTests.message(Self.args(side, type: "LMT") {
                $0.limit = limit
                $0.takeProfit = takeProfit
                $0.stopLoss = stopLoss
            })
            let expected = "the limit \(limit) must lie between --stop-loss \(stopLoss) and --take-profit \(takeProfit)"
            #expect(message == (refused ? expected : nil), "\(side) LMT \(limit), TP \(takeProfit), SL \(stopLoss)")
        }
    }
}
