import Foundation
import GatewayCore
import GatewaySimulator
import TWSProtocol
import Testing
import TradingModel

/// Each fault, seen from a client on a socket.
@Suite(.timeLimit(.minutes(1))) struct FaultInjectionTests {
    /// Reads the connect burst (managedAccounts … 2158).
    static func handshakeBurst(_ session: RawSession) async throws -> [TWSResponse] {
        try await session.collect { if case .error(let e) = $0 { return e.code == 2158 } else { return false } }
    }

    @Test func duplicateClientIDGets326AndIsClosed() async throws {
        try await withSimulator { _, port in
            try await withRawClient(port: port, clientID: 3) { first in
                _ = try await Self.handshakeBurst(first)
                let seen = try await withRawClient(port: port, clientID: 3) { second in
                    try await second.collectUntilClose()
                }
                #expect(errorCodes(seen) == [326])
                try await first.send(.currentTime)
                #expect(names(try await first.collect { $0.messageName == "currentTime" }) == ["currentTime"])
            }
        }
    }

    @Test func dropAllConnectionsClosesEverySocket() async throws {
        try await withSimulator { simulator, port in
            try await withRawClient(port: port, clientID: 1) { session in
                _ = try await Self.handshakeBurst(session)
                await simulator.apply(.dropAllConnections)
                #expect(try await session.next() == nil)
            }
        }
    }

    @Test func dropAfterNMessagesDeliversThemThenCloses() async throws {
        try await withSimulator { simulator, port in
            try await withRawClient(port: port, clientID: 1) { session in
                _ = try await Self.handshakeBurst(session)
                await simulator.apply(.dropAfterMessages(1))
                try await session.send(.contractDetails(requestID: 1, contract: stock("SYN000")))
                let seen = try await session.collectUntilClose()
                #expect(names(seen) == ["contractDetails"])
            }
        }
    }

    @Test func restartRefusesConnectionsThenStateSurvives() async throws {
        try await withSimulator { simulator, port in
            try await withRawClient(port: port, clientID: 1) { session in
                _ = try await Self.handshakeBurst(session)
                try await session.send(.placeOrder(orderID: 1, contract: stock("SYN000"), order: wireOrder("BUY", 10)))
                _ = try await session.collect { $0.messageName == "commissionReport" }
                await simulator.apply(.restart(seconds: 60))
                #expect(try await session.next() == nil)
            }
            // While restarting, the listener is down: the connect is refused (no handshake reply either way).
            var refused: [TWSResponse] = []
            do {
                refused = try await withRawClient(port: port, clientID: 1) { session in
                    try await session.collectUntilClose()
                }
            } catch {
                refused = []
            }
            #expect(refused.isEmpty)
            await simulator.apply(.restart(seconds: 0))
            try await withRawClient(port: port, clientID: 1) { session in
                let burst = try await Self.handshakeBurst(session)
                #expect(burst.contains(.nextValidID(orderID: 2)))
                try await session.send(.positions)
                let positions = try await session.collect { $0.messageName == "positionEnd" }
                guard case .position(_, let contract, let quantity, _) = positions.first else {
                    Issue.record("no position after restart")
                    return
                }
                #expect(contract.symbol == "SYN000")
                #expect(quantity == 10)
            }
        }
    }

    @Test func connectivityLostThenRestoredWithDataLost() async throws {
        try await withSimulator { simulator, port in
            try await withRawClient(port: port, clientID: 1) { session in
                _ = try await Self.handshakeBurst(session)
                try await session.send(.marketData(TWSMarketDataRequest(requestID: 5, contract: stock("SYN000"))))
                _ = try await session.collect { if case .tickPrice = $0 { return true } else { return false } }
                await simulator.apply(.connectivityLost)
                await simulator.apply(.farmStatus(2103))
                await simulator.apply(.farmStatus(2105))
                await simulator.apply(.connectivityRestored(dataLost: true))
                await simulator.apply(.farmStatus(2104))
                await simulator.apply(.farmStatus(2106))
                let seen = try await session.collect { if case .error(let e) = $0 { return e.code == 2106 } else {
                    return false } }
                #expect(errorCodes(seen) == [1100, 2103, 2105, 1101, 2104, 2106])
                // Data lost: the market data line is gone; the clock moving produces no ticks for it.
                await simulator.advance(by: .minutes(5))
                try await session.send(.currentTime)
                let after = try await session.collect { $0.messageName == "currentTime" }
                #expect(names(after) == ["currentTime"])
            }
        }
    }

    @Test func delayedResponsesArriveLate() async throws {
        try await withSimulator { simulator, port in
            try await withRawClient(port: port, clientID: 1) { session in
                _ = try await Self.handshakeBurst(session)
                await simulator.apply(.delayResponses(seconds: 0.3))
                let clock = ContinuousClock()
                let start = clock.now
                try await session.send(.currentTime)
                _ = try await session.collect { $0.messageName == "currentTime" }
                // Late by the delay, less the event loop's timer slack (it fired 0.15 ms early against this clock once).
                #expect(clock.now - start >= .milliseconds(290))
            }
        }
    }

    @Test func reorderedResponsesSwapTheNextTwo() async throws {
        try await withSimulator { simulator, port in
            try await withRawClient(port: port, clientID: 1) { session in
                _ = try await Self.handshakeBurst(session)
                await simulator.apply(.reorderNextResponses)
                try await session.send(.contractDetails(requestID: 9, contract: stock("SYN001")))
                let seen = try await session.collect { $0.messageName == "contractDetails" }
                #expect(names(seen) == ["contractDetailsEnd", "contractDetails"])
            }
        }
    }

    @Test func rejectNextOrderIs201() async throws {
        try await withSimulator { simulator, port in
            try await withRawClient(port: port, clientID: 1) { session in
                _ = try await Self.handshakeBurst(session)
                await simulator.apply(.rejectNextOrder(reason: "drill"))
                try await session.send(.placeOrder(orderID: 1, contract: stock("SYN000"), order: wireOrder("BUY", 1)))
                let seen = try await session.collect { $0.messageName == "errMsg" }
                guard case .error(let error) = seen.last else { return }
                #expect(error.code == 201 && error.requestID == 1 && error.message.hasSuffix("drill"))
            }
        }
    }

    @Test func duplicatedExecutionArrivesTwice() async throws {
        try await withSimulator { simulator, port in
            try await withRawClient(port: port, clientID: 1) { session in
                _ = try await Self.handshakeBurst(session)
                await simulator.apply(.duplicateNextExecution)
                try await session.send(.placeOrder(orderID: 1, contract: stock("SYN000"), order: wireOrder("BUY", 5)))
                let seen = try await session.collect { $0.messageName == "commissionReport" }
                let ids = seen.compactMap { r -> String? in
                    if case .executionDetails(_, _, let e) = r { return e.executionID } else { return nil }
                }
                #expect(ids.count == 2 && ids[0] == ids[1])
            }
        }
    }

    @Test func stalledHistoricalRequestNeverAnswers() async throws {
        try await withSimulator { simulator, port in
            try await withRawClient(port: port, clientID: 1) { session in
                _ = try await Self.handshakeBurst(session)
                await simulator.apply(.stallNextHistoricalRequest)
                let request = TWSHistoricalDataRequest(
                    requestID: 4, contract: stock("SYN000"), endDateTime: "", durationString: "5 D",
                    barSizeSetting: "1 day", whatToShow: "TRADES", useRTH: true)
                try await session.send(.historicalData(request))
                try await session.send(.currentTime)
                let seen = try await session.collect { $0.messageName == "currentTime" }
                #expect(names(seen) == ["currentTime"])
                var second = request
                second.requestID = 6
                try await session.send(.historicalData(second))
                let answered = try await session.collect { $0.messageName == "historicalDataEnd" }
                #expect(names(answered) == ["historicalData", "historicalDataEnd"])
            }
        }
    }

    @Test func malformedFrameGets321AndTheConnectionStays() async throws {
        try await withSimulator { _, port in
            try await withRawClient(port: port, clientID: 1) { session in
                _ = try await Self.handshakeBurst(session)
                var garbage = ByteBufferAllocatorForTests.payload("999\u{0}junk\u{0}")
                try await session.outbound.write(TWSFrame.framed(garbage))
                garbage = ByteBufferAllocatorForTests.payload("3\u{0}notanumber\u{0}")
                try await session.outbound.write(TWSFrame.framed(garbage))
                try await session.send(.currentTime)
                let seen = try await session.collect { $0.messageName == "currentTime" }
                #expect(errorCodes(seen) == [321, 321])
            }
        }
    }

    @Test func faultScriptRunsAfterStart() async throws {
        let script = try FaultScript(text: "at 0 advance 60\nat 0 reject scripted")
        try await withSimulator(faults: script) { simulator, _ in
            let start = testData.defaultStart
            while await simulator.now() == start { await Task.yield() }
            #expect(await simulator.now() == start + .seconds(60))
            while await simulator.state().pendingFaults.rejectNextOrder == nil { await Task.yield() }
            #expect(await simulator.state().pendingFaults.rejectNextOrder == "scripted")
        }
    }

    @Test func faultScriptParses() throws {
        let script = try FaultScript(text: """
            # drill
            at 1 lost
            at 3 restored lost
            reject insufficient margin
            at 10 restart 5
            """)
        #expect(script.entries.map(\.at) == [1, 3, 0, 10])
        #expect(script.entries.map(\.command) == [.connectivityLost, .connectivityRestored(dataLost: true),
                                                   .rejectNextOrder(reason: "insufficient margin"),
                                                   .restart(seconds: 5)])
        #expect(throws: FaultScriptError.self) { try FaultScript(text: "explode") }
    }
}

