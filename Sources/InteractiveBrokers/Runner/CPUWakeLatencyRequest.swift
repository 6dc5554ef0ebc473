import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Asks the kernel to keep the CPUs out of idle states that take longer than a bound to wake from, while the bot runs
/// (Linux PM QoS: an `Int32` in µs written to `/dev/cpu_dma_latency`, in force while the file stays open — what
/// `tuned`'s latency-performance profile and `cyclictest` do).
///
/// Why: a bar arriving at an idle CPU waits for it to wake. On the 2-vCPU VM this was measured on, the loopback round
/// trip alone was 46 µs with idle vCPUs and 16 µs with the request at 0 (the guest's cpuidle then polls instead of
/// halting). It costs power (idle CPUs spin), and needs write access to the device (root, or a udev rule), so it is
/// opt-in: `latency.cpuWakeLatency` in `ibtrader run`'s config (docs/live-trading.md, Latency).
public final class CPUWakeLatencyRequest: Sendable {
    /// The device written to.
    public let device: String
    /// The bound asked for, in µs.
    public let microseconds: Int32
    private let descriptor: Int32

    /// Makes the request; it holds until `release()` (or the process ends).
    /// - Parameters:
    ///   - microseconds: the longest wake-up latency allowed (0: never enter an idle state that is not polling).
    ///   - device: the PM QoS device (a test passes a scratch file).
    /// - Throws: `CPUWakeLatencyError` naming the device and why (not Linux, no permission, not there).
    public init(microseconds: Int32, device: String = "/dev/cpu_dma_latency") throws(CPUWakeLatencyError) {
        #if os(Linux)
            let fd = open(device, O_WRONLY | O_CLOEXEC)
            guard fd >= 0 else { throw .cannotOpen(device: device, reason: String(cString: strerror(errno))) }
            var value = microseconds
            let written = withUnsafeBytes(of: &value) { write(fd, $0.baseAddress, $0.count) }
            guard written == MemoryLayout<Int32>.size else {
                let reason = written < 0 ? String(cString: strerror(errno)) : "short write"
                close(fd)
                throw .cannotWrite(device: device, reason: reason)
            }
            self.device = device
            self.microseconds = microseconds
            self.descriptor = fd
        #else
            throw .unsupported
        #endif
    }

    /// Ends the request (the kernel drops it when the file closes; a process exit does the same).
    public func release() {
        #if os(Linux)
            close(descriptor)
        #endif
    }
}

/// Why a `CPUWakeLatencyRequest` could not be made.
public enum CPUWakeLatencyError: Error, Equatable, CustomStringConvertible {
    case unsupported
    case cannotOpen(device: String, reason: String)
    case cannotWrite(device: String, reason: String)

    public var description: String {
        switch self {
        case .unsupported:
            "a CPU wake-up latency request needs Linux (/dev/cpu_dma_latency)"
        case .cannotOpen(let device, let reason):
            "cannot open \(device) (\(reason)): needs root or write access to the device"
        case .cannotWrite(let device, let reason):
            "cannot write \(device): \(reason)"
        }
    }
}
