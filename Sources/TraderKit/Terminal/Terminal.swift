import Foundation

/// Standard error, for warnings and progress (standard output carries the results).
public enum Terminal {
    /// Writes a line to standard error.
    public static func printError(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// Whether standard error is a terminal (progress bars draw only there).
    public static var isInteractive: Bool { isatty(STDERR_FILENO) == 1 }

    /// Asks a yes/no question on the terminal: `false` unless standard input is a terminal and the answer is yes.
    public static func confirm(_ prompt: String) -> Bool {
        guard isatty(STDIN_FILENO) == 1 else { return false }
        print(prompt, terminator: "")
        return readLine()?.trimmingCharacters(in: .whitespaces).lowercased() == "yes"
    }
}
