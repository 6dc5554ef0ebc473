import Logging
import NIOCore

/// Stops accepting for a moment when accept fails (EMFILE at the file descriptor limit, ENFILE, ENOBUFS, ENOMEM).
///
/// NIO's own backoff delays the next `read()`, but after a failed accept the listening socket stays registered for
/// readability, so epoll wakes the loop at once again: the gateway spun at 100 % of a core at the fd limit
/// (reliability audit, campaign 1c). Turning auto-read off unregisters the socket; it is turned on again after
/// `delay`, and a connection waiting in the backlog is then accepted if descriptors are free again.
final class AcceptErrorBackoff: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = any Channel

    private let delay: TimeAmount
    private let logger: Logger
    private var isPaused = false

    init(delay: TimeAmount = .milliseconds(500), logger: Logger) {
        self.delay = delay
        self.logger = logger
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if error is IOError, !isPaused, let options = context.channel.syncOptions {
            isPaused = true
            logger.warning("cannot accept connections, pausing", metadata: [
                "error": "\(error)", "milliseconds": "\(delay.nanoseconds / 1_000_000)"])
            try? options.setOption(.autoRead, value: false)
            context.eventLoop.assumeIsolated().scheduleTask(in: delay) {
                self.isPaused = false
                try? options.setOption(.autoRead, value: true)
            }
        }
        context.fireErrorCaught(error)
    }
}
