import Foundation
import JournalModel
import LiveSession
import Storage
import TWSClient
import Testing
import TradingEngine
import TradingModel

@testable import InteractiveBrokers

/// Issue 26: `ibtrader order`'s execution style. A limit priced from a quote, then worked after its
/// acknowledgement: repriced at each timeout, then cancelled and its rest sent at market, each step journaled.
@Suite("manual orders worked with a timeout", .timeLimit(.minutes(1)))
struct ManualWorkTests {
    @Test("a LMT below the market is repriced twice, then cancelled and the rest sent at market; every step journaled")
    func repricesThenMarket() async throws {
        try await withScratchJournal { journal in
            try await withManualSimulator { simulator, port in
                let ticket = try ManualTradingTests.ticket(type: "LMT") {
                    $0.limitOffset = "-50 ticks"
                    $0.orderTimeout = .seconds(1)
                    $0.onTimeout = "reprice"
                    $0.reprices = "2"
                    $0.repriceStep = "1 tick"
                    $0.afterReprices = "market"
                }
                let result = try await ManualTradingTests.place(
                    ticket, key: "w1", port: port, settings: ManualTradingTests.settings(journal))
                #expect(result.outcome == .acknowledged, "\(result.outcome)")
                #expect(result.steps.count == 5, "\(result.steps)")
                let limit = try #require(result.steps.first)
                #expect(limit.hasPrefix("priced LMT ") && limit.contains("-50 ticks from the last"), "\(limit)")
                #expect(result.steps[1].contains("reprice 1 of 2"), "\(result.steps)")
                #expect(result.steps[2].contains("reprice 2 of 2"), "\(result.steps)")
                #expect(result.steps[3] == "not filled after 1s: cancelled with 0 of 10 filled", "\(result.steps)")
                #expect(result.steps[4].hasPrefix("the rest, 10, sent at market as IBT:manual:w1-MKT: acknowledged"))
                #expect(result.legs.map(\.orderRef) == ["IBT:manual:w1", "IBT:manual:w1-MKT"])
                #expect(result.legs.map(\.state) == [.canceled, .filled])

                // The journal: the entry with its latest limit and two modifications, cancelled; the rest filled.
                let entry = try #require(try journal.order("IBT:manual:w1"))
                #expect(entry.modifications == 2)
                #expect(entry.state == .canceled)
                guard case .limit(let last) = entry.intent.type else {
                    Issue.record("not a limit: \(entry.intent.type)")
                    return
                }
                #expect(result.steps[2].hasSuffix("→ \(last)"), "\(result.steps[2]) vs \(last)")
                #expect(try journal.order("IBT:manual:w1-MKT")?.state == .filled)
                let history = try journal.history(of: "IBT:manual:w1").compactMap(\.message)
                #expect(history.filter { $0.contains("reprice") }.count == 2, "\(history)")
                #expect(await simulator.state().account.holdings.values.map(\.quantity) == [Quantity(10)])
            }
        }
    }

    @Test("options that do not fit are refused by name before anything is sent")
    func refusals() throws {
        func refusal(_ change: (inout ManualOrderArguments) -> Void, type: String = "LMT") -> String? {
            do {
                _ = try ManualTradingTests.ticket(type: type) {
                    $0.limit = type == "LMT" ? "10" : nil
                    change(&$0)
                }
                return nil
            } catch {
                return (error as? ManualOrderError)?.description ?? "\(error)"
            }
        }
        #expect(refusal { $0.onTimeout = "reprice" } == "--on-timeout needs --order-timeout DURATION (how long the order may work)")
        #expect(refusal({ $0.orderTimeout = .seconds(5); $0.onTimeout = "reprice" }, type: "MKT")
            == "--on-timeout reprice moves a limit: it needs --type LMT")
        #expect(refusal { $0.orderTimeout = .seconds(5); $0.reprices = "3" } == "--reprices applies only with --on-timeout reprice")
        #expect(refusal { $0.orderTimeout = .seconds(5); $0.onTimeout = "reprice"; $0.reprices = "0" }
            == "--reprices must be an integer from 1 to 20, got '0'")
        #expect(refusal { $0.orderTimeout = .seconds(5); $0.onTimeout = "reprice"; $0.afterReprices = "reprice" }
            == "--after-reprices must be cancel or market, got 'reprice'")
        #expect(refusal { $0.limitOffset = "2 ticks" } == "--limit and --limit-offset are exclusive: give one")
        #expect(refusal({ $0.limitOffset = "2 ticks" }, type: "STP") == "--limit-offset prices a LMT (or caps a MIDPRICE) order, not a STP one")
        #expect(refusal { $0.limitFrom = "bid" } == "--limit-from applies only with --limit-offset")
        #expect(refusal { $0.orderTimeout = .seconds(5); $0.timeInForce = "IOC" }?.contains("IOC") == true)
        #expect(refusal { $0.orderTimeout = .seconds(5); $0.stopLoss = "5"; $0.takeProfit = "20" }?.contains("not brackets") == true)
        #expect(refusal { $0.orderTimeout = .seconds(5); $0.onTimeout = "market" } == nil)
    }
}
