import NIOCore
import Synchronization

#if canImport(Glibc)
    import Glibc
    private let sendFlags = Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)
#elseif canImport(Darwin)
    import Darwin
    private let sendFlags = MSG_DONTWAIT
#endif

/// A connected non-blocking socket polled by a `TWSBusyPollThread`: each `poll()` sends what an earlier write left
/// behind, then reads what arrived and hands it to the inbound stream — unless the connection reads the socket
/// itself (`DirectReader`, what `TWSConnection` does), when the poll only sends. Writes go out at once with
/// `send(2)` on the writer's thread, behind anything still queued, so frames never overtake each other.
final class BusyPollSocket: TWSBusyPollThread.Source {
    private struct State {
        var fd: Int32
        /// Until the peer closed, a read or write failed, or `close()`.
        var isOpen = true
        /// Bytes written but not yet taken by the kernel (its send buffer was full).
        var backlog: ByteBuffer?
        /// Why the socket failed, once it did (for the connection's direct reads).
        var failure: String?
        /// When the last read that found nothing began (`TWSWireClock.ReadStamps.emptyReadStarted`).
        var emptyReadStarted: UInt64 = 0
    }

    private enum ReadOutcome {
        case nothing
        case chunk(ByteBuffer)
        case ended
        case failed(String)
    }

    /// The largest single read; TWS's frames are small, a history reply may be a few hundred KB in several reads.
    private static let readSize = 64 * 1024
    private let state: Mutex<State>
    private let inbound: AsyncThrowingStream<ByteBuffer, any Error>.Continuation
    private let allocator = ByteBufferAllocator()
    /// What every `recv` reads into, allocated once: a poll that finds nothing allocates nothing, and a chunk is
    /// copied out at its own size, so a bar's 100 bytes do not take (and fault in) a fresh 64 KiB buffer each time.
    /// Only `poll` touches it, under the state's lock.
    private nonisolated(unsafe) let scratch = UnsafeMutableRawBufferPointer.allocate(
        byteCount: BusyPollSocket.readSize, alignment: 16)
    /// Read and write stamps (the poll's `recv`, the writer's `send`).
    let wireClock = TWSWireClock()
    /// How many writes found the kernel's send buffer full and left bytes for the poll (tests).
    let deferredWrites = Atomic<Int>(0)

    /// Ancillary data of each read: the kernel's receive time (`SO_TIMESTAMPNS`), Linux only.
    private nonisolated(unsafe) let control = UnsafeMutableRawBufferPointer.allocate(byteCount: 128, alignment: 16)
    /// Whether the kernel stamps the socket's reads.
    private let kernelStamps: Bool
    /// Whether the connection reads the socket itself (`TWSDirectReader`): the thread's polls then only flush.
    private let readsAreDirect = Atomic<Bool>(false)
    /// The polling thread, told of direct reads (`TWSBusyPollThread.noteDirectRead`).
    private let thread: TWSBusyPollThread

