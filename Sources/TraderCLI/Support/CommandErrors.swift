import TraderKit

/// A user-facing failure: printed as `Error: <message>` and the process exits non-zero.
typealias CLIError = TraderError

/// Reads a text file, with an error that names the path.
func readTextFile(_ path: String) throws -> String { try TextFiles.read(path) }

/// Writes a text file (creating its folder), with an error that names the path.
func writeTextFile(_ text: String, to path: String) throws { try TextFiles.write(text, to: path) }

/// Writes to standard error.
func printError(_ text: String) { Terminal.printError(text) }
