/// Pearson correlations of return series.
public enum Correlation {
    /// The Pearson correlation of two equally long series; `nil` with fewer than 3 points or a constant series (one
    /// whose dispersion is rounding residue: `PerformanceMetrics.isResidue(_:mean:)`).
    public static func pearson(_ a: [Double], _ b: [Double]) -> Double? {
        guard a.count == b.count, a.count >= 3 else { return nil }
        let n = Double(a.count)
        let meanA = a.reduce(0, +) / n, meanB = b.reduce(0, +) / n
        var covariance = 0.0, varianceA = 0.0, varianceB = 0.0
        for (x, y) in zip(a, b) {
            covariance += (x - meanA) * (y - meanB)
            varianceA += (x - meanA) * (x - meanA)
            varianceB += (y - meanB) * (y - meanB)
        }
        guard !PerformanceMetrics.isResidue((varianceA / n).squareRoot(), mean: meanA),
            !PerformanceMetrics.isResidue((varianceB / n).squareRoot(), mean: meanB)
        else { return nil }
        let r = covariance / (varianceA * varianceB).squareRoot()
        return r.isFinite ? max(-1, min(1, r)) : nil
    }

    /// The correlation matrix of return columns aligned on one timeline (`nil` where a column has no return at
    /// that step); each pair uses the steps where both have a return.
    public static func matrix(_ columns: [[Double?]]) -> [[Double?]] {
        columns.indices.map { i in
            columns.indices.map { j in
                if i == j { return 1 }
                var a: [Double] = [], b: [Double] = []
                for (x, y) in zip(columns[i], columns[j]) {
                    if let x, let y {
                        a.append(x)
                        b.append(y)
                    }
                }
                return pearson(a, b)
            }
        }
    }
}