    init(fd: Int32, inbound: AsyncThrowingStream<ByteBuffer, any Error>.Continuation, thread: TWSBusyPollThread) {
        self.state = Mutex(State(fd: fd))
        self.inbound = inbound
        self.thread = thread
        #if os(Linux)
            var on: Int32 = 1
            kernelStamps = setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &on, socklen_t(MemoryLayout<Int32>.size)) == 0
        #else
            kernelStamps = false
        #endif
    }

    deinit {
        scratch.deallocate()
        control.deallocate()
    }

    /// One non-blocking read into `scratch`; with kernel stamps, also when the kernel received the bytes, in
    /// `TWSWireClock.now()` time (0: unknown).
    private func receive(_ fd: Int32) -> (count: Int, arrived: UInt64) {
        #if os(Linux)
            guard kernelStamps else { return (recv(fd, scratch.baseAddress, scratch.count, Int32(MSG_DONTWAIT)), 0) }
            var vector = iovec(iov_base: scratch.baseAddress, iov_len: scratch.count)
            return withUnsafeMutablePointer(to: &vector) { vector in
                var message = msghdr()
                message.msg_iov = vector
                message.msg_iovlen = 1
                message.msg_control = control.baseAddress
                message.msg_controllen = control.count
                let count = recvmsg(fd, &message, Int32(MSG_DONTWAIT))
                guard count > 0 else { return (count, 0) }
                return (count, Self.kernelArrival(control, length: Int(message.msg_controllen)))
            }
        #else
            return (recv(fd, scratch.baseAddress, scratch.count, Int32(MSG_DONTWAIT)), 0)
        #endif
    }

    #if os(Linux)
        /// The `SCM_TIMESTAMPNS` control message's time (the realtime clock), moved to the monotonic clock; 0 when
        /// absent or implausible.
        private static func kernelArrival(_ control: UnsafeMutableRawBufferPointer, length: Int) -> UInt64 {
            let header = MemoryLayout<cmsghdr>.size  // 16: CMSG_ALIGN(sizeof(struct cmsghdr)) on LP64
            var offset = 0
            while offset + header <= length {
                let item = control.baseAddress! + offset
                let itemLength = item.load(as: Int.self)
                let level = item.load(fromByteOffset: 8, as: Int32.self)
                let type = item.load(fromByteOffset: 12, as: Int32.self)
                guard itemLength >= header else { return 0 }
                if level == SOL_SOCKET, type == SCM_TIMESTAMPNS, itemLength >= header + MemoryLayout<timespec>.size {
                    let stamp = item.loadUnaligned(fromByteOffset: header, as: timespec.self)
                    let monotonic = TWSWireClock.now()
                    var real = timespec()
                    clock_gettime(CLOCK_REALTIME, &real)
                    let stampReal = UInt64(stamp.tv_sec) &* 1_000_000_000 &+ UInt64(stamp.tv_nsec)
                    let nowReal = UInt64(real.tv_sec) &* 1_000_000_000 &+ UInt64(real.tv_nsec)
                    // Up to a second old, never in the future: anything else is a clock step, not a latency.
                    guard nowReal >= stampReal, nowReal - stampReal < 1_000_000_000 else { return 0 }
                    return monotonic - (nowReal - stampReal)
                }
                offset += (itemLength + 7) & ~7
            }
            return 0
        }
    #endif

    var readsDirectly: Bool { readsAreDirect.load(ordering: .relaxed) }

    func poll() -> Bool {
        if readsAreDirect.load(ordering: .relaxed) {
            // The connection reads; a write the kernel could not take all of still goes out from here.
            state.withLock { state in
                if state.isOpen, state.backlog != nil { _ = Self.flush(&state) }
            }
            return false
        }
        let outcome = state.withLock { state -> ReadOutcome in
            guard state.isOpen else { return .nothing }
            return read(&state)
        }
        switch outcome {
        case .nothing:
            return false
        case .chunk(let bytes):
            inbound.yield(bytes)
        case .ended:
            inbound.finish()  // the connection reports the peer's close
        case .failed(let reason):
            inbound.finish(throwing: TWSConnectionError.transport("socket: \(reason)"))
        }
        return true
    }

    /// Flushes what is queued, then reads once (under the state's lock).
    ///
    /// It asks `poll(2)` first and reads only when there is something: `recvmsg` locks the socket, and a segment
    /// that arrives meanwhile is then left in the socket's backlog for the reader's own system call to process
    /// (TCP's receive work moved onto the busy thread, in the bar's way), where `poll` reads the socket's state
    /// without the lock. Measured on the bench with temporary probes (eighth session): the gap between the
    /// last empty check and the read that takes a bar went from 0.5 / 4.1 / 21 µs (p50 / p90 / p99) to
    /// 0.4 / 0.5 / 1.6.
    private func read(_ state: inout State) -> ReadOutcome {
        if state.backlog != nil, let failure = Self.flush(&state) { return .failed(failure) }
        let started = TWSWireClock.now()
        var readiness = pollfd(fd: state.fd, events: Int16(POLLIN), revents: 0)
        if pollSocket(&readiness) == 0 {
            state.emptyReadStarted = started
            return .nothing
        }
        let (result, arrived) = receive(state.fd)
        let code = errno
        if result > 0 {
            wireClock.noteReceived(arrived: arrived, emptyReadStarted: state.emptyReadStarted)
            return .chunk(allocator.buffer(bytes: UnsafeRawBufferPointer(rebasing: scratch[..<result])))
        }
        if result == 0 {
            state.isOpen = false
            return .ended
        }
        if code == EAGAIN || code == EWOULDBLOCK || code == EINTR {
            state.emptyReadStarted = started
            return .nothing
        }
        state.isOpen = false
        state.failure = BusyPollConnect.errnoText(code)
        return .failed(BusyPollConnect.errnoText(code))
    }

    /// Sends `bytes` now, or after what is still queued.
    /// - Throws: `ChannelError.ioOnClosedChannel` once the socket is closed or failed.
    func send(_ bytes: ByteBuffer) throws {
        let failure = try state.withLock { state throws -> String? in
            guard state.isOpen else { throw ChannelError.ioOnClosedChannel }
            if state.backlog != nil {
                state.backlog?.writeImmutableBuffer(bytes)
                return nil
            }
            state.backlog = bytes
            wireClock.noteSendStarted()
            let failure = Self.flush(&state)
            wireClock.noteSendEnded()
            if state.backlog != nil { deferredWrites.add(1, ordering: .relaxed) }
            return failure
        }
        if let failure {
            // The read side ends the connection, as NIO's failed write closes the channel.
            inbound.finish(throwing: TWSConnectionError.transport("socket: \(failure)"))
            throw ChannelError.ioOnClosedChannel
        }
    }

    /// Closes the socket (once) and ends the inbound stream.
    func close() {
        state.withLock { state in
            if state.fd >= 0 { _ = closeSocket(state.fd) }
            state.fd = -1
            state.isOpen = false
            state.backlog = nil
        }
        inbound.finish()
    }

    /// Writes as much of the backlog as the kernel takes. - Returns: why the socket failed, `nil` if it did not.
    private static func flush(_ state: inout State) -> String? {
        guard var backlog = state.backlog else { return nil }
        while backlog.readableBytes > 0 {
            var code: Int32 = 0
            let sent = backlog.withUnsafeReadableBytes { bytes in
                let n = sendBytes(state.fd, bytes.baseAddress, bytes.count)
                code = errno
                return n
            }
            if sent > 0 {
                backlog.moveReaderIndex(forwardBy: sent)
                continue
            }
            if sent < 0, code == EAGAIN || code == EWOULDBLOCK || code == EINTR { break }
            state.isOpen = false
            state.backlog = nil
            state.failure = BusyPollConnect.errnoText(code)
            return state.failure
        }
        state.backlog = backlog.readableBytes > 0 ? backlog : nil
        return nil
    }

    /// The connection's direct reads (`TWSDirectReader`).
    struct DirectReader: TWSDirectReader {
        let socket: BusyPollSocket

        func takeOverReads() {
            socket.readsAreDirect.store(true, ordering: .releasing)
        }

        var othersAreWaiting: Bool { socket.thread.hasWaitingJobs }

        func readNow() -> TWSDirectRead {
            socket.state.withLock { state -> TWSDirectRead in
                guard state.isOpen else { return state.failure.map { .failed($0) } ?? .ended }
                switch socket.read(&state) {
                case .nothing: return .nothing
                case .chunk(let bytes):
                    socket.thread.noteDirectRead()
                    return .chunk(bytes)
                case .ended: return .ended
                case .failed(let reason): return .failed(reason)
                }
            }
        }
    }

    /// The connection's writer: both calls send at once.
    struct Writer: TWSImmediateTransportWriter {
        let socket: BusyPollSocket

        func write(_ bytes: ByteBuffer) async throws {
            try socket.send(bytes)
        }

        func writeNow(_ bytes: ByteBuffer) {
            try? socket.send(bytes)  // a failure ends the inbound stream, which ends the connection
        }
    }
}

/// `poll(2)` of one socket without waiting: 0 when nothing is to be read (an error or a hang-up counts as something,
/// and so does a failed call: the read that follows reports it).
@inline(__always) private func pollSocket(_ descriptor: inout pollfd) -> Int32 {
    poll(&descriptor, 1, 0)
}

@inline(__always) private func sendBytes(_ fd: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    send(fd, bytes, count, sendFlags)
}
