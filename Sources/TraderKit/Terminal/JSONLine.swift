import Analytics

/// One compact JSON object per line (JSON lines), keys in the given order, for `--json` listings.
public enum JSONLine {
    /// Renders scalar members compactly: `{"a":1,"b":"x","c":null}`.
    public static func render(_ members: KeyValuePairs<String, JSONValue>) -> String {
        render(members.map { (key: $0.key, value: $0.value) })
    }

    /// Renders members built at run time (a record with the fields of what it lists appended), in order.
    public static func render(_ members: [(key: String, value: JSONValue)]) -> String {
        var output = "{"
        for (index, member) in members.enumerated() {
            let (key, value) = (member.key, member.value)
            if index > 0 { output += "," }
            output += quoted(key) + ":"
            switch value {
            case .null: output += "null"
            case .bool(let b): output += b ? "true" : "false"
            case .integer(let i): output += String(i)
            case .number(let d): output += d.isFinite ? String(d) : "null"
            case .string(let s): output += quoted(s)
            case .array, .object:
                output += value.serialized().split(whereSeparator: \.isNewline)
                    .map { $0.drop { $0 == " " } }.joined()
            }
        }
        return output + "}"
    }

    public static func quoted(_ text: String) -> String {
        var output = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        return output + "\""
    }
}
