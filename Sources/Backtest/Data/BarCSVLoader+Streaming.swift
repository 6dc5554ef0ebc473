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
        var pending: [UInt8] = []
        pending.reserveCapacity(chunkSize + 4096)
        var isFinal = try readChunk(handle, path: path, appendingTo: &pending)
        // One chunk's worth of bars (a row is at least ~20 bytes); the buffer grows if a chunk holds more.
        var parser = CSVRowParser(file: path, policy: policy, expectedRows: chunkSize / 20)
        while true {
            let consumed: Result<Int, BarLoadingError> = pending.withUnsafeBufferPointer { buffer in
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
            isFinal = try readChunk(handle, path: path, appendingTo: &pending)
        }
        return try parser.finish()
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