import NIOCore

enum ByteBufferAllocatorForTests {
    static func payload(_ text: String) -> ByteBuffer { ByteBuffer(string: text) }
}

import NIOPosix

/// The admin port: fault commands as text lines on loopback.
@Suite(.timeLimit(.minutes(1))) struct AdminPortTests {
    @Test func commandLineOnTheAdminPortReachesClients() async throws {
        try await withSimulator { simulator, port in
            let (ports, continuation) = AsyncStream<Int>.makeStream()
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await simulator.runAdmin(port: 0) { continuation.yield($0) } }
                var iterator = ports.makeAsyncIterator()
                let adminPort = try #require(await iterator.next())
                try await withRawClient(port: port, clientID: 1) { session in
                    _ = try await FaultInjectionTests.handshakeBurst(session)
                    let admin = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                        .connect(host: "127.0.0.1", port: adminPort) { channel in
                            channel.eventLoop.makeCompletedFuture {
                                try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                            }
                        }
                    let replies = try await admin.executeThenClose { inbound, outbound in
                        try await outbound.write(ByteBuffer(string: "lost\nbogus\n"))
                        var text = ""
                        for try await bytes in inbound {
                            text += String(buffer: bytes)
                            if text.filter({ $0 == "\n" }).count == 2 { break }
                        }
                        return text
                    }
                    #expect(replies == "ok\nerror: unknown command or value out of range 'bogus'\n")
                    let seen = try await session.collect { $0.messageName == "errMsg" }
                    #expect(errorCodes(seen) == [1100])
                }
                group.cancelAll()
            }
        }
    }
}

/// Reconnecting right after a drop gets a session, not a 326 for the old socket's clientId.
@Suite(.timeLimit(.minutes(1))) struct ReconnectAfterDropTests {
    @Test func sameClientIDReconnectsAtOnceAfterADrop() async throws {
        try await withSimulator { simulator, port in
            for _ in 0..<5 {
                try await withRawClient(port: port, clientID: 4) { session in
                    let burst = try await FaultInjectionTests.handshakeBurst(session)
                    #expect(!errorCodes(burst).contains(326))
                    await simulator.apply(.dropAllConnections)
                    #expect(try await session.next() == nil)
                }
            }
        }
    }
}
