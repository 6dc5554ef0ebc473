extension HistoricalSourceError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .pacingViolation(let text): "IB's pacing limit (162): \(text)"
        case .noData: "no data for this range (a weekend or holiday)"
        case .failed(let text): text
        }
    }
}
