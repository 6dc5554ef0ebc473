import NIOCore
import TWSProtocol
import TWSTestSupport
import Testing
@testable import GatewayCore
@testable import GatewaySimulator

/// The connection reader as a pure state machine: byte by byte or all at once, the same events.
@Suite struct ConnectionInboundTests {
    static func stream() throws -> ByteBuffer {
        var bytes = TWSClientHandshake.hello(.init(clientID: 5, versions: 176...200))
        var handshake = TWSClientHandshake(configuration: .init(clientID: 5, versions: 176...200))
        _ = handshake.start()
        var reply = TWSFieldWriter(style: .java)
        reply.write(200)
        reply.write("20240102 14:30:00 UTC")
        let session = try handshake.receiveServerReply(payload: reply.payload)
        bytes.writeImmutableBuffer(session.startAPIFrame)
        bytes.writeImmutableBuffer(try TWSRequest.currentTime.encode(serverVersion: 200))
        bytes.writeImmutableBuffer(TWSFrame.framed(ByteBuffer(string: "999\u{0}")))
        bytes.writeImmutableBuffer(try TWSRequest.managedAccounts.encode(serverVersion: 200))
        return bytes
    }

    static func kinds(_ events: [ConnectionInbound.Event]) -> [String] {
        events.map { event in
            switch event {
            case .reply(_, let accepted): return accepted ? "reply" : "refused"
            case .ready(let clientID, let version): return "ready \(clientID)@\(version)"
            case .request(let request): return request.messageName
            case .malformed: return "malformed"
            }
        }
    }

    @Test func dripFedOrWholeGivesTheSameEvents() throws {
        let bytes = try Self.stream()
        var whole = ConnectionInbound(configuration: .init())
        let all = try whole.receive(bytes, connectionTime: "t")
        #expect(Self.kinds(all) == ["reply", "ready 5@200", "reqCurrentTime", "malformed", "reqManagedAccts"])
        var drip = ConnectionInbound(configuration: .init())
        var dripped: [ConnectionInbound.Event] = []
        for byte in bytes.readableBytesView {
            dripped += try drip.receive(ByteBuffer(bytes: [byte]), connectionTime: "t")
        }
        #expect(Self.kinds(dripped) == Self.kinds(all))
    }

    @Test func garbageInsteadOfAHelloThrows() {
        var reader = ConnectionInbound(configuration: .init())
        #expect(throws: (any Error).self) { try reader.receive(ByteBuffer(string: "GET / HTTP/1.1\r\n"), connectionTime: "t") }
    }
}
