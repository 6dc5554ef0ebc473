/// Tick positions and labels for chart axes.
enum AxisTicks {
    /// A "nice" value axis: a domain rounded out to whole steps of 1, 2 or 5 × 10^k, and its ticks.
    static func values(min low: Double, max high: Double, targetCount: Int = 6) -> (domain: ClosedRange<Double>, ticks: [Double]) {
        var low = low, high = high
        if !(low.isFinite && high.isFinite) { return (0...1, [0, 0.5, 1]) }
        if low == high {
            let pad = low == 0 ? 1 : abs(low) * 0.1
            low -= pad
            high += pad
        }
        let raw = (high - low) / Double(max(1, targetCount - 1))
        let exponent = floorLog10(raw)
        let residual = raw / pow10(exponent)
        let mantissa = residual < 1.5 ? 1 : residual < 3 ? 2 : residual < 7 ? 5 : 10
        // Ticks are k·mantissa·10^exponent, computed so that e.g. -7 × 0.1 prints as -0.7 exactly.
        func tick(_ k: Int) -> Double {
            exponent >= 0 ? Double(k * mantissa) * pow10(exponent) : Double(k * mantissa) / pow10(-exponent)
        }
        let step = tick(1)
        // Guard the Int conversions below against absurd ranges (no trap on any input).
        guard (high - low).isFinite, step > 0, abs(low / step) < 1e12, abs(high / step) < 1e12 else {
            return (low...max(low, high), [low, high])
        }
        let first = Int((low / step).rounded(.down))
        let last = Int((high / step).rounded(.up))
        let ticks = (first...max(first, last)).prefix(50).map(tick)
        let start = tick(first), end = tick(max(first, last))
        return (start...end, ticks)
    }

    /// Calendar ticks between two times: years, months, days or hours, at most about `maxCount`.
    static func times(from start: Int64, to end: Int64, maxCount: Int = 9) -> [(time: Int64, label: String)] {
        // Years 0001...9999 only: beyond that calendar arithmetic could overflow, so no ticks.
        let supported: ClosedRange<Int64> = -62_135_596_800...253_402_300_799
        guard supported.contains(start), supported.contains(end), start <= end else { return [] }
        let span = Double(end - start)
        let day = 86_400.0
        if span >= 2 * 365 * day {
            let years = span / (365.25 * day)
            let step = niceInteger(years / Double(maxCount), choices: [1, 2, 5, 10, 20, 50, 100])
            return calendarTicks(start, end, monthStep: 12 * step) { String($0.year) }
        }
        if span >= 60 * day {
            let months = span / (30.44 * day)
            let step = niceInteger(months / Double(maxCount), choices: [1, 2, 3, 6, 12])
            return calendarTicks(start, end, monthStep: step) { $0.dateString.prefix(7).description }
        }
        let hour: Int64 = 3600
        let hourSteps: [Int] = [1, 2, 3, 6, 12, 24, 48, 72, 168, 336]
        let step = Int64(niceInteger(span / Double(hour) / Double(maxCount), choices: hourSteps)) * hour
        var ticks: [(time: Int64, label: String)] = []
        var time = (start / step) * step
        if time < start { time += step }
        while time <= end, ticks.count < 60 {
            let civil = CivilTime(unixSeconds: time)
            let hours = civil.secondOfDay / 3600, minutes = civil.secondOfDay / 60 % 60
            let clock = (hours < 10 ? "0" : "") + "\(hours):" + (minutes < 10 ? "0" : "") + "\(minutes)"
            let label = step >= 86_400 ? civil.dateString : String(civil.dateString.suffix(5)) + " " + clock
            ticks.append((time, label))
            time += step
        }
        return ticks
    }

    /// Ticks for a trading-time axis (one slot per point): at the first point of a day, every k-th day so that
    /// about `maxCount` remain; within a run of one or two days, at the first point of every few hours. Labels never
    /// repeat.
    static func ordinal(count: Int, time: (Int) -> Int64, maxCount: Int = 9) -> [(index: Int, label: String)] {
        guard count > 0 else { return [] }
        var dayStarts: [Int] = [0]
        // Each time read once: on a million-point chart `time` is a closure over the run's equity curve.
        var previousDay = time(0) / 86_400
        for index in 1..<max(count, 1) {
            let day = time(index) / 86_400
            if day != previousDay { dayStarts.append(index) }
            previousDay = day
        }
        if dayStarts.count >= 3 {
            let step = max(1, (dayStarts.count + maxCount - 1) / maxCount)
            var ticks: [(index: Int, label: String)] = []
            let supported: ClosedRange<Int64> = -62_135_596_800...253_402_300_799
        for (k, index) in dayStarts.enumerated() where k % step == 0 && supported.contains(time(index)) {
                let label = CivilTime(unixSeconds: time(index)).dateString
                if ticks.last?.label != label { ticks.append((index, label)) }
            }
            return ticks
        }
        let hours = (Double(time(count - 1)) - Double(time(0))) / 3600
        let step = Int64(niceInteger(hours / Double(maxCount), choices: [1, 2, 3, 4, 6, 12, 24])) * 3600
        var ticks: [(index: Int, label: String)] = []
        var lastSlot = Int64.min
        let supported: ClosedRange<Int64> = -62_135_596_800...253_402_300_799
        for index in 0..<count where supported.contains(time(index)) {
            let slot = time(index) / step
            guard slot != lastSlot else { continue }
            lastSlot = slot
            let civil = CivilTime(unixSeconds: time(index))
            let hour = civil.secondOfDay / 3600, minute = civil.secondOfDay / 60 % 60
            let clock = (hour < 10 ? "0" : "") + "\(hour):" + (minute < 10 ? "0" : "") + "\(minute)"
            let label = String(civil.dateString.suffix(5)) + " " + clock
            if ticks.last?.label != label { ticks.append((index, label)) }
        }
        return ticks
    }

    private static func calendarTicks(
        _ start: Int64, _ end: Int64, monthStep: Int, label: (CivilTime) -> String
    ) -> [(time: Int64, label: String)] {
        let first = CivilTime(unixSeconds: start)
        var monthIndex = first.year * 12 + (first.month - 1)
        // Start at the first whole month (or year) at or after `start`, aligned to the step.
        if first.day != 1 || first.secondOfDay != 0 { monthIndex += 1 }
        let remainder = ((monthIndex % monthStep) + monthStep) % monthStep
        if remainder != 0 { monthIndex += monthStep - remainder }
        var ticks: [(time: Int64, label: String)] = []
        while ticks.count < 60 {
            let civil = CivilTime(year: monthIndex / 12, month: monthIndex % 12 + 1, day: 1)
            let time = civil.unixSeconds
            if time > end { break }
            ticks.append((time, label(civil)))
            monthIndex += monthStep
        }
        return ticks
    }

    private static func niceInteger(_ raw: Double, choices: [Int]) -> Int {
        choices.first { Double($0) >= raw } ?? choices[choices.count - 1]
    }

    private static func floorLog10(_ x: Double) -> Int {
        guard x > 0, x.isFinite else { return 0 }
        var exponent = 0
        var value = x
        while value >= 10 { value /= 10; exponent += 1 }
        while value < 1 { value *= 10; exponent -= 1 }
        return exponent
    }

    private static func pow10(_ exponent: Int) -> Double {
        var result = 1.0
        if exponent >= 0 { for _ in 0..<exponent { result *= 10 } } else { for _ in 0..<(-exponent) { result /= 10 } }
        return result
    }
}
