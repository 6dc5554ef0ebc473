/// JSON and other `Codable` formats carry fixed-point values as exact decimal strings (`"100000.50"`).
/// Decoding also accepts a JSON integer (whole units) and, for hand-written configs, a JSON number with a
/// fraction, which is rounded to 1e-8.
enum FixedPointCoding {
    static func decode(from decoder: any Decoder) throws -> Int64 {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            guard let units = FixedPoint.parse(text) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "not a decimal with at most 8 decimals: \(text)")
            }
            return units
        }
        if let whole = try? container.decode(Int64.self) {
            let (units, overflow) = whole.multipliedReportingOverflow(by: FixedPoint.scale)
            guard !overflow else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "out of range: \(whole)")
            }
            return units
        }
        let value = try container.decode(Double.self)
        guard value.isFinite, abs(value) < 9e10 else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "out of range: \(value)")
        }
        return Int64((value * Double(FixedPoint.scale)).rounded())
    }

    static func encode(_ units: Int64, to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(FixedPoint.format(units))
    }
}

extension Price {
    /// Decodes `"12.34"`, `12` or `12.34`.
    public init(from decoder: any Decoder) throws { self.init(units: try FixedPointCoding.decode(from: decoder)) }
    /// Encodes as an exact decimal string.
    public func encode(to encoder: any Encoder) throws { try FixedPointCoding.encode(units, to: encoder) }
}

extension Quantity {
    /// Decodes `"100"`, `100` or `0.5`.
    public init(from decoder: any Decoder) throws { self.init(units: try FixedPointCoding.decode(from: decoder)) }
    /// Encodes as an exact decimal string.
    public func encode(to encoder: any Encoder) throws { try FixedPointCoding.encode(units, to: encoder) }
}

extension Money {
    /// Decodes `"100000.50"`, `100000` or `100000.5`.
    public init(from decoder: any Decoder) throws { self.init(units: try FixedPointCoding.decode(from: decoder)) }
    /// Encodes as an exact decimal string.
    public func encode(to encoder: any Encoder) throws { try FixedPointCoding.encode(units, to: encoder) }
}
