import GatewayCore
import GatewaySimulator
import TWSProtocol
import Testing
import TradingModel

/// Between 1100 and 1101/1102 nothing live reaches a client; requests are still answered.
@Suite struct GatewayOutageTests {
    func connected(_ configuration: GatewayConfiguration = GatewayConfiguration()) -> GatewayState {
        var state = GatewayState(data: testData, configuration: configuration)
        _ = state.connect(connection: 1, clientID: 7, serverVersion: 200)
        return state
    }

    func subscribeBars(_ state: inout GatewayState, requestID: Int = 21) -> [TWSResponse] {
        sent(state.handle(.realTimeBars(TWSRealTimeBarsRequest(requestID: requestID, contract: stock("SYN000"),
                                                               whatToShow: "TRADES", useRTH: true)),
                          from: 1, wallTime: 0))
    }

    @Test("bars are withheld while lost and flow again after 1102")
    func barsWithheldWhileLost() {
        var state = connected()
        _ = subscribeBars(&state)
        #expect(errorCodes(sent(state.connectivityLost())) == [1100])
        #expect(state.isConnectivityLost)
        #expect(!sent(state.advance(to: state.now + .seconds(60))).contains { $0.messageName == "realTimeBars" })
        #expect(errorCodes(sent(state.connectivityRestored(dataLost: false))) == [1102])
        #expect(sent(state.advance(to: state.now + .seconds(60))).filter { $0.messageName == "realTimeBars" }.count == 12)
    }

    @Test("lost-after-order: the order is acknowledged, then 1100; its fill is withheld but reqExecutions has it")
    func fillWithheldAfterOrder() {
        var state = connected()
        state.pendingFaults.loseConnectivityAfterNextOrder = true
        let placed = sent(state.handle(.placeOrder(orderID: 1, contract: stock("SYN000"), order: wireOrder("BUY", 100)),
                                       from: 1, wallTime: 0))
        #expect(names(placed) == ["openOrder", "orderStatus", "errMsg"])
        #expect(errorCodes(placed) == [1100])
        #expect(state.account.commissions > 0, "the order filled at the simulator")
        #expect(!sent(state.advance(to: state.now + .seconds(10))).contains { $0.messageName == "execDetails" })
        let executions = sent(state.handle(.executions(requestID: 5, filter: TWSExecutionFilter()), from: 1, wallTime: 0))
        #expect(executions.filter { $0.messageName == "execDetails" }.count == 1)
        #expect(!state.pendingFaults.loseConnectivityAfterNextOrder)
    }

    @Test("real-time bars without live data permission: 354 (they have no delayed form)")
    func realTimeBarsNotEntitled() {
        var state = connected(GatewayConfiguration(liveDataEntitled: false))
        _ = state.handle(.marketDataType(3), from: 1, wallTime: 0)
        #expect(errorCodes(subscribeBars(&state)) == [354])
    }

    @Test("the fault parses from scripts and the admin port")
    func parses() {
        #expect(FaultCommand.parse("lost-after-order") == .connectivityLostAfterNextOrder)
    }
}
