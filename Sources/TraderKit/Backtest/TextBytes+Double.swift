extension TextBytes {
    /// Appends `value` exactly as `value.description` spells it (the shortest decimal that reads back as the same
    /// `Double`, the closest one among equals).
    ///
    /// Zero and values in [0.0001, 1), every drawdown of `equity.csv`, are written here without a `String`; all
    /// others, and the rare value exactly halfway between two shortest candidates, go through `description`.
    public mutating func append(shortest value: Double) {
        if value == 0, value.sign == .plus {
            write(room: 3) { pointer in
                pointer[0] = UInt8(ascii: "0")
                pointer[1] = UInt8(ascii: ".")
                pointer[2] = UInt8(ascii: "0")
                return 3
            }
            return
        }
        if value.bitPattern == cachedShortest.bits {
            let cached = cachedShortest
            write(room: 24) { pointer in
                withUnsafeBytes(of: cached.text) { raw in
                    guard let base = raw.baseAddress else { return }
                    pointer.update(from: base.assumingMemoryBound(to: UInt8.self), count: cached.count)
                }
                return cached.count
            }
            return
        }
        // Below 0.0001 `description` switches to exponent notation (`9.999999999999999e-05`).
        guard value >= 0.0001, value < 1, let (digits, decimals) = Self.shortestFraction(value) else {
            append(value.description)
            return
        }
        // "0." and at most 20 decimals (17 digits after up to 3 zeros) fit the 24-byte cache.
        var text = (UInt64(0), UInt64(0), UInt64(0))
        let count = withUnsafeMutableBytes(of: &text) { raw -> Int in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return 0 }
            base[0] = UInt8(ascii: "0")
            base[1] = UInt8(ascii: ".")
            return 2 + Self.putDigits(digits, minimumCount: decimals, at: base + 2)
        }
        cachedShortest = (value.bitPattern, count, text)
        write(room: 24) { pointer in
            withUnsafeBytes(of: text) { raw in
                guard let base = raw.baseAddress else { return }
                pointer.update(from: base.assumingMemoryBound(to: UInt8.self), count: count)
            }
            return count
        }
    }

    /// The shortest decimal `digits / 10^decimals` inside `value`'s rounding interval, the closest to `value` among
    /// those, for `value` in [0.0001, 1); `nil` when the choice would need a tie-break (left to `description`).
    ///
    /// With `value = m · 2^-e` (53-bit `m`, `e` in 53...66 here), the interval's ends and `value` are integers
    /// over `2^(e+2)`. Scaling one by `10^k = 5^k · 2^k` is one 64 × 64-bit multiplication by `5^k` (< 2^49) and
    /// `k` fewer places to shift off, so each "is there an integer in the interval at `k` places" is exact.
    static func shortestFraction(_ value: Double) -> (digits: UInt64, decimals: Int)? {
        let bits = value.bitPattern
        let significandBits = bits & (1 << 52 - 1)
        let shift = 1075 + 2 - Int(bits >> 52 & 0x7FF)
        let center = (significandBits | 1 << 52) << 2
        // At a power of two the next lower double is half as far away, so the interval is lopsided.
        let lower = center - (significandBits == 0 ? 1 : 2)
        let upper = center + 2

        // 17 significant digits always identify a double; the first one is at 10^-1 ... 10^-4.
        var decimals = (value >= 0.1 ? 1 : value >= 0.01 ? 2 : value >= 0.001 ? 3 : 4) + 16
        var low: UInt128 = 0
        var high: UInt128 = 0
        // A candidate at k places is one at k + 1 places too, so fewer places are tried down to the shortest.
        var places = decimals
        while places >= 1 {
            let five = fivePowers[places]
            let bitsOff = shift - places
            let scaledLower = UInt128(lower) &* UInt128(five)
            let scaledUpper = UInt128(upper) &* UInt128(five)
            let mask = UInt128(1) << bitsOff &- 1
            // The ends have at least 54 binary places, so neither is ever a candidate; if one were, choosing
            // would need IEEE's even rule.
            if scaledLower & mask == 0 || scaledUpper & mask == 0 { return nil }
            // Candidates are the integers strictly inside the interval.
            let candidateLow = scaledLower >> bitsOff &+ 1
            let candidateHigh = scaledUpper >> bitsOff
            if candidateLow > candidateHigh { break }
            (low, high, decimals) = (candidateLow, candidateHigh, places)
            places -= 1
        }
        guard high > 0 else { return nil }
        let bitsOff = shift - decimals
        let scaled = UInt128(center) &* UInt128(fivePowers[decimals])
        let remainder = scaled & (UInt128(1) << bitsOff &- 1)
        let half = UInt128(1) << (bitsOff - 1)
        guard remainder != half else { return nil }
        let nearest = scaled >> bitsOff &+ (remainder > half ? 1 : 0)
        return UInt64(exactly: min(max(nearest, low), high)).map { ($0, decimals) }
    }

    /// 5^0 ... 5^20.
    private static let fivePowers: [UInt64] = (0...20).map { k in (0..<k).reduce(1) { product, _ in product * 5 } }
}
