import GatewayCore
import NIOCore
import TWSProtocol
import TradingModel

extension FuzzTargets {
    /// A small universe for the simulator target (made once: generating it is the expensive part).
    static let simulatorData = MarketDataSet.synthetic(count: 2, seed: 7)

    /// Client → server payloads: the bytes are split at 0xFF (never in a text field) into up to 16 request
    /// payloads, each decoded and handled by a fresh simulator core with one client connected; the replay clock
    /// moves 5 s after each, so streaming subscriptions produce their messages too.
    public static func simulatorRequests(_ bytes: UnsafeRawBufferPointer) {
        if bytes.starts(with: Array("API".utf8)) {
            connectionStart(bytes)
            return
        }
        if bytes.first == protobufMarker {
            protobufRequests(UnsafeRawBufferPointer(rebasing: bytes.dropFirst()))
            return
        }
        var state = GatewayState(data: simulatorData, configuration: GatewayConfiguration())
        _ = state.connect(connection: 1, clientID: 7, serverVersion: 200)
        for payload in bytes.split(separator: 0xFF, maxSplits: 15, omittingEmptySubsequences: false) {
            var buffer = ByteBufferAllocator().buffer(capacity: payload.count)
            buffer.writeBytes(payload)
            guard let request = try? TWSRequest.decode(payload: buffer, serverVersion: 200) else {
                _ = TWSRequest.attributableID(inMalformed: Array(payload))
                continue
            }
            for action in state.handle(request, from: 1, wallTime: 0) {
                // Every answer must encode at the client's version.
                if case .send(_, let response) = action { _ = try? response.encode(serverVersion: 200) }
            }
            _ = state.advance(to: state.now + .seconds(5))
        }
        if case .historicalData(let request)? = try? decodeFirst(bytes) {
            _ = try? HistoricalQuery(request, now: state.now)
        }
    }

    /// A first byte that selects the protobuf mode: the rest is a framed stream of requests at server version 226
    /// (binary ids, protobuf bodies, which may hold 0xFF anywhere), each decoded and handled as above.
    static let protobufMarker: UInt8 = 0xFE

    private static func protobufRequests(_ bytes: UnsafeRawBufferPointer) {
        let version = TWSProtocolConstants.highestServerVersion
        var state = GatewayState(data: simulatorData, configuration: GatewayConfiguration())
        _ = state.connect(connection: 1, clientID: 7, serverVersion: version)
        var frames = TWSFrameDecoder(maximumPayloadLength: GatewayLimits().maximumRequestBytes)
        frames.append(contentsOf: bytes)
        var handled = 0
        while handled < 16, let payload = try? frames.nextPayload() {
            handled += 1
            guard let request = try? TWSRequest.decode(payload: payload, serverVersion: version) else {
                _ = TWSRequest.attributableID(inMalformed: Array(payload.readableBytesView), serverVersion: version)
                continue
            }
            for action in state.handle(request, from: 1, wallTime: 0) {
                if case .send(_, let response) = action { _ = try? response.encode(serverVersion: version) }
            }
            _ = state.advance(to: state.now + .seconds(5))
        }
    }

    /// A connection's first bytes (`API\0`, the hello, startApi, requests) through the handshake and the framing
    /// the simulator's connection reader uses, with its 64 KiB frame limit.
    private static func connectionStart(_ bytes: UnsafeRawBufferPointer) {
        var buffer = ByteBufferAllocator().buffer(capacity: bytes.count)
        buffer.writeBytes(bytes)
        var handshake = TWSServerHandshake()
        guard case .accepted(let version, _, _)? = try? handshake.receiveHello(from: &buffer, connectionTime: "t")
        else { return }
        var frames = TWSFrameDecoder(maximumPayloadLength: GatewayLimits().maximumRequestBytes)
        frames.append(buffer)
        var started = false
        while let payload = try? frames.nextPayload() {
            if !started {
                started = (try? handshake.receiveStartAPI(payload: payload)) != nil
            } else {
                _ = try? TWSRequest.decode(payload: payload, serverVersion: version)
            }
        }
    }

    private static func decodeFirst(_ bytes: UnsafeRawBufferPointer) throws -> TWSRequest {
        var buffer = ByteBufferAllocator().buffer(capacity: bytes.count)
        buffer.writeBytes(bytes)
        return try TWSRequest.decode(payload: buffer, serverVersion: 200)
    }
}
