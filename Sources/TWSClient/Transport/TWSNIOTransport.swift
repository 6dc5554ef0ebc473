import NIOCore
import NIOPosix
import TWSProtocol

/// TCP transport over SwiftNIO: `ClientBootstrap` + `NIOAsyncChannel`, closed with `executeThenClose`.
///
/// ```swift
/// let transport = TWSNIOTransport(connectTimeout: .seconds(5))
/// ```
public struct TWSNIOTransport: TWSTransport {
    /// The event loop group of the socket.
    public let group: any EventLoopGroup
    /// How long the TCP connect may take.
    public let connectTimeout: TimeAmount

    /// Creates a transport on the shared NIO event loop group.
    /// - Parameters:
    ///   - group: the event loop group; `MultiThreadedEventLoopGroup.singleton` by default.
    ///   - connectTimeout: the TCP connect timeout; 5 s by default.
    public init(
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton, connectTimeout: TimeAmount = .seconds(5)
    ) {
        self.group = group
        self.connectTimeout = connectTimeout
    }

    public func withConnection<Result: Sendable>(
        host: String, port: Int, _ body: @Sendable (TWSTransportChannel) async throws -> Result
    ) async throws -> Result {
        let channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>
        do {
            channel = try await ClientBootstrap(group: group)
                .connectTimeout(connectTimeout)
                .channelOption(.socketOption(.tcp_nodelay), value: 1)
                .connect(host: host, port: port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                    }
                }
        } catch ChannelError.connectTimeout(let amount) {
            let after = Duration.nanoseconds(amount.nanoseconds)
            throw TWSConnectionError.timedOut(waitingFor: "the TCP connection to \(host):\(port)", after: after)
        } catch {
            throw TWSConnectionError.refused(host: host, port: port, reason: Self.reason(error))
        }
        return try await channel.executeThenClose { inbound, _ in
            try await body(TWSTransportChannel(inbound: inbound, outbound: Writer(channel: channel.channel)))
        }
    }

    /// A short reason for a connect failure (NIO's errors are verbose).
    private static func reason(_ error: any Error) -> String {
        if let connection = error as? NIOConnectionError {
            if let first = connection.connectionErrors.first { return "\(first.error)" }
            if let dns = connection.dnsAError ?? connection.dnsAAAAError { return "name lookup failed: \(dns)" }
        }
        return "\(error)"
    }

    /// Writes straight into the channel's pipeline, one flush per frame: on the channel's own event loop (the
    /// session thread) the bytes reach the socket before `write` returns; from another thread they are queued on
    /// the loop in call order. The async channel's writer is not used: it would add a hop per frame.
    private struct Writer: TWSTransportWriter {
        let channel: any Channel

        func write(_ bytes: ByteBuffer) throws {
            guard channel.isActive else { throw ChannelError.ioOnClosedChannel }
            channel.writeAndFlush(bytes, promise: nil)
        }
    }
}
