import Foundation
import TradingModel

/// What a key accepts: how its value is read (with the range checked) and written back, and how the docs and
/// errors describe it. Every reader refuses out-of-range values with the allowed range in the message, whether the
/// value came from a file, the environment or a flag.
public struct ConfigKind<Value> {
    /// The allowed values in words: `an integer from 1 to 65535`.
    public let allowed: String
    /// Reads a value; the key path names it in errors.
    public let read: (ConfigNode, String) throws(ConfigError) -> Value
    /// The value as YAML would read it back.
    public let format: (Value) -> String

    /// Creates a kind.
    public init(
        allowed: String, read: @escaping (ConfigNode, String) throws(ConfigError) -> Value,
        format: @escaping (Value) -> String
    ) {
        self.allowed = allowed
        self.read = read
        self.format = format
    }

    /// The same kind, with `none` (or YAML null) meaning "not set".
    public var optional: ConfigKind<Value?> {
        let read = self.read, format = self.format
        return ConfigKind<Value?>(
            allowed: "\(allowed), or none",
            read: { (node, key) throws(ConfigError) in
                if node.isNull || node.scalar?.lowercased() == "none" { return nil }
                return try read(node, key)
            },
            format: { $0.map(format) ?? "none" })
    }

    /// The same kind with a further check (`nil`: fine; else the reason, said after the key).
    public func checked(_ check: @escaping (Value) -> String?) -> ConfigKind<Value> {
        let read = self.read
        return ConfigKind(
            allowed: allowed,
            read: { (node, key) throws(ConfigError) in
                let value = try read(node, key)
                if let problem = check(value) { throw ConfigError(problem, key: key, at: node.origin) }
                return value
            },
            format: format)
    }
}

// MARK: - Scalars

/// For a value written in Swift's synthesized shape (`{rawValue: IBM}`, `{_0: 10}`, `{nanoseconds: N}`), the
/// human spelling to write instead.
func swiftEncodingHint(_ node: ConfigNode, _ key: String) -> String {
    guard let entries = node.entries, entries.count == 1, let entry = entries.first,
        let inner = entry.value.scalar
    else { return "" }
    let name = key.split(separator: ".").last.map(String.init) ?? key
    switch entry.key {
    case "rawValue", "_0": return "; write the value itself: '\(name): \(inner)'"
    case "nanoseconds":
        guard let nanoseconds = Int64(inner), nanoseconds >= 0 else { return "" }
        return "; write a duration: '\(name): \(HumanDuration.format(.nanoseconds(nanoseconds)))'"
    default: return ""
    }
}

extension ConfigKind {
    /// The scalar text of `node`, or an error saying a single value was expected.
    static func text(_ node: ConfigNode, _ key: String, expecting allowed: String) throws(ConfigError) -> String {
        guard let text = node.scalar else {
            throw ConfigError(
                "expected \(allowed), got \(node.shapeDescription)\(swiftEncodingHint(node, key))", key: key,
                at: node.origin)
        }
        guard !text.trimmingSpaces.isEmpty else {
            throw ConfigError("empty value; expected \(allowed)", key: key, at: node.origin)
        }
        return text.trimmingSpaces
    }
}

extension ConfigKind where Value == Int {
    /// An integer within `range`.
    public static func integer(_ range: ClosedRange<Int>) -> ConfigKind<Int> {
        let allowed = "an integer from \(range.lowerBound) to \(range.upperBound)"
        return ConfigKind(
            allowed: allowed,
            read: { (node, key) throws(ConfigError) in
                let text = try text(node, key, expecting: allowed)
                guard let value = Int(text.replacingOccurrences(of: "_", with: "")), range.contains(value) else {
                    throw ConfigError("must be \(allowed), got '\(text)'", key: key, at: node.origin)
                }
                return value
            },
            format: { String($0) })
    }
}

extension ConfigKind where Value == Double {
    /// A finite number within `range`.
    public static func number(_ range: NumberRange, unit: String = "") -> ConfigKind<Double> {
        let allowed = "a number \(range)\(unit)"
        return ConfigKind(
            allowed: allowed,
            read: { (node, key) throws(ConfigError) in
                let text = try text(node, key, expecting: allowed)
                guard let value = Double(text.replacingOccurrences(of: "_", with: "")), range.contains(value) else {
                    throw ConfigError("must be \(allowed), got '\(text)'", key: key, at: node.origin)
                }
                return value
            },
            format: ConfigFormat.number)
    }

    /// A percentage: a number in `range` (0 to 100 unless said otherwise), `%` allowed after it.
    public static func percent(_ range: NumberRange = .above(0, atMost: 100)) -> ConfigKind<Double> {
        let allowed = "a percentage \(range)"
        return ConfigKind(
            allowed: allowed,
            read: { (node, key) throws(ConfigError) in
                var text = try text(node, key, expecting: allowed)
                if text.hasSuffix("%") { text = String(text.dropLast()).trimmingSpaces }
                guard let value = Double(text), range.contains(value) else {
                    throw ConfigError("must be \(allowed), got '\(text)'", key: key, at: node.origin)
                }
                return value
            },
            format: ConfigFormat.number)
    }

