import Foundation
import Synchronization

/// The kernel's share of the bot's stamped span: how long a loopback frame takes from the kernel's receive time
/// (`SO_TIMESTAMPNS`, the bot's start) to the return of a `recvmsg(2)` polled in the tightest loop there is. A thread
/// sends a 120-byte frame every millisecond; another reads the socket without blocking, over and over, and records
/// read return − receive time. On loopback the stamp is taken as the sender's kernel hands the packet over, before
/// the TCP receive path runs (on the sender's CPU); what this measures is that path plus one `recvmsg`, with no
/// program in between. The bot's "from the read" figure leaves it out; its stamped figure includes it.
enum KernelDelivery {
    static func samples(count: Int, frameSize: Int = 120) throws -> [Int64] {
        #if os(Linux)
            let (listener, port) = try LoopbackSocket.makeListener()
            let writer = try LoopbackSocket.connectTo(port: port)
            let reader = try LoopbackSocket.acceptClient(listener)
            close(listener)
            defer {
                close(writer)
                close(reader)
            }
            var on: Int32 = 1
            setsockopt(reader, SOL_SOCKET, SO_TIMESTAMPNS, &on, socklen_t(MemoryLayout<Int32>.size))
            let sending = Thread {
                let frame = [UInt8](repeating: 65, count: frameSize)
                for _ in 0..<count {
                    var pause = timespec(tv_sec: 0, tv_nsec: 1_000_000)
                    nanosleep(&pause, nil)
                    if !LoopbackSocket.writeAll(writer, frame[...]) { return }
                }
            }
            sending.start()
            var samples: [Int64] = []
            samples.reserveCapacity(count)
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 8)
            let control = UnsafeMutableRawBufferPointer.allocate(byteCount: 256, alignment: 8)
            defer {
                buffer.deallocate()
                control.deallocate()
            }
            var received = 0
            let deadline = monotonicNanoseconds() + UInt64(count) * 5_000_000 + 5_000_000_000
            while received < count * frameSize, monotonicNanoseconds() < deadline {
                var vector = iovec(iov_base: buffer.baseAddress, iov_len: buffer.count)
                let (n, stamp) = withUnsafeMutablePointer(to: &vector) { vector -> (Int, UInt64) in
                    var message = msghdr()
                    message.msg_iov = vector
                    message.msg_iovlen = 1
                    message.msg_control = control.baseAddress
                    message.msg_controllen = control.count
                    let n = recvmsg(reader, &message, Int32(MSG_DONTWAIT))
                    return (n, n > 0 ? receiveStamp(control, length: Int(message.msg_controllen)) : 0)
                }
                guard n > 0 else { continue }
                let now = realtimeNanoseconds()
                received += n
                if stamp > 0, now >= stamp { samples.append(Int64(now - stamp)) }
            }
            return samples
        #else
            return []
        #endif
    }

    private static func realtimeNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    #if os(Linux)
        /// The `SCM_TIMESTAMPNS` time (realtime clock), or 0.
        private static func receiveStamp(_ control: UnsafeMutableRawBufferPointer, length: Int) -> UInt64 {
            let header = MemoryLayout<cmsghdr>.size
            var offset = 0
            while offset + header <= length {
                let item = control.baseAddress! + offset
                let itemLength = item.load(as: Int.self)
                guard itemLength >= header else { return 0 }
                let level = item.load(fromByteOffset: 8, as: Int32.self)
                let type = item.load(fromByteOffset: 12, as: Int32.self)
                if level == SOL_SOCKET, type == SCM_TIMESTAMPNS {
                    let stamp = item.loadUnaligned(fromByteOffset: header, as: timespec.self)
                    return UInt64(stamp.tv_sec) * 1_000_000_000 + UInt64(stamp.tv_nsec)
                }
                offset += (itemLength + 7) & ~7
            }
            return 0
        }
    #endif
}
