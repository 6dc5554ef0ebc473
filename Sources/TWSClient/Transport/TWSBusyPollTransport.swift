import NIOCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// TCP transport whose socket is polled by a `TWSBusyPollThread`: non-blocking `recv(2)` between the thread's jobs,
/// and `send(2)` straight from the writer's thread (the connection's actor, i.e. the busy thread itself), so neither
/// direction waits for a wake-up. Bytes the kernel does not take at once are kept, in order, and sent by the poll.
///
/// Get one from `TWSBusyPollThread.transport`.
public struct TWSBusyPollTransport: TWSTransport {
    let thread: TWSBusyPollThread
    /// How long the TCP connect may take.
    public var connectTimeout: Duration = .seconds(5)

    public func withConnection<Result: Sendable>(
        host: String, port: Int, _ body: @Sendable (TWSTransportChannel) async throws -> Result
    ) async throws -> Result {
        let fd = try await BusyPollConnect.connect(host: host, port: port, timeout: connectTimeout)
        let (inbound, continuation) = AsyncThrowingStream.makeStream(of: ByteBuffer.self, throwing: (any Error).self)
        let socket = BusyPollSocket(fd: fd, inbound: continuation, thread: thread)
        thread.register(socket)
        defer {
            thread.unregister(socket)
            socket.close()
        }
        return try await body(
            TWSTransportChannel(
                inbound: inbound, outbound: BusyPollSocket.Writer(socket: socket), wireClock: socket.wireClock,
                directReader: BusyPollSocket.DirectReader(socket: socket)))
    }
}

/// Non-blocking TCP connect with a timeout, awaited in short sleeps so the busy thread keeps running its other jobs.
enum BusyPollConnect {
    static func connect(host: String, port: Int, timeout: Duration) async throws -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
            hints.ai_socktype = SOCK_STREAM
        #endif
        hints.ai_protocol = Int32(IPPROTO_TCP)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            let reason = String(cString: gai_strerror(status))
            throw TWSConnectionError.refused(host: host, port: port, reason: "name lookup failed: \(reason)")
        }
        defer { freeaddrinfo(first) }
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        var lastReason = "no address"
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let address = entry {
            entry = address.pointee.ai_next
            let fd = socket(address.pointee.ai_family, address.pointee.ai_socktype, address.pointee.ai_protocol)
            guard fd >= 0 else {
                lastReason = errnoText(errno)
                continue
            }
            configure(fd)
            if connectSocket(fd, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 { return fd }
            guard errno == EINPROGRESS else {
                lastReason = errnoText(errno)
                _ = closeSocket(fd)
                continue
            }
            do {
                if let failure = try await waitConnected(fd, deadline: deadline, clock: clock) {
                    lastReason = failure
                    _ = closeSocket(fd)
                    continue
                }
                return fd
            } catch {
                _ = closeSocket(fd)
                if error is CancellationError { throw error }
                throw TWSConnectionError.timedOut(waitingFor: "the TCP connection to \(host):\(port)", after: timeout)
            }
        }
        throw TWSConnectionError.refused(host: host, port: port, reason: lastReason)
    }

    private struct TimedOut: Error {}

    /// Waits until the connect completes. - Returns: `nil` when connected, else why not.
    private static func waitConnected(
        _ fd: Int32, deadline: ContinuousClock.Instant, clock: ContinuousClock
    ) async throws -> String? {
        while true {
            var entry = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            if poll(&entry, 1, 0) > 0 {
                var error: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
                return error == 0 ? nil : errnoText(error)
            }
            guard clock.now < deadline else { throw TimedOut() }
            try await Task.sleep(for: .microseconds(500))
        }
    }

    /// Non-blocking, Nagle off (as `TWSNIOTransport`), no SIGPIPE on Darwin (Linux uses `MSG_NOSIGNAL`).
    private static func configure(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL, 0) | O_NONBLOCK)
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        #if canImport(Darwin)
            setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    static func errnoText(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}

// `connect` and `close` as free functions: inside the types above, same-named members shadow the C calls.
@inline(__always) private func connectSocket(
    _ fd: Int32, _ address: UnsafePointer<sockaddr>?, _ length: socklen_t
) -> Int32 {
    connect(fd, address, length)
}

@inline(__always) func closeSocket(_ fd: Int32) -> Int32 {
    close(fd)
}
