import Foundation

#if canImport(Glibc)
    import Glibc
    private let streamSocket = Int32(SOCK_STREAM.rawValue)
#elseif canImport(Darwin)
    import Darwin
    private let streamSocket = SOCK_STREAM
#endif

/// Monotonic nanoseconds (`CLOCK_MONOTONIC`): the one clock every latency timestamp of the benchmark is read from.
func monotonicNanoseconds() -> UInt64 {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
}

struct SocketError: Error, CustomStringConvertible {
    var description: String
    init(_ what: String) { description = "\(what): errno \(errno)" }
}

/// Blocking loopback TCP sockets, with Nagle off (as NIO sets it on the bot's and the simulator's sockets).
enum LoopbackSocket {
    static func makeListener() throws -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, streamSocket, 0)
        guard fd >= 0 else { throw SocketError("socket") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 4) == 0 else { throw SocketError("bind/listen") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }

    static func acceptClient(_ listener: Int32) throws -> Int32 {
        let fd = accept(listener, nil, nil)
        guard fd >= 0 else { throw SocketError("accept") }
        noDelay(fd)
        return fd
    }

    static func connectTo(port: Int) throws -> Int32 {
        let fd = socket(AF_INET, streamSocket, 0)
        guard fd >= 0 else { throw SocketError("socket") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else { throw SocketError("connect") }
        noDelay(fd)
        return fd
    }

    static func noDelay(_ fd: Int32) {
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Writes every byte; `false` once the peer is gone.
    static func writeAll(_ fd: Int32, _ bytes: ArraySlice<UInt8>) -> Bool {
        var offset = bytes.startIndex
        while offset < bytes.endIndex {
            let n = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n <= 0 { return false }
            offset += n
        }
        return true
    }
}

/// Cuts a TWS byte stream into frames (4-byte big-endian length + payload), after the client's `API\0` prefix.
struct FrameCutter {
    var buffer: [UInt8] = []
    var expectsPrefix: Bool

    /// Appends bytes; returns the number of leading bytes that form complete frames (with the prefix) and the
    /// message ids (the payload's first field) of those frames.
    mutating func append(_ bytes: ArraySlice<UInt8>) -> (complete: Int, ids: [Int]) {
        buffer.append(contentsOf: bytes)
        var offset = 0
        var ids: [Int] = []
        if expectsPrefix {
            guard buffer.count >= 4 else { return (0, []) }
            offset = 4
            expectsPrefix = false
        }
        while buffer.count - offset >= 4 {
            let length = Int(buffer[offset]) << 24 | Int(buffer[offset + 1]) << 16 | Int(buffer[offset + 2]) << 8
                | Int(buffer[offset + 3])
            guard buffer.count - offset - 4 >= length else { break }
            ids.append(Self.messageID(buffer[(offset + 4)..<(offset + 4 + length)]))
            offset += 4 + length
        }
        return (offset, ids)
    }

    /// A payload's message id: text digits before server version 201; from 201 on, a 4-byte big-endian id, plus
    /// 200 when the body is protobuf (the same message either way here).
    static func messageID(_ payload: ArraySlice<UInt8>) -> Int {
        guard let first = payload.first else { return 0 }
        if first >= 48, first <= 57 {
            var id = 0
            for byte in payload {
                guard byte >= 48, byte <= 57 else { break }
                id = id * 10 + Int(byte - 48)
            }
            return id
        }
        guard payload.count >= 4 else { return 0 }
        let id = payload.prefix(4).reduce(0) { $0 << 8 | Int($1) }
        return id > 200 ? id - 200 : id
    }

    /// Drops the first `count` bytes (already forwarded).
    mutating func consume(_ count: Int) { buffer.removeFirst(count) }
}

/// A loopback TCP proxy between the bot and the simulator that timestamps two frames: a real-time bar (id 50)
/// just before it is written to the bot's socket, and a placeOrder (id 3) just after it is read from the bot's
/// socket. Blocking sockets on two threads of its own, so the timestamps do not wait for the Swift runtime.
final class FrameTapProxy: @unchecked Sendable {
    let port: Int
    private let listener: Int32
    private let upstreamPort: Int
    private let lock = NSLock()
    private var barWritten: UInt64 = 0
    private let orders: AsyncStream<(bar: UInt64, order: UInt64)>.Continuation
    /// One element per placeOrder read: the latest bar write before it and the order's read time.
    let orderReads: AsyncStream<(bar: UInt64, order: UInt64)>

    static let realTimeBarID = 50
    static let placeOrderID = 3

    init(upstreamPort: Int) throws {
        (listener, port) = try LoopbackSocket.makeListener()
        self.upstreamPort = upstreamPort
        (orderReads, orders) = AsyncStream.makeStream(of: (bar: UInt64, order: UInt64).self)
    }

    /// Accepts the bot's connection on a thread of its own, connects to the simulator and pumps both ways.
    func start() {
        let thread = Thread { [self] in
            guard let client = try? LoopbackSocket.acceptClient(listener),
                let server = try? LoopbackSocket.connectTo(port: upstreamPort)
            else { return }
            let down = Thread { [self] in pump(from: server, to: client, prefix: false) }
            down.stackSize = 1 << 20
            down.start()
            pump(from: client, to: server, prefix: true)
        }
        thread.start()
    }

    private func pump(from source: Int32, to sink: Int32, prefix: Bool) {
        var cutter = FrameCutter(expectsPrefix: prefix)
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
            let readAt = monotonicNanoseconds()
            if n <= 0 { break }
            let (complete, ids) = cutter.append(chunk[0..<n])
            guard complete > 0 else { continue }
            if prefix {
                if ids.contains(Self.placeOrderID) {
                    let bar = lock.withLock { barWritten }
                    orders.yield((bar, readAt))
                }
            } else if ids.contains(Self.realTimeBarID) {
                let now = monotonicNanoseconds()
                lock.withLock { barWritten = now }
            }
            guard LoopbackSocket.writeAll(sink, cutter.buffer[0..<complete]) else { break }
            cutter.consume(complete)
        }
        close(source)
        close(sink)
        orders.finish()
    }
}

