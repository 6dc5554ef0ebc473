extension IndicatorSpec {
    /// Parses a comma-separated list such as `sma:10,ema:12,bbands:20:2,macd:12:26:9,stoch:14:3:3,obv`.
    ///
    /// Names (case-insensitive) and parameters, with defaults used when the parameters are omitted:
    /// `sma|ema|wma|max|min:N` (N required), `rsi[:14]`, `atr[:14]`, `bbands[:20[:2]]`,
    /// `macd[:12:26:9]`, `stoch[:14:3:3]`, `roc[:10]`, `mom[:10]`, `stddev[:20]`, `willr[:14]`,
    /// `cci[:20]`, `mfi[:14]`, `trange`, `obv`. `max` runs over highs and `min` over lows (a Donchian
    /// channel); the rest use the close or the whole bar. Spaces around items are ignored.
    /// - Parameter text: the option value.
    /// - Returns: the specs, in the order given.
    /// - Throws: ``IndicatorSpecError`` naming the first bad item.
    public static func parse(_ text: String) throws(IndicatorSpecError) -> [IndicatorSpec] {
        var specs: [IndicatorSpec] = []
        for (position, raw) in text.split(separator: ",", omittingEmptySubsequences: false).enumerated() {
            let token = raw.trimmingSpaces()
            guard !token.isEmpty else { throw .emptyToken(position: position + 1) }
            specs.append(try parseOne(token))
        }
        return specs
    }

    /// Parses a single item such as `macd:12:26:9`.
    /// - Throws: ``IndicatorSpecError`` naming `token`.
    public static func parseOne(_ token: String) throws(IndicatorSpecError) -> IndicatorSpec {
        let parts = token.split(separator: ":", omittingEmptySubsequences: false).map { String($0) }
        let name = parts[0].lowercased()
        let arguments = Array(parts.dropFirst())
        let reader = ArgumentReader(token: token, arguments: arguments)
        let kind: Kind
        switch name {
        case "sma": kind = .sma(period: try reader.single(default: nil))
        case "ema": kind = .ema(period: try reader.single(default: nil))
        case "wma": kind = .wma(period: try reader.single(default: nil))
        case "max": kind = .rollingMax(period: try reader.single(default: nil))
        case "min": kind = .rollingMin(period: try reader.single(default: nil))
        case "rsi": kind = .rsi(period: try reader.single(default: 14))
        case "atr": kind = .atr(period: try reader.single(default: 14))
        case "roc": kind = .roc(period: try reader.single(default: 10))
        case "mom": kind = .momentum(period: try reader.single(default: 10))
        case "stddev": kind = .standardDeviation(period: try reader.single(default: 20))
        case "willr": kind = .williamsR(period: try reader.single(default: 14))
        case "cci": kind = .cci(period: try reader.single(default: 20))
        case "mfi": kind = .mfi(period: try reader.single(default: 14))
        case "trange", "obv":
            guard arguments.isEmpty else { throw .wrongParameterCount(token: token, expected: "no parameters") }
            kind = name == "obv" ? .obv : .trueRange
        case "bbands":
            guard arguments.count <= 2 else {
                throw .wrongParameterCount(token: token, expected: "bbands[:period[:deviations]]")
            }
            let period = arguments.isEmpty ? 20 : try reader.period(at: 0)
            let deviations = arguments.count < 2 ? 2.0 : try reader.positiveNumber(at: 1)
            kind = .bollinger(period: period, deviations: deviations)
        case "macd":
            let p = try reader.triple(default: (12, 26, 9), shape: "macd[:fast:slow:signal]")
            kind = .macd(fast: p.0, slow: p.1, signal: p.2)
        case "stoch":
            let p = try reader.triple(default: (14, 3, 3), shape: "stoch[:fastk:slowk:slowd]")
            kind = .stochastic(fastK: p.0, slowK: p.1, slowD: p.2)
        default:
            throw .unknownIndicator(token: token)
        }
        return IndicatorSpec(kind: kind)
    }
}

/// Reads and validates the `:`-separated parameters of one token.
private struct ArgumentReader {
    let token: String
    let arguments: [String]

    func single(default fallback: Int?) throws(IndicatorSpecError) -> Int {
        if arguments.isEmpty, let fallback { return fallback }
        guard arguments.count == 1 else {
            throw .wrongParameterCount(token: token, expected: fallback == nil ? "one period" : "at most one period")
        }
        return try period(at: 0)
    }

    func triple(default fallback: (Int, Int, Int), shape: String) throws(IndicatorSpecError) -> (Int, Int, Int) {
        if arguments.isEmpty { return fallback }
        guard arguments.count == 3 else { throw .wrongParameterCount(token: token, expected: shape) }
        return (try period(at: 0), try period(at: 1), try period(at: 2))
    }

    func period(at index: Int) throws(IndicatorSpecError) -> Int {
        let text = arguments[index]
        guard let value = Int(text), value >= 1, value <= 1_000_000 else {
            throw .invalidParameter(token: token, parameter: text)
        }
        return value
    }

    func positiveNumber(at index: Int) throws(IndicatorSpecError) -> Double {
        let text = arguments[index]
        guard let value = Double(text), value.isFinite, value > 0 else {
            throw .invalidParameter(token: token, parameter: text)
        }
        return value
    }
}

extension Substring {
    /// The substring without leading and trailing spaces and tabs.
    fileprivate func trimmingSpaces() -> String {
        var slice = self[...]
        while let first = slice.first, first == " " || first == "\t" { slice = slice.dropFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice = slice.dropLast() }
        return String(slice)
    }
}