    /// An amount of money: above 0, at most ten billion (so the engine's fixed point never overflows).
    public static var money: ConfigKind<Double> { .number(.above(0, atMost: 10_000_000_000)) }
}

extension ConfigKind where Value == Bool {
    /// `true`/`false` (also yes/no, on/off).
    public static var boolean: ConfigKind<Bool> {
        ConfigKind(
            allowed: "true or false",
            read: { (node, key) throws(ConfigError) in
                let text = try text(node, key, expecting: "true or false")
                switch text.lowercased() {
                case "true", "yes", "on": return true
                case "false", "no", "off": return false
                default: throw ConfigError("must be true or false, got '\(text)'", key: key, at: node.origin)
                }
            },
            format: { $0 ? "true" : "false" })
    }
}

extension ConfigKind where Value == Int {
    /// A size in bytes within `range`, written `500 KB`, `10 MB` or `1 GB` (decimal units; a bare number is bytes).
    public static func byteSize(_ range: ClosedRange<Int>) -> ConfigKind<Int> {
        let allowed = "a size from \(ByteSize.format(range.lowerBound)) to \(ByteSize.format(range.upperBound)) (500 KB, 10 MB, 1 GB)"
        return ConfigKind(
            allowed: allowed,
            read: { (node, key) throws(ConfigError) in
                let text = try text(node, key, expecting: allowed)
                guard let value = ByteSize.parse(text), range.contains(value) else {
                    throw ConfigError("must be \(allowed), got '\(text)'", key: key, at: node.origin)
                }
                return value
            },
            format: ByteSize.format)
    }
}

/// Sizes as people write them: `10 MB`, `500KB`, `1 gb`, `2048` (bytes). Units are decimal (1 MB = 1,000,000 bytes).
public enum ByteSize {
    static let units: [(String, Int)] = [("GB", 1_000_000_000), ("MB", 1_000_000), ("KB", 1_000), ("B", 1)]

    /// The bytes of `text`, or `nil` when it is not a size (or above 1 TB).
    public static func parse(_ text: String) -> Int? {
        let trimmed = text.trimmingSpaces.uppercased()
        let (digits, unit) = units.first { trimmed.hasSuffix($0.0) }
            .map { (String(trimmed.dropLast($0.0.count)).trimmingSpaces, $0.1) } ?? (trimmed, 1)
        guard let number = Double(digits), number.isFinite, number >= 0, number * Double(unit) <= 1e12 else { return nil }
        return Int((number * Double(unit)).rounded())
    }

    /// The largest unit that writes `bytes` exactly: `10 MB`, `1500 KB`, `7 B`.
    public static func format(_ bytes: Int) -> String {
        let (name, size) = units.first { bytes >= $0.1 && bytes % $0.1 == 0 } ?? ("B", 1)
        return "\(bytes / size) \(name)"
    }
}

extension ConfigKind where Value == Duration {
    /// A duration within `range` (see `HumanDuration`).
    public static func duration(_ range: ClosedRange<Duration>) -> ConfigKind<Duration> {
        let bounds = "from \(HumanDuration.format(range.lowerBound)) to \(HumanDuration.format(range.upperBound))"
        let allowed = "a duration \(bounds) (30s, 5m, 1h, 2d; a bare number is seconds)"
        return ConfigKind(
            allowed: allowed,
            read: { (node, key) throws(ConfigError) in
                let text = try text(node, key, expecting: allowed)
                guard let value = HumanDuration.parse(text) else {
                    throw ConfigError("must be \(allowed), got '\(text)'", key: key, at: node.origin)
                }
                guard range.contains(value) else {
                    throw ConfigError("must be \(bounds), got '\(text)'", key: key, at: node.origin)
                }
                return value
            },
            format: HumanDuration.format)
    }
}

extension ConfigKind where Value == String {
    /// Any non-empty text.
    public static var text: ConfigKind<String> {
        ConfigKind(
            allowed: "text",
            read: { (node, key) throws(ConfigError) in try text(node, key, expecting: "text") },
            format: ConfigFormat.string)
    }

    /// One of `choices`, with the nearest one suggested for a typo.
    public static func choice(_ choices: [String]) -> ConfigKind<String> {
        let allowed = choices.joined(separator: " | ")
        return ConfigKind(
            allowed: allowed,
            read: { (node, key) throws(ConfigError) in
                let text = try text(node, key, expecting: allowed)
                guard choices.contains(text) else {
                    throw ConfigError(
                        "must be one of \(choices.joined(separator: ", ")), got '\(text)'"
                            + KeySuggestion.phrase(for: text, in: choices),
                        key: key, at: node.origin)
                }
                return text
            },
            format: { $0 })
    }

