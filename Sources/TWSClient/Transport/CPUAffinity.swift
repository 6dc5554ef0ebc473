#if canImport(Glibc)
    import Glibc
#endif

/// Pins a thread to one CPU (Linux `sched_setaffinity`), so a busy-polling session thread keeps its core and its
/// caches. Elsewhere it does nothing and says so.
enum CPUAffinity {
    /// Pins the calling thread to `cpu`.
    /// - Returns: whether the kernel accepted it (`false`: no such CPU, not allowed, or not Linux).
    static func pinCurrentThread(to cpu: Int) -> Bool {
        #if os(Linux)
            // glibc declares it only under _GNU_SOURCE, which Swift's Glibc module does not set: look it up.
            typealias SetAffinity = @convention(c) (pid_t, Int, UnsafeRawPointer) -> Int32
            guard let symbol = dlsym(nil, "sched_setaffinity") else { return false }
            let setAffinity = unsafeBitCast(symbol, to: SetAffinity.self)
            // A cpu_set_t: 1024 bits.
            var words = [UInt64](repeating: 0, count: 16)
            guard cpu >= 0, cpu < words.count * 64 else { return false }
            words[cpu / 64] |= 1 << UInt64(cpu % 64)
            return words.withUnsafeBytes { bytes in
                guard let base = bytes.baseAddress else { return -1 }
                return setAffinity(0, bytes.count, base)
            } == 0
        #else
            return false
        #endif
    }
}
