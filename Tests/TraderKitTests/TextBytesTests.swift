import Analytics
import Simulation
import Testing
import TraderKit
import TradingModel

/// `TextBytes` spells every value exactly as the `String` it replaced in the CSV writers: `FixedPoint.format`,
/// `Money.centsDescription`, `Double.description`, `CivilTime`'s date strings and integer interpolation.
struct TextBytesTests {
    static let units: [Int64] = [
        0, 1, -1, 5, -5, 99, 100, 1_000_000, 4_999_999, 5_000_000, 5_000_001, -4_999_999, -5_000_000, -5_000_001,
        10_000_000, 99_999_999, 100_000_000, -100_000_000, 123_456_789, 1_050_000_000, -1_050_000_000,
        12_345_000_000, 9_696_650_000_000, -9_696_650_000_000, 100_000_000_000_000, 999_999_995_000_000,
        Int64.max / 2, Int64.min / 2, Int64.max - 1_000_000, Int64.min + 1_000_000,
    ]

    static func randomUnits(count: Int, seed: UInt64) -> [Int64] {
        var generator = SplitMix64(seed: seed)
        return (0..<count).map { index in
            // Every magnitude from a few units to 1e16 (10^8 dollars), both signs.
            let digits = Int64(index % 17)
            var power: Int64 = 1
            for _ in 0..<digits { power *= 10 }
            let value = Int64.random(in: 0...power, using: &generator)
            return index % 2 == 0 ? value : -value
        }
    }

    @Test(arguments: [0, 2, 4, 8])
    func fixedPointMatchesFixedPointFormat(minimumDecimals: Int) {
        for units in Self.units + Self.randomUnits(count: 20_000, seed: 1) {
            var text = TextBytes()
            text.append(units: units, minimumDecimals: minimumDecimals)
            #expect(text.string == FixedPoint.format(units, minimumDecimals: minimumDecimals), "units \(units)")
        }
    }

    @Test func centsMatchCentsDescriptionIncludingRoundingEdges() {
        // Half a cent is 500,000 units: below it rounds towards zero, from it away from zero.
        var edges: [Int64] = []
        for cent: Int64 in -3...3 {
            for delta: Int64 in -1...1 {
                edges.append(cent * 1_000_000 + 500_000 + delta)
                edges.append(cent * 1_000_000 - 500_000 + delta)
            }
        }
        for units in Self.units + edges + Self.randomUnits(count: 20_000, seed: 2) {
            var text = TextBytes()
            text.append(cents: Money(units: units))
            #expect(text.string == Money(units: units).centsDescription, "units \(units)")
        }
    }

    @Test func integersMatchInterpolation() {
        for value in Self.units + [Int64.max, Int64.min] + Self.randomUnits(count: 5_000, seed: 3) {
            var text = TextBytes()
            text.append(integer: value)
            #expect(text.string == "\(value)")
        }
    }

    @Test func shortestMatchesDescriptionOnEdges() {
        var values: [Double] = [
            0, -0.0, 0.0001, 0.0001.nextUp, 0.0001.nextDown, 0.001, 0.001.nextDown, 0.01.nextDown, 0.1, 0.1.nextDown,
            0.2, 0.3, 0.5, 0.25, 1.0.nextDown, 1, 1.5, 2.5, 123.456, 1e-5, 3e-7, .leastNonzeroMagnitude, -0.25, -1e-4, .nan,
            .infinity, -.infinity, .greatestFiniteMagnitude, 0.081_712_345_678_901_23,
        ]
        for exponent in 1...16 {
            let power = 1 / Double(1 << exponent)
            values += [power, power.nextUp, power.nextDown]
        }
        // Exact halves between two 16-digit candidates (k / 2^18 near 1/16), where a tie-break decides.
        values += (16_384..<16_484).map { Double($0) / 262_144 }
        for value in values { expectShortest(value) }
    }

    @Test func shortestMatchesDescriptionOnDrawdownsAndRandomDoubles() {
        var generator = SplitMix64(seed: 4)
        for _ in 0..<100_000 {
            // Drawdowns as the equity curve computes them: (peak - equity) / peak over fixed-point units.
            let peak = Int64.random(in: 1_000_000_000...100_000_000_000_000, using: &generator)
            let equity = Int64.random(in: 0...peak, using: &generator)
            expectShortest(Double(peak - equity) / Double(peak))
            expectShortest(Double(bitPattern: UInt64.random(in: 0.0001.bitPattern..<1.0.bitPattern, using: &generator)))
        }
    }

    @Test func timesMatchCivilTime() {
        var seconds: [Int64] = [0, -1, 86_399, 86_400, -86_400, -86_401, 1_577_975_400, 1_577_975_459, 1_578_009_540]
        // Year 9999's last second and the first of 10000, where CivilTime's own spelling takes over; year 0 and -1.
        seconds += [253_402_300_799, 253_402_300_800, -62_167_219_200, -62_167_219_201, Int64.max / 1_000_000_000]
        var generator = SplitMix64(seed: 5)
        // Consecutive minutes, the intraday case the day cache serves, then random times.
        seconds += (0..<3_000).map { 1_577_975_400 + Int64($0) * 60 }
        seconds += (0..<3_000).map { _ in Int64.random(in: -5_000_000_000...300_000_000_000, using: &generator) }
        for withTime in [false, true] {
            var text = TextBytes()
            var expected = ""
            for second in seconds {
                text.append(unixSeconds: second, withTime: withTime)
                text.append(ascii: "\n")
                let civil = CivilTime(unixSeconds: second)
                expected += (withTime ? civil.dateTimeString : civil.dateString) + "\n"
            }
            #expect(text.string == expected)
        }
    }

    @Test func growsPastItsCapacityAndForgets() {
        var text = TextBytes(capacity: 8)
        var expected = ""
        for index in 0..<1_000 {
            text.append("row \(index),")
            text.append(cents: Money(units: Int64(index) * 1_234_567))
            expected += "row \(index)," + Money(units: Int64(index) * 1_234_567).centsDescription
        }
        #expect(text.string == expected)
        text.removeAll()
        #expect(text.count == 0)
        text.append("é,\"")
        #expect(text.string == "é,\"")
    }

    private func expectShortest(_ value: Double, sourceLocation: SourceLocation = #_sourceLocation) {
        var text = TextBytes()
        text.append(shortest: value)
        #expect(text.string == value.description, "bits \(value.bitPattern)", sourceLocation: sourceLocation)
    }
}
