import ArgumentParser
import Foundation

/// A user-facing failure: printed as `error: <message>` and the process exits non-zero.
struct CLIError: Error, CustomStringConvertible {
    let message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}

/// Reads a text file, with an error that names the path.
func readTextFile(_ path: String) throws -> String {
    do {
        return try String(contentsOfFile: path, encoding: .utf8)
    } catch {
        throw CLIError("cannot read '\(path)': \((error as NSError).localizedDescription)")
    }
}

/// Writes a text file (creating its folder), with an error that names the path.
func writeTextFile(_ text: String, to path: String) throws {
    let url = URL(fileURLWithPath: path)
    do {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    } catch {
        throw CLIError("cannot write '\(path)': \((error as NSError).localizedDescription)")
    }
}

/// Writes to standard error.
func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}