/// The kernel's share: a frame-sized ping-pong between two threads over loopback TCP (write → the other thread
/// wakes from `read` → writes back → this thread wakes). Returns round trips in nanoseconds.
enum LoopbackBaseline {
    static func roundTrips(count: Int, frameSize: Int = 120) throws -> [UInt64] {
        let (listener, port) = try LoopbackSocket.makeListener()
        let a = try LoopbackSocket.connectTo(port: port)
        let b = try LoopbackSocket.acceptClient(listener)
        close(listener)
        let echo = Thread {
            var buffer = [UInt8](repeating: 0, count: frameSize)
            while true {
                var got = 0
                while got < frameSize {
                    let n = buffer.withUnsafeMutableBytes { read(b, $0.baseAddress! + got, frameSize - got) }
                    if n <= 0 { close(b); return }
                    got += n
                }
                if !LoopbackSocket.writeAll(b, buffer[...]) { close(b); return }
            }
        }
        echo.start()
        let frame = [UInt8](repeating: 65, count: frameSize)
        var reply = [UInt8](repeating: 0, count: frameSize)
        var samples: [UInt64] = []
        samples.reserveCapacity(count)
        for _ in 0..<count {
            let start = monotonicNanoseconds()
            _ = LoopbackSocket.writeAll(a, frame[...])
            var got = 0
            while got < frameSize {
                let n = reply.withUnsafeMutableBytes { read(a, $0.baseAddress! + got, frameSize - got) }
                if n <= 0 { break }
                got += n
            }
            samples.append(monotonicNanoseconds() - start)
        }
        close(a)
        return samples
    }
}
