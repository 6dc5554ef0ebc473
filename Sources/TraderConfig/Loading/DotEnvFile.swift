/// A `.env` file: `NAME=value` lines (optionally `export NAME=value`, values optionally quoted), `#` comments.
/// It sits next to the config for secrets that should not be in the config itself; the process environment wins
/// over it.
public struct DotEnvFile: Sendable {
    /// One variable, with its line.
    public struct Variable: Sendable, Hashable {
        /// The name.
        public var name: String
        /// The value, unquoted.
        public var value: String
        /// The 1-based line.
        public var line: Int
    }

    /// The variables, in file order.
    public var variables: [Variable] = []

    /// Parses the file's text.
    /// - Parameters:
    ///   - text: the file.
    ///   - path: named in errors.
    /// - Throws: `ConfigError` for a line that is not `NAME=value`.
    public init(text: String, path: String) throws(ConfigError) {
        var lineNumber = 0
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            var line = rawLine.trimmingSpaces
            if line.hasSuffix("\r") { line.removeLast() }
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("export ") { line = String(line.dropFirst("export ".count)).trimmingSpaces }
            guard let equals = line.firstIndex(of: "=") else {
                throw ConfigError("expected NAME=value", at: .file(path: path, line: lineNumber, column: 1))
            }
            let name = line[..<equals].trimmingSpaces
            guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
                throw ConfigError("'\(name)' is not a variable name", at: .file(path: path, line: lineNumber, column: 1))
            }
            var value = line[line.index(after: equals)...].trimmingSpaces
            if value.count >= 2, let first = value.first, first == "\"" || first == "'", value.last == first {
                value = String(value.dropFirst().dropLast())
            } else if let comment = value.range(of: " #") {
                value = String(value[..<comment.lowerBound]).trimmingSpaces
            }
            variables.append(Variable(name: name, value: value, line: lineNumber))
        }
    }
}
