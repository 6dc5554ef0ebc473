import Foundation

/// Standard error, for warnings and progress (standard output carries the results).
public enum Terminal {
    /// Writes a line to standard error.
    public static func printError(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// Whether standard error is a terminal (progress bars draw only there).
    public static var isInteractive: Bool { isatty(STDERR_FILENO) == 1 }
}
