import Foundation
import NIOCore
import NIOPosix
import TWSProtocol
import Testing
@testable import GatewayCore
@testable import GatewaySimulator

/// The resource limits of the simulator (reliability audit, campaign 1c): handshake and idle timeouts, a request
/// frame cap, a bound on unread replies, a connection cap, and the admin port's commands and lines.
@Suite struct GatewayLimitsTests {
    static let second: Int64 = 1_000_000_000

    @Test func aHandshakeMustFinishInTime() {
        let limits = GatewayLimits()
        #expect(limits.watch(openedAt: 0, lastActive: 0, isEstablished: false, now: 4 * Self.second)
            == .checkAgain(afterNanoseconds: 6 * Self.second))
        #expect(limits.watch(openedAt: 0, lastActive: 9 * Self.second, isEstablished: false, now: 10 * Self.second)
            == .closeUnfinishedHandshake)
    }

    @Test func anIdleConnectionIsClosedAndActivityKeepsItOpen() {
        var limits = GatewayLimits()
        limits.idleTimeout = 60
        #expect(limits.watch(openedAt: 0, lastActive: 50 * Self.second, isEstablished: true, now: 100 * Self.second)
            == .checkAgain(afterNanoseconds: 10 * Self.second))
        #expect(limits.watch(openedAt: 0, lastActive: 40 * Self.second, isEstablished: true, now: 100 * Self.second)
            == .closeIdle)
        limits.idleTimeout = nil
        #expect(limits.watch(openedAt: 0, lastActive: 0, isEstablished: true, now: 100_000 * Self.second)
            != .closeIdle)
    }

    @Test(arguments: [
        "restart 1e300", "restart -5", "restart 3601", "restart inf", "restart 5 6", "delay 1e300", "delay nan",
        "advance -5", "advance 1e8", "drop-after 1.5", "drop-after-order 0", "farm 9999", "fail-quotes -1",
        "drop now", "restored maybe", "lost 1",
    ])
    func faultCommandsOutOfRangeAreRefused(line: String) {
        #expect(FaultCommand.parse(line) == nil)
    }

    @Test func faultCommandsInRangeParse() {
        #expect(FaultCommand.parse("restart") == .restart(seconds: 5))
        #expect(FaultCommand.parse("restart 0.5") == .restart(seconds: 0.5))
        #expect(FaultCommand.parse("restart 3600") == .restart(seconds: 3_600))
        #expect(FaultCommand.parse("farm 2105") == .farmStatus(2105))
        #expect(FaultCommand.parse("advance 86400") == .advanceClock(seconds: 86_400))
        #expect(FaultCommand.parse("restored lost") == .connectivityRestored(dataLost: true))
        #expect(FaultCommand.parse("reject no margin") == .rejectNextOrder(reason: "no margin"))
    }

    @Test func adminLinesAreCutInLinearTimeAndOverlongOnesDropped() {
        var reader = AdminLineReader()
        #expect(reader.receive(Array("lost\r\n  \nrest".utf8)) == [.line("lost")])
        #expect(reader.receive(Array("ored kept\n".utf8)) == [.line("restored kept")])
        // 28 MiB without a newline took 68 s; now each byte is seen once and nothing beyond the cap is kept.
        let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20)
        for _ in 0..<28 { #expect(reader.receive(chunk).isEmpty) }
        #expect(reader.receive(Array("\ndrop\n".utf8)) == [.tooLong, .line("drop")])
    }

    // MARK: - Over loopback

    static func connect(_ port: Int) async throws -> NIOAsyncChannel<ByteBuffer, ByteBuffer> {
        try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
    }

    /// Reads until the server closes the socket: `true` when it did within 5 s (an error counts as closed), `false`
    /// when the socket was still open then.
    static func closedByServer(_ channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>) async -> Bool {
        let socket = channel.channel
        return await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                do {
                    return try await channel.executeThenClose { inbound, _ in
                        for try await _ in inbound {}
                        return true
                    }
                } catch {
                    return true
                }
            }
            group.addTask {
                // A bound, not a measurement: the server closes within its limit (0.2 s); 30 s leaves room for a
                // test process whose two cooperative threads are busy with the suite's backtests.
                try? await Task.sleep(for: .seconds(30))
                return false
            }
            let first = await group.next() ?? false
            socket.close(promise: nil)
            group.cancelAll()
            return first
        }
    }

    @Test func aSilentConnectionIsClosedAfterTheHandshakeTimeout() async throws {
        var limits = GatewayLimits()
        limits.handshakeTimeout = 0.2
        try await withSimulator(limits: limits) { _, port in
            let channel = try await Self.connect(port)
            #expect(await Self.closedByServer(channel))
        }
    }

    @Test func anOversizedRequestFrameEndsOnlyThatConnection() async throws {
        try await withSimulator { _, port in
            try await withRawClient(port: port, clientID: 1) { session in
                // A 16 MiB length prefix: refused before its bytes are buffered.
                try await session.outbound.write(ByteBuffer(bytes: [0x00, 0xFF, 0xFF, 0xFF, 0x41]))
                _ = try await session.collectUntilClose()
            }
            try await withRawClient(port: port, clientID: 2) { session in
                try await session.send(.currentTime)
                let answers = try await session.collect { $0.messageName == "currentTime" }
                #expect(answers.last?.messageName == "currentTime")
            }
        }
    }

    @Test func connectionsBeyondTheCapAreClosed() async throws {
        var limits = GatewayLimits()
        limits.maximumConnections = 2
        try await withSimulator(limits: limits) { _, port in
            // Two sessions through their handshake (so both are registered), then a third socket: closed at once.
            try await withRawClient(port: port, clientID: 1) { _ in
                try await withRawClient(port: port, clientID: 2) { _ in
                    let third = try await Self.connect(port)
                    #expect(await Self.closedByServer(third))
                }
            }
            // Room again once they are gone (their close reaches the gateway a moment later).
            var served = false
            for _ in 0..<100 where !served {
                served = (try? await withRawClient(port: port, clientID: 3) { session in
                    try await session.send(.currentTime)
                    return try await session.collect { $0.messageName == "currentTime" }.last != nil
                }) ?? false
                if !served { try await Task.sleep(for: .milliseconds(20)) }  // the listener frees its slot in wall time
            }
            #expect(served)
        }
    }

    @Test func aClientThatDoesNotReadIsDisconnected() async throws {
        var limits = GatewayLimits()
        limits.maximumQueuedBytes = 64 * 1024
        try await withSimulator(limits: limits) { simulator, port in
            try await withRawClient(port: port, clientID: 1) { session in
                _ = try await session.collect { $0.messageName == "nextValidId" }
                // Daily bars for years, asked again and again, never read: each reply is ~30 KB.
                let request = TWSRequest.historicalData(TWSHistoricalDataRequest(
                    requestID: 1, contract: stock("SYN000"), endDateTime: "", durationString: "3 Y",
                    barSizeSetting: "1 day", whatToShow: "TRADES", useRTH: true))
                for _ in 0..<2_000 {
                    do { try await session.send(request) } catch { break }  // closed while we were still writing
                }
                // Still open on this side and not reading: the gateway must have dropped the session itself. (Up
                // to 30 s: a bound, not a timing. Under a full suite the gateway works through up to 60 MB of
                // replies queued in the kernel before its own queue passes the limit; 5 s was once too short.)
                var dropped = false
                for _ in 0..<1_500 where !dropped {
                    dropped = !(await simulator.state().connectedClientIDs.contains(1))
                    if !dropped { try await Task.sleep(for: .milliseconds(20)) }
                }
                #expect(dropped)
            }
            // The others are still served.
            try await withRawClient(port: port, clientID: 9) { session in
                try await session.send(.currentTime)
                let answers = try await session.collect { $0.messageName == "currentTime" }
                #expect(answers.last?.messageName == "currentTime")
            }
        }
    }
}
