import GatewayCore
import GatewaySimulator
import TWSProtocol
import Testing
import TradingModel

/// `freeze`/`thaw` (a gateway that holds the socket but stops answering) and `fail-quotes` (quote lines failing with
/// the connection up).
@Suite(.timeLimit(.minutes(1))) struct SilenceAndQuoteFaultTests {
    @Test("the faults parse from scripts and the admin port")
    func parses() {
        #expect(FaultCommand.parse("freeze") == .stopAnswering)
        #expect(FaultCommand.parse("thaw") == .resumeAnswering)
        #expect(FaultCommand.parse("fail-quotes") == .failQuotes(refusals: 0))
        #expect(FaultCommand.parse("fail-quotes 3") == .failQuotes(refusals: 3))
        #expect(FaultCommand.parse("fail-quotes -1") == nil)
    }

    @Test("freeze: a frozen socket stays open, its requests are lost; new connections are served; thaw serves it again")
    func freezeKeepsTheSocketAndLosesRequests() async throws {
        try await withSimulator { simulator, port in
            try await withRawClient(port: port, clientID: 1) { frozen in
                _ = try await FaultInjectionTests.handshakeBurst(frozen)
                await simulator.apply(.stopAnswering)
                try await frozen.send(.currentTime)  // lost
                // A new connection (another path to the gateway) is answered meanwhile.
                try await withRawClient(port: port, clientID: 2) { other in
                    _ = try await FaultInjectionTests.handshakeBurst(other)
                    try await other.send(.currentTime)
                    #expect(names(try await other.collect { $0.messageName == "currentTime" }) == ["currentTime"])
                }
                // The lost request must reach the gateway before the thaw (on a loaded machine its bytes can still
                // be in the socket), or it is served after it.
                for _ in 0..<1_000 where await simulator.lostRequests() == 0 { try await Task.sleep(for: .milliseconds(10)) }
                #expect(await simulator.lostRequests() == 1, "the request sent while frozen reached the gateway")
                await simulator.apply(.resumeAnswering)
                try await frozen.send(.currentTime)
                try await frozen.send(.contractDetails(requestID: 9, contract: stock("SYN000")))
                let seen = try await frozen.collect { $0.messageName == "contractDetailsEnd" }
                // Only the request sent after thaw was answered: the socket was never closed.
                #expect(names(seen).filter { $0 == "currentTime" }.count == 1)
                #expect(names(seen).last == "contractDetailsEnd")
            }
        }
    }

    @Test("fail-quotes: open lines end with 10168, the next N requests are refused, later ones are served")
    func failQuotes() {
        var state = GatewayState(data: testData, configuration: GatewayConfiguration())
        _ = state.connect(connection: 1, clientID: 7, serverVersion: 200)
        func subscribe(_ id: Int) -> [TWSResponse] {
            sent(state.handle(.marketData(TWSMarketDataRequest(requestID: id, contract: stock("SYN000"))),
                              from: 1, wallTime: 0))
        }
        #expect(errorCodes(subscribe(20)).isEmpty)
        #expect(state.activeSubscriptions.marketData == 1)
        let failed = sent(state.failQuotes(refusals: 2))
        #expect(failed == [.error(TWSErrorMessage(requestID: 20, code: 10168, message: GatewayState.delayedNotEnabledText))])
        #expect(state.activeSubscriptions.marketData == 0)
        #expect(errorCodes(subscribe(21)) == [10168])
        #expect(errorCodes(subscribe(22)) == [10168])
        let served = subscribe(23)
        #expect(errorCodes(served).isEmpty && served.contains { $0.messageName == "tickPrice" })
        #expect(state.activeSubscriptions.marketData == 1)
    }
}
