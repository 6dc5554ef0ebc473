import GatewayCore
import Logging
import NIOCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Stops accepting for a moment when accept fails (EMFILE at the file descriptor limit, ENFILE, ENOBUFS, ENOMEM).
///
/// NIO's own backoff delays the next `read()`, but after a failed accept the listening socket stays registered for
/// readability, so epoll wakes the loop at once again: the gateway spun at 100 % of a core at the fd limit
/// (reliability audit, campaign 1c). Turning auto-read off unregisters the socket; it is turned on again after
/// `delay`, and a connection waiting in the backlog is then accepted if descriptors are free again.
///
/// A few descriptors are held in reserve and given back while accepting pauses: the runtime needs one now and then
/// (libdispatch's thread pool monitor reads `/proc/self/task/…/stat`, and traps when it cannot open it). They are
/// taken again before accepting resumes; while they cannot be, accepting stays paused.
final class AcceptErrorBackoff: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = any Channel

    /// Descriptors held in reserve.
    static let reserve = 4

    private let delay: TimeAmount
    private let logger: Logger
    private var isPaused = false
    private var reserved: [Int32] = []

    init(delay: TimeAmount = .milliseconds(500), logger: Logger) {
        self.delay = delay
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        _ = takeReserve()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        releaseReserve()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if error is IOError, !isPaused, let options = context.channel.syncOptions {
            isPaused = true
            releaseReserve()
            logger.warning("cannot accept connections, pausing", metadata: [
                "error": "\(error)", "milliseconds": "\(delay.nanoseconds / 1_000_000)"])
            try? options.setOption(.autoRead, value: false)
            resume(context, options)
        }
        context.fireErrorCaught(error)
    }

    /// After `delay`: accepting resumes once the reserve is held again, else it waits another `delay`.
    private func resume(_ context: ChannelHandlerContext, _ options: NIOSynchronousChannelOptions) {
        context.eventLoop.assumeIsolated().scheduleTask(in: delay) {
            guard self.takeReserve() else {
                self.resume(context, options)
                return
            }
            self.isPaused = false
            try? options.setOption(.autoRead, value: true)
        }
    }

    /// Opens the reserve descriptors; `false` (and none held) when the process is still out of descriptors.
    private func takeReserve() -> Bool {
        while reserved.count < Self.reserve {
            let descriptor = open("/dev/null", O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                releaseReserve()
                return false
            }
            reserved.append(descriptor)
        }
        return true
    }

    private func releaseReserve() {
        for descriptor in reserved { close(descriptor) }
        reserved.removeAll()
    }
}
