import TradingModel

extension BarLoadingError.Code {
    /// What went wrong, as a sentence for the person who wrote the file (no Swift in it).
    var sentence: String {
        switch self {
        case .unreadable(let reason):
            return "cannot read the file: \(reason)"
        case .badHeader(let text):
            return "the first line must be the header date,open,high,low,close,volume; it is \(Self.shown(text))"
        case .wrongFieldCount(let count):
            return "a row needs 6 fields (date,open,high,low,close,volume); this one has \(count)"
        case .badDate(let text):
            let years = Timestamp.dataFileYears
            return "the date \(Self.shown(text)) is not a real day in the form YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ "
                + "(UTC) between the years \(years.lowerBound) and \(years.upperBound)"
        case .badNumber(let field, let text):
            return "the \(field) \(Self.shown(text)) is not a number"
        case .outOfOrder(let time):
            return "the row's time \(time) is not after the previous row's; rows must be in time order, without repeats"
        case .numberOutOfRange(let field, let text):
            return "the \(field) \(Self.shown(text)) is out of range (at most 92233720368 with up to 8 decimals)"
        case .impossibleBar(let reason):
            return reason
        case .barSizeMismatch(let declared, let found):
            return "the file name says \(declared) but its rows are \(found); the rows decide, so rename the file (or "
                + "check that it holds what you meant)"
        case .unbalancedQuote:
            return "a quoted field is not closed on its line (a quote \" opens a field and another closes it)"
        }
    }

    /// A field as the user typed it, quoted: invisible characters (a byte-order mark, NUL, control characters)
    /// are spelled out, and a long field is cut (a 5 MB field must not be echoed whole).
    static func shown(_ text: String) -> String {
        var out = ""
        var count = 0
        for scalar in text.unicodeScalars {
            if count == 60 {
                out += "…"
                break
            }
            switch scalar.value {
            case 0xFEFF: out += "<byte-order mark>"
            case 0..<0x20, 0x7F: out += "<\(scalar.value == 0 ? "NUL" : "control \(scalar.value)")>"
            default: out.unicodeScalars.append(scalar)
            }
            count += 1
        }
        return "'\(out)'"
    }
}
