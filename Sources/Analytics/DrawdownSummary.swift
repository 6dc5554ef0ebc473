/// The deepest peak-to-trough fall of an equity curve and when it happened.
///
/// The trough is the point with the lowest `equity / running maximum - 1` (the first one on ties);
/// the peak is the first point holding the running maximum before it; the recovery is the first
/// point at or after the trough whose equity is at least the peak equity (`nil` if it never
/// recovers). The first point counts as a peak. This is the golden README's convention.
public struct DrawdownSummary: Sendable, Equatable {
    /// The drawdown at the trough, ≤ 0 (e.g. -0.65 for a 65% fall).
    public var maxDrawdown: Double
    /// Index of the peak point.
    public var peakIndex: Int
    /// Index of the trough point.
    public var troughIndex: Int
    /// Index of the recovery point, if the curve got back to the peak.
    public var recoveryIndex: Int?
    /// Time of the peak (Unix seconds, UTC).
    public var peakTime: Int64
    /// Time of the trough (Unix seconds, UTC).
    public var troughTime: Int64
    /// Time of the recovery (Unix seconds, UTC), if any.
    public var recoveryTime: Int64?
    /// Bars from the peak to the recovery, or to the last point when it never recovered.
    public var durationBars: Int
    /// Whole calendar days from the peak to the recovery, or to the last point when it never recovered.
    public var durationDays: Int

    /// Finds the maximum drawdown; `nil` for an empty curve. A curve that never falls gives a
    /// drawdown of 0 with peak = trough = recovery = the first point.
    public static func compute(_ equity: [EquityPoint]) -> DrawdownSummary? { compute(EquitySeries(equity)) }

    /// Finds the maximum drawdown of a series (see ``compute(_:)-([EquityPoint])``).
    public static func compute(_ equity: EquitySeries) -> DrawdownSummary? {
        guard !equity.isEmpty else { return nil }
        var runningMax = equity.equity(0)
        var runningMaxIndex = 0
        var deepest = 0.0
        var peakIndex = 0
        var troughIndex = 0
        for index in 0..<equity.count {
            let value = equity.equity(index)
            if value > runningMax {
                runningMax = value
                runningMaxIndex = index
            }
            let drawdown = runningMax > 0 ? value / runningMax - 1 : 0
            if drawdown < deepest {
                deepest = drawdown
                troughIndex = index
                peakIndex = runningMaxIndex
            }
        }
        let peakEquity = equity.equity(peakIndex)
        let recoveryIndex = (troughIndex..<equity.count).first { equity.equity($0) >= peakEquity }
        let endIndex = recoveryIndex ?? equity.count - 1
        // Subtracting in Double cannot overflow, whatever times the caller passes.
        let seconds = Double(equity.time(endIndex)) - Double(equity.time(peakIndex))
        let days = (seconds / 86_400).rounded(.towardZero)
        return DrawdownSummary(
            maxDrawdown: deepest, peakIndex: peakIndex, troughIndex: troughIndex, recoveryIndex: recoveryIndex,
            peakTime: equity.time(peakIndex), troughTime: equity.time(troughIndex),
            recoveryTime: recoveryIndex.map { equity.time($0) },
            durationBars: endIndex - peakIndex, durationDays: abs(days) < 1e15 ? Int(days) : 0)
    }

    /// The drawdown series `equity / running maximum - 1`, one value per point (0 at new highs).
    public static func series(_ equity: [EquityPoint]) -> [Double] { series(EquitySeries(equity)) }

    /// The drawdown series of a series of points.
    public static func series(_ equity: EquitySeries) -> [Double] {
        var runningMax = -Double.infinity
        var result: [Double] = []
        result.reserveCapacity(equity.count)
        for index in 0..<equity.count {
            let value = equity.equity(index)
            runningMax = max(runningMax, value)
            result.append(runningMax > 0 ? value / runningMax - 1 : 0)
        }
        return result
    }
}
