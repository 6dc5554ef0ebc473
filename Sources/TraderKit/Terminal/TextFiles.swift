import Foundation

/// A failure a user can act on, said in a sentence (a file that cannot be read, data that does not fit).
public struct TraderError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The sentence.
    public let message: String
    /// An error with this message.
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// Text files with errors that name the path.
public enum TextFiles {
    /// Reads a UTF-8 text file.
    /// - Throws: `TraderError` naming the path.
    public static func read(_ path: String) throws(TraderError) -> String {
        do {
            return try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            let reason = FileManager.default.fileExists(atPath: path) ? "not readable UTF-8 text" : "no such file"
            throw TraderError("cannot read '\(path)': \(reason)")
        }
    }

    /// Writes a text file atomically, creating its folder.
    /// - Throws: `TraderError` naming the path.
    public static func write(_ text: String, to path: String) throws(TraderError) {
        let url = URL(fileURLWithPath: path)
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        } catch {
            throw TraderError("cannot write '\(path)': \((error as NSError).localizedFailureReason ?? "the folder is not writable")")
        }
    }
}
