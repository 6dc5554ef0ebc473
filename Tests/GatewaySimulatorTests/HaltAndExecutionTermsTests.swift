import Foundation
import GatewayCore
import GatewaySimulator
import TWSProtocol
import Testing
import TradingModel

/// The simulator's trading halts (`halt SYMBOL [1|2]`, `unhalt SYMBOL`), its GTD and Adaptive orders, and its
/// what-if answer.
@Suite struct HaltAndExecutionTermsTests {
    func connected() -> GatewayState {
        var state = GatewayState(data: testData, configuration: GatewayConfiguration())
        _ = state.connect(connection: 1, clientID: 7, serverVersion: 200)
        return state
    }

    func place(_ state: inout GatewayState, _ id: Int, _ order: TWSOrder) -> [TWSResponse] {
        sent(state.handle(.placeOrder(orderID: id, contract: stock("SYN000"), order: order), from: 1, wallTime: 0))
    }

    @Test func haltFaultsParse() {
        #expect(FaultCommand.parse("halt AAPL") == .halt(symbol: "AAPL", kind: 1))
        #expect(FaultCommand.parse("halt brk.b 2") == .halt(symbol: "BRK.B", kind: 2))
        #expect(FaultCommand.parse("unhalt AAPL") == .halt(symbol: "AAPL", kind: 0))
        for line in ["halt", "halt AAPL 3", "halt AAPL 2 x", "unhalt", "halt AAPL;rm"] {
            #expect(FaultCommand.parse(line) == nil, "\(line)")
        }
    }

    @Test func aHaltTicksEveryLineOfTheSymbolAndItsOrdersRestUntilItResumes() throws {
        var state = connected()
        let opened = sent(state.handle(
            .marketData(TWSMarketDataRequest(requestID: 20, contract: stock("SYN000"))), from: 1, wallTime: 0))
        #expect(opened.contains(.tickGeneric(requestID: 20, tickType: .halted, value: 0)), "a line opens with its status")
        let id = try #require(state.data.instrument(symbol: "SYN000")?.id)
        #expect(sent(state.setHalt(id, kind: 2)) == [.tickGeneric(requestID: 20, tickType: .halted, value: 2)])
        // A market order rests: nothing trades in a halted book.
        let placed = place(&state, 1, wireOrder("BUY", 10))
        #expect(!placed.contains { $0.messageName == "execDetails" })
        let resumed = sent(state.setHalt(id, kind: 0))
        #expect(resumed.first == .tickGeneric(requestID: 20, tickType: .halted, value: 0))
        #expect(resumed.contains { $0.messageName == "execDetails" }, "the resting order fills when trading resumes")
    }

    @Test func gtdNeedsAReadableFutureTimeAndAdaptiveOnlyWorksMarketAndLimitOrders() {
        var state = connected()
        var gtd = wireOrder("BUY", 10, "LMT", limit: 1)
        gtd.timeInForce = "GTD"
        #expect(place(&state, 1, gtd).contains { if case .error(let e) = $0 { e.message.contains("Good-till date") } else { false } })
        gtd.goodTillDate = "22000101-00:00:00"
        #expect(!place(&state, 2, gtd).contains { $0.messageName == "error" })
        var adaptive = wireOrder("BUY", 10, "STP", aux: 1000)
        adaptive.algoStrategy = "Adaptive"
        adaptive.algoParams = [TWSTagValue("adaptivePriority", "Patient")]
        #expect(place(&state, 3, adaptive).contains { if case .error(let e) = $0 { e.message.contains("Adaptive algo works only") } else { false } })
        adaptive.algoStrategy = "Vwap"
        adaptive.orderType = "MKT"
        #expect(place(&state, 4, adaptive).contains { if case .error(let e) = $0 { e.message.contains("Algo Vwap is not supported") } else { false } })
    }

    @Test func aWhatIfOrderAnswersWithRegTMarginAndKeepsNothing() throws {
        var state = connected()
        var order = wireOrder("BUY", 100)
        order.whatIf = true
        let answer = place(&state, 1, order)
        #expect(answer.map(\.messageName) == ["openOrder"])
        guard case .openOrder(let open) = answer.first else { return }
        let quote = try #require(QuoteModel.quote(testData.instruments[0], at: state.now))
        let value = 100 * quote.ask.doubleValue
        #expect(open.orderState.initMarginChange == String(format: "%.2f", value * 0.5))
        #expect(open.orderState.maintMarginChange == String(format: "%.2f", value * 0.25))
        #expect(open.orderState.commission == 1 && open.orderState.commissionCurrency == "USD")
        #expect(state.account.holdings.isEmpty)
        #expect(sent(state.handle(.allOpenOrders, from: 1, wallTime: 0)).map(\.messageName) == ["openOrderEnd"])
    }
}
