/// Text helpers for server → client strings (PROTOCOL.md §2.4).
public enum TWSText {
    /// Undoes TWS's `\uXXXX` escaping of non-ASCII characters (error texts, long names, reject JSON), as the
    /// official decoder does. Decoders keep fields verbatim so that re-encoding is exact; call this for display.
    ///
    /// Malformed escapes are kept as they are; surrogate pairs (`\uD83D\uDE00`) are combined.
    /// - Parameter text: a field as received.
    /// - Returns: the text with escapes replaced.
    public static func unescapingUnicode(_ text: String) -> String {
        guard text.contains("\\u") else { return text }
        var units: [UInt16] = []
        let scalars = Array(text.utf16)
        var index = 0
        while index < scalars.count {
            if scalars[index] == 0x5C, index + 1 < scalars.count,
               scalars[index + 1] == 0x75, let value = hexValue(scalars, from: index + 2) {
                units.append(value)
                index += 6
            } else {
                units.append(scalars[index])
                index += 1
            }
        }
        return String(decoding: units, as: UTF16.self)
    }

    /// A field as it may go into a log line: control characters spelled `\u{..}` (a hostile frame must not write
    /// terminal escapes into the log), and at most `limit` characters.
    /// - Parameters:
    ///   - text: the field as received.
    ///   - limit: the most characters kept; `…` marks a cut.
    public static func loggable(_ text: String, limit: Int = 200) -> String {
        var out = ""
        var count = 0
        for scalar in text.unicodeScalars {
            if count == limit {
                out += "…"
                break
            }
            let category = scalar.properties.generalCategory
            if category == .control || category == .format || scalar.value == 0xFFFD {
                out += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
            count += 1
        }
        return out
    }

    private static func hexValue(_ units: [UInt16], from start: Int) -> UInt16? {
        guard start + 4 <= units.count else { return nil }
        var value: UInt16 = 0
        for unit in units[start..<(start + 4)] {
            let digit: UInt16
            switch unit {
            case 0x30...0x39: digit = unit - 0x30
            case 0x41...0x46: digit = unit - 0x37
            case 0x61...0x66: digit = unit - 0x57
            default: return nil
            }
            value = value << 4 | digit
        }
        return value
    }
}
