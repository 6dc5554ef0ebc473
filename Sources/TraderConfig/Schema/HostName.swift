/// Addresses checked before anything connects: `dashboard.bind` and `connection.host` must be an IP address or a
/// host name, so `not a host` fails `config check` instead of the run.
enum HostName {
    static let allowed = "an IP address (127.0.0.1, 0.0.0.0, ::1) or a host name (letters, digits, '-', '_' and '.')"

    /// `nil` for an address or a well-formed host name, else what is wrong.
    static func problem(_ text: String) -> String? {
        if isIPv4(text) || isIPv6(text) || isHostName(text) { return nil }
        return "must be \(allowed), got '\(text)'"
    }

    static func isIPv4(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in
            !part.isEmpty && part.count <= 3 && part.allSatisfy(\.isASCIIDigit) && Int(part).map { $0 <= 255 } == true
        }
    }

    static func isIPv6(_ text: String) -> Bool {
        let body = text.hasPrefix("[") && text.hasSuffix("]") ? String(text.dropFirst().dropLast()) : text
        return body.filter { $0 == ":" }.count >= 2 && body.count <= 45
            && body.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
    }

    /// RFC 1123 labels (and '_', which container names use), 253 characters at most, not all digits.
    static func isHostName(_ text: String) -> Bool {
        let name = text.hasSuffix(".") ? String(text.dropLast()) : text
        guard !name.isEmpty, name.count <= 253 else { return false }
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        let wellFormed = labels.allSatisfy { label in
            !label.isEmpty && label.count <= 63 && label.first != "-" && label.last != "-"
                && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
        }
        return wellFormed && !name.allSatisfy { $0.isASCIIDigit || $0 == "." }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}

extension ConfigKind where Value == String {
    /// An IP address or a host name (`HostName`).
    static var host: ConfigKind<String> {
        let text = ConfigKind.text
        return ConfigKind(
            allowed: HostName.allowed,
            read: { (node, key) throws(ConfigError) in
                let value = try text.read(node, key)
                if let problem = HostName.problem(value) { throw ConfigError(problem, key: key, at: node.origin) }
                return value
            },
            format: text.format)
    }
}
