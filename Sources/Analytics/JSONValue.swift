/// A small JSON document model with a deterministic serialiser: object keys sorted, 2-space
/// indentation, and NaN or infinity written as `null`.
public enum JSONValue: Sendable, Equatable {
    /// `null`.
    case null
    /// `true` / `false`.
    case bool(Bool)
    /// A whole number, written without a fraction.
    case integer(Int)
    /// A number, written in the shortest form that round-trips (`null` if not finite).
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object; keys are written in sorted order.
    case object([String: JSONValue])

    /// `.number(value)`, or `.null` for `nil` or a non-finite value.
    public static func optional(_ value: Double?) -> JSONValue {
        guard let value, value.isFinite else { return .null }
        return .number(value)
    }

    /// `.string(value)`, or `.null` for `nil`.
    public static func optional(_ value: String?) -> JSONValue {
        value.map { .string($0) } ?? .null
    }

    /// The serialised text, pretty-printed, with a trailing newline.
    public func serialized() -> String {
        var output = ""
        write(to: &output, indent: 0)
        output += "\n"
        return output
    }

    private func write(to output: inout String, indent: Int) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .integer(let value): output += String(value)
        case .number(let value): output += value.isFinite ? String(value) : "null"
        case .string(let value): Self.writeString(value, to: &output)
        case .array(let values):
            guard !values.isEmpty else { output += "[]"; return }
            output += "[\n"
            for (index, value) in values.enumerated() {
                output += String(repeating: " ", count: indent + 2)
                value.write(to: &output, indent: indent + 2)
                output += index == values.count - 1 ? "\n" : ",\n"
            }
            output += String(repeating: " ", count: indent) + "]"
        case .object(let members):
            guard !members.isEmpty else { output += "{}"; return }
            output += "{\n"
            let keys = members.keys.sorted()
            for (index, key) in keys.enumerated() {
                output += String(repeating: " ", count: indent + 2)
                Self.writeString(key, to: &output)
                output += ": "
                members[key, default: .null].write(to: &output, indent: indent + 2)
                output += index == keys.count - 1 ? "\n" : ",\n"
            }
            output += String(repeating: " ", count: indent) + "}"
        }
    }

    private static func writeString(_ value: String, to output: inout String) {
        output += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}
