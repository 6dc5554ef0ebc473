import Foundation

/// How numbers are shown in the HTML report and on chart axes.
enum ValueFormat: Sendable {
    /// `12.34%` with the given number of decimals.
    case percent(decimals: Int)
    /// `1,234,567.89` with the given number of decimals.
    case number(decimals: Int)
    /// Axis money labels: `950`, `12.5k`, `1.2M`.
    case compact

    /// The formatted text, or `–` when the value is `nil` or not finite.
    func string(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "–" }
        switch self {
        case .percent(let decimals): return Self.grouped(value * 100, decimals: decimals) + "%"
        case .number(let decimals): return Self.grouped(value, decimals: decimals)
        case .compact:
            let magnitude = abs(value)
            if magnitude >= 1e9 { return Self.trimmed(value / 1e9) + "B" }
            if magnitude >= 1e6 { return Self.trimmed(value / 1e6) + "M" }
            if magnitude >= 1e4 { return Self.trimmed(value / 1e3) + "k" }
            return Self.trimmed(value)
        }
    }

    /// This format with as many more decimals as it takes for every value to print differently (axis ticks that
    /// never repeat: a −1.6 % range at 0 decimals would read "0%, 0%, −1%, −2%, −2%").
    func distinct(for values: [Double]) -> ValueFormat {
        func isDistinct(_ format: ValueFormat) -> Bool { Set(values.map(format.string)).count == values.count }
        if isDistinct(self) { return self }
        for extra in 1...8 {
            let candidate: ValueFormat
            switch self {
            case .percent(let decimals): candidate = .percent(decimals: decimals + extra)
            case .number(let decimals): candidate = .number(decimals: decimals + extra)
            case .compact: candidate = .number(decimals: extra - 1)
            }
            if isDistinct(candidate) { return candidate }
        }
        return self
    }

    /// Fixed decimals with `,` thousands separators, and no `-0.00`.
    static func grouped(_ value: Double, decimals: Int) -> String {
        var text = String(format: "%.\(max(0, min(decimals, 10)))f", value)
        if text.hasPrefix("-"), text.dropFirst().allSatisfy({ $0 == "0" || $0 == "." }) { text.removeFirst() }
        let negative = text.hasPrefix("-")
        if negative { text.removeFirst() }
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        var integer = String(parts[0])
        var grouped = ""
        while integer.count > 3 {
            grouped = "," + integer.suffix(3) + grouped
            integer = String(integer.dropLast(3))
        }
        grouped = integer + grouped
        let fraction = parts.count > 1 ? "." + parts[1] : ""
        return (negative ? "-" : "") + grouped + fraction
    }

    /// Up to 2 decimals without trailing zeros: `12.5`, `3`, `0.25`.
    static func trimmed(_ value: Double) -> String {
        var text = String(format: "%.2f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }

    /// A coordinate with one decimal, for SVG attributes.
    /// Integer arithmetic instead of `String(format:)`, which dominated the rendering of long curves.
    static func coordinate(_ value: Double) -> String {
        guard value.isFinite, abs(value) < 1e15 else { return "0.0" }
        let tenths = Int((value * 10).rounded())
        let magnitude = tenths.magnitude
        let body = "\(magnitude / 10).\(magnitude % 10)"
        return tenths < 0 ? "-" + body : body
    }
}

/// Escaping for text placed in HTML or SVG.
public enum HTMLText {
    /// Replaces `& < > " '` with entities, so any text is safe in element content and attributes.
    public static func escape(_ text: String) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "'": output += "&#39;"
            default: output.append(character)
            }
        }
        return output
    }
}
