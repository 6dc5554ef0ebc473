/// Simple per-period returns and the sample statistics the metrics need.
enum ReturnSeries {
    /// `r_t = x_t / x_{t-1} - 1` for t = 1..<count. The first value has no return.
    static func simpleReturns(_ values: [Double]) -> [Double] {
        guard values.count > 1 else { return [] }
        var returns: [Double] = []
        returns.reserveCapacity(values.count - 1)
        for index in 1..<values.count { returns.append(values[index] / values[index - 1] - 1) }
        return returns
    }

    /// `r_t = e_t / e_{t-1} - 1` of a curve's equity, without copying the equity out first.
    static func simpleReturns(_ equity: EquitySeries) -> [Double] {
        guard equity.count > 1 else { return [] }
        var returns: [Double] = []
        returns.reserveCapacity(equity.count - 1)
        var previous = equity.equity(0)
        for index in 1..<equity.count {
            let value = equity.equity(index)
            returns.append(value / previous - 1)
            previous = value
        }
        return returns
    }

    static func mean(_ xs: [Double]) -> Double? {
        xs.isEmpty ? nil : xs.reduce(0, +) / Double(xs.count)
    }

    /// Sample standard deviation (ddof = 1); `nil` with fewer than two values.
    static func sampleStandardDeviation(_ xs: [Double]) -> Double? {
        guard xs.count > 1, let m = mean(xs) else { return nil }
        let sum = xs.reduce(0.0) { $0 + ($1 - m) * ($1 - m) }
        return (sum / Double(xs.count - 1)).squareRoot()
    }
}

/// `value` if it is finite, else `nil`: metrics never carry NaN or infinity.
@inline(__always)
func finiteOrNil(_ value: Double?) -> Double? {
    guard let value, value.isFinite else { return nil }
    return value
}
