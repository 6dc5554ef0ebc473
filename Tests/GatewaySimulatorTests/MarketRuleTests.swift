import Foundation
import GatewayCore
import GatewaySimulator
import TWSClient
import TWSProtocol
import Testing
import TradingModel

/// Market rules (issue 21): the simulator's stocks are under IB's US-stock rule 26 (0.0001 below $1, 0.01 from $1);
/// it answers reqMarketRule for it, refuses an unknown rule, and checks order prices against the increment at each
/// price (error 110).
@Suite(.timeLimit(.minutes(1))) struct MarketRuleTests {
    static let rule26 = [TWSPriceIncrement(lowEdge: 0, increment: 0.0001), TWSPriceIncrement(lowEdge: 1, increment: 0.01)]

    func connected() -> GatewayState {
        var state = GatewayState(data: testData, configuration: GatewayConfiguration())
        _ = state.connect(connection: 1, clientID: 7, serverVersion: 200)
        return state
    }

    @Test func contractDetailsNameRule26PerExchangeAndTheRuleIsAnswered() throws {
        var state = connected()
        let details = sent(state.handle(.contractDetails(requestID: 3, contract: stock("SYN001")), from: 1, wallTime: 0))
        guard case .contractDetails(_, let d) = details.first else {
            Issue.record("no details: \(details)")
            return
        }
        #expect(d.validExchanges == "SMART,NYSE" && d.marketRuleIDs == "26,26")
        #expect(d.marketRuleID(forExchange: "SMART") == 26)
        #expect(sent(state.handle(.marketRule(marketRuleID: 26), from: 1, wallTime: 0))
            == [.marketRule(marketRuleID: 26, increments: Self.rule26)])
        // An unknown rule: errMsg 321 with request id -1 (the request has none), naming the rule.
        let unknown = sent(state.handle(.marketRule(marketRuleID: 999), from: 1, wallTime: 0))
        guard case .error(let error) = unknown.first, unknown.count == 1 else {
            Issue.record("expected one errMsg: \(unknown)")
            return
        }
        #expect(error.requestID == -1 && error.code == 321)
        #expect(error.message.contains("market rule id 999"), "\(error.message)")
    }

    @Test func orderPricesAreCheckedAtTheIncrementOfTheirPrice() {
        var state = connected()
        func codes(_ id: Int, _ order: TWSOrder) -> [Int] {
            errorCodes(sent(state.handle(.placeOrder(orderID: id, contract: stock("SYN000"), order: order), from: 1,
                                         wallTime: 0)))
        }
        // A $0.50 limit at four decimals: on rule 26's tick, accepted (and resting far below the market).
        #expect(codes(1, wireOrder("BUY", 10, "LMT", limit: 0.5012)) == [])
        // Five decimals below $1, or three above: off the tick, IB's 110.
        #expect(codes(2, wireOrder("BUY", 10, "LMT", limit: 0.50123)) == [110])
        #expect(codes(3, wireOrder("BUY", 10, "LMT", limit: 50.012)) == [110])
        #expect(codes(4, wireOrder("SELL", 10, "STP", aux: 0.9999)) == [])
        // A stop-limit straddling the edge: each price on its own band's tick.
        var straddle = wireOrder("BUY", 10, "STP LMT", limit: 1.01, aux: 0.9999)
        straddle.timeInForce = "GTC"
        #expect(codes(5, straddle) == [])
        straddle.limitPrice = 1.0001
        #expect(codes(6, straddle) == [110])
        // A modification to a sub-$1 price at four decimals is accepted too.
        #expect(codes(1, wireOrder("BUY", 10, "LMT", limit: 0.4321)) == [])
    }

    @Test func theClientGetsTheRuleAndAnUnknownOneFailsAtOnce() async throws {
        try await withSimulator { _, port in
            var configuration = TWSConnectionConfiguration(host: "127.0.0.1", port: port, clientID: 31)
            configuration.readyTimeout = .seconds(10)
            configuration.requestTimeout = .seconds(30)
            try await TWSConnection.connect(configuration) { connection, _ in
                let rule = try await connection.marketRule(26)
                #expect(rule == Self.rule26)
                // Two at once for the same rule: both answered.
                async let first = connection.marketRule(26)
                async let second = connection.marketRule(26)
                let both = try await [first, second]
                #expect(both == [Self.rule26, Self.rule26])
                let started = ContinuousClock.now
                do throws(TWSRequestError) {
                    _ = try await connection.marketRule(999)
                    Issue.record("an unknown rule was answered")
                } catch {
                    guard case .rejected(let notice) = error else {
                        Issue.record("expected the 321 refusal, got \(error)")
                        return
                    }
                    #expect(notice.code == 321 && notice.requestID == -1)
                }
                #expect(ContinuousClock.now - started < .seconds(10), "ended by the errMsg, not the 30 s timeout")
            }
        }
    }
}
