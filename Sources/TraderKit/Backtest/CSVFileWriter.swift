import Foundation

/// A file written in 1 MiB pieces, so no output file is ever held whole: rows are appended to `text` as bytes and
/// `flushIfFull()` writes a piece once it passes 1 MiB. Holding a 66 MB `equity.csv` whole would not be faster
/// (one `write` per MiB is nothing next to formatting it) and would add its size to the run's peak memory.
public struct CSVFileWriter {
    private let handle: FileHandle
    private let path: String
    /// The pending bytes.
    public var text = TextBytes(capacity: 1 << 20 + 4096)

    /// Creates (or truncates) the file, and its folder if needed.
    /// - Throws: `TraderError` naming the path.
    public init(path: String) throws(TraderError) {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw TraderError("cannot write '\(path)'")
        }
        self.handle = handle
        self.path = path
    }

    /// Writes the pending bytes once they pass 1 MiB.
    /// - Throws: `TraderError` naming the path.
    public mutating func flushIfFull() throws(TraderError) {
        if text.count >= 1 << 20 { try flush() }
    }

    /// Writes what is pending and closes the file.
    /// - Throws: `TraderError` naming the path.
    public mutating func close() throws(TraderError) {
        try flush()
        do { try handle.close() } catch { throw TraderError("cannot write '\(path)': the disk is full or the file is not writable") }
    }

    private mutating func flush() throws(TraderError) {
        do {
            try handle.write(contentsOf: text.bytes)
        } catch {
            try? handle.close()
            throw TraderError("cannot write '\(path)': the disk is full or the file is not writable")
        }
        text.removeAll()
    }
}
