import Foundation
import TradingModel

extension BarCSVLoader {
    /// Reads a file chunk by chunk and hands each chunk's bars to `body`, never holding all of them: a 1M-bar file
    /// costs one 1 MiB chunk and its ~20,000 bars instead of 48 MB of bars.
    ///
    /// The bars, errors and line numbers are exactly those of ``load(path:policy:)``; a bad row stops the stream
    /// (under `.fail`) after the bars before it were handed out.
    /// - Parameters:
    ///   - path: file path.
    ///   - policy: fail on the first bad row (default) or skip and count bad rows.
    ///   - body: called with the bars of each chunk, in file order (the array is reused after the call).
    /// - Returns: the skipped and inconsistent row counts (`bars` is empty).
    /// - Throws: `BarLoadingError`.
    public static func stream(
        path: String, policy: BadRowPolicy = .fail, _ body: ([Bar]) -> Void
    ) throws(BarLoadingError) -> LoadedBars {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw BarLoadingError(file: path, line: 0, code: .unreadable("cannot open file"))
        }
        defer { try? handle.close() }
        // The file is read straight into one buffer that is reused: a fresh 1 MiB `Data` per chunk, copied into the
        // buffer, cost page faults and a copy of the whole file.
        var pending = ReadBuffer(capacity: 2 * chunkSize)
        var isFinal = try pending.read(handle.fileDescriptor, path: path)
        // One chunk's worth of bars (a row is at least ~20 bytes); the buffer grows if a chunk holds more.
        var parser = CSVRowParser(file: path, policy: policy, expectedRows: chunkSize / 20)
        while true {
            let consumed: Result<Int, BarLoadingError> = pending.withFilled { buffer in
                do throws(BarLoadingError) {
                    return .success(try parser.feed(buffer, isFinal: isFinal))
                } catch {
                    return .failure(error)
                }
            }
            // Hand out what parsed cleanly before reporting an error, as the array loader would have read it.
            if !parser.bars.isEmpty { body(parser.bars) }
            parser.removeAllBars()
            pending.removeFirst(try consumed.get())
            if isFinal { break }
            isFinal = try pending.read(handle.fileDescriptor, path: path)
        }
        return try parser.finish()
    }

    /// Bytes read from a file and not parsed yet, in a buffer allocated once.
    struct ReadBuffer {
        private var bytes: [UInt8]
        private var filled = 0

        init(capacity: Int) { bytes = Array(repeating: 0, count: capacity) }

        /// Appends up to one chunk from `descriptor`, growing the buffer only for a line longer than a chunk.
        /// - Returns: whether the file has ended (nothing more was read), as `readChunk` says it.
        /// - Throws: `BarLoadingError` when the file cannot be read.
        mutating func read(_ descriptor: Int32, path: String) throws(BarLoadingError) -> Bool {
            if bytes.count - filled < chunkSize { bytes.append(contentsOf: repeatElement(0, count: chunkSize)) }
            var total = 0
            // Read until a whole chunk or the end, as `FileHandle.read(upToCount:)` did.
            while total < chunkSize {
                let start = filled + total
                let count = bytes.withUnsafeMutableBytes { raw in
                    guard let base = raw.baseAddress else { return 0 }
                    return Foundation.read(descriptor, base + start, chunkSize - total)
                }
                if count > 0 {
                    total += count
                } else if count == 0 {
                    break
                } else if errno != EINTR {
                    throw BarLoadingError(file: path, line: 0, code: .unreadable(String(cString: strerror(errno))))
                }
            }
            filled += total
            return total == 0
        }

        /// The bytes read and not yet removed.
        func withFilled<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
            bytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[0..<filled])) }
        }

        /// Drops the first `count` bytes (parsed lines), moving the rest to the front.
        mutating func removeFirst(_ count: Int) {
            let rest = filled - count
            if rest > 0 {
                bytes.withUnsafeMutableBytes { raw in
                    guard let base = raw.baseAddress else { return }
                    base.copyMemory(from: base + count, byteCount: rest)
                }
            }
            filled = rest
        }
    }

    /// Rows a file probably holds, from its size and its first chunk (for progress and up-front allocation).
    /// - Parameter path: file path.
    /// - Returns: an estimate about 3 % high, or 0 if the file cannot be read.
    public static func estimatedRowCount(path: String) -> Int {
        guard let handle = FileHandle(forReadingAtPath: path) else { return 0 }
        defer { try? handle.close() }
        var sample: [UInt8] = []
        _ = try? readChunk(handle, path: path, appendingTo: &sample)
        return estimatedRows(path: path, sample: sample)
    }
}