    /// A ticker symbol (letters, digits, `.`, `-`, `/` and spaces inside, e.g. `BRK B`).
    public static var symbol: ConfigKind<String> {
        ConfigKind(
            allowed: "a symbol",
            read: { (node, key) throws(ConfigError) in
                let text = try text(node, key, expecting: "a symbol")
                try Self.checkSymbol(text, key: key, at: node.origin)
                return text
            },
            format: ConfigFormat.string)
    }

    static func checkSymbol(_ text: String, key: String, at origin: ConfigOrigin) throws(ConfigError) {
        let allowedCharacters = text.allSatisfy { $0.isLetter || $0.isNumber || ".-/^ ".contains($0) }
        guard allowedCharacters, text.count <= 32 else {
            throw ConfigError("'\(text)' is not a symbol (letters, digits, . - / ^ and spaces)", key: key, at: origin)
        }
        if let problem = InstrumentKind.problem(with: text) { throw ConfigError(problem, key: key, at: origin) }
    }

    /// A date `YYYY-MM-DD` from 1970 to 2200.
    public static var date: ConfigKind<String> {
        let allowed = "a date YYYY-MM-DD from 1970-01-01 to 2200-12-31"
        return ConfigKind(
            allowed: allowed,
            read: { (node, key) throws(ConfigError) in
                let text = try text(node, key, expecting: allowed)
                let parts = text.split(separator: "-").map { Int($0) }
                guard parts.count == 3, text.count == 10, let year = parts[0], let month = parts[1], let day = parts[2],
                    (1970...2200).contains(year), (1...12).contains(month),
                    (1...ConfigCalendar.days(inMonth: month, year: year)).contains(day)
                else { throw ConfigError("must be \(allowed), got '\(text)'", key: key, at: node.origin) }
                return text
            },
            format: { $0 })
    }

    /// A file path; relative paths resolve against the folder of the file that names them (else the current
    /// folder). An empty path is an error.
    public static var path: ConfigKind<String> {
        ConfigKind(
            allowed: "a file path (relative to the config file's folder)",
            read: { (node, key) throws(ConfigError) in
                let text = try text(node, key, expecting: "a file path")
                return ConfigPaths.resolve(text, from: node.origin)
            },
            format: ConfigFormat.string)
    }
}

extension ConfigKind where Value == [String] {
    /// A list of distinct symbols (from the environment or a flag: a comma-separated list).
    public static var symbols: ConfigKind<[String]> {
        list(of: .symbol, allowed: "a list of symbols, e.g. [AAPL, MSFT] (a comma list in a flag)", distinct: true)
    }

    /// A list of values of one kind; a scalar is read as a comma-separated list.
    public static func list(of item: ConfigKind<String>, allowed: String, distinct: Bool) -> ConfigKind<[String]> {
        ConfigKind(
            allowed: allowed,
            read: { (node, key) throws(ConfigError) in
                var nodes: [ConfigNode]
                if let items = node.items {
                    nodes = items
                } else if let text = node.scalar {
                    nodes = text.split(separator: ",").map { .scalar(String($0).trimmingSpaces, origin: node.origin) }
                        .filter { $0.scalar?.isEmpty == false }
                } else if node.isNull {
                    nodes = []
                } else {
                    throw ConfigError("expected \(allowed), got \(node.shapeDescription)", key: key, at: node.origin)
                }
                var values: [String] = []
                for element in nodes {
                    let value = try item.read(element, key)
                    if distinct, values.contains(value) {
                        throw ConfigError("'\(value)' is listed twice", key: key, at: element.origin)
                    }
                    values.append(value)
                }
                return values
            },
            format: { ConfigFormat.list($0.map(item.format)) })
    }
}

/// Resolves paths written in configs.
public enum ConfigPaths {
    /// `~` expanded; a relative path joined to the folder of the file it was written in (else the current folder).
    public static func resolve(_ text: String, from origin: ConfigOrigin) -> String {
        if text.hasPrefix("/") { return text }
        if text.hasPrefix("~") { return (text as NSString).expandingTildeInPath }
        var base = FileManager.default.currentDirectoryPath
        if case .file(let file, _, _) = origin {
            let folder = URL(fileURLWithPath: file).deletingLastPathComponent().path
            base = folder
        }
        return URL(fileURLWithPath: base, isDirectory: true).appendingPathComponent(text).standardizedFileURL.path
    }
}

/// Month lengths for date checks.
enum ConfigCalendar {
    static func days(inMonth month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}

extension ConfigKind {
    /// The same kind, stored as another type (`Double` read, `Money` kept).
    public func map<Other>(_ forward: @escaping (Value) -> Other, back: @escaping (Other) -> Value) -> ConfigKind<Other> {
        let read = self.read, format = self.format
        return ConfigKind<Other>(
            allowed: allowed,
            read: { (node, key) throws(ConfigError) in forward(try read(node, key)) },
            format: { format(back($0)) })
    }
}
