import Testing
@testable import Analytics

@Suite struct SVGDecimationTests {
    @Test func longRunsKeepEveryColumnsExtremes() {
        // 200,000 points over 1,000 pixel columns with a spike in the middle.
        let run = (0..<200_000).map { i -> (Double, Double) in
            (Double(i) / 200.0, i == 100_123 ? 500 : Double(i % 7))
        }
        let kept = SVGChart.decimated(run)
        #expect(kept.count <= 4 * 1000)
        #expect(kept.first! == run.first!)
        #expect(kept.last! == run.last!)
        #expect(kept.contains { $0.1 == 500 })
        #expect(zip(kept, kept.dropFirst()).allSatisfy { $0.0 <= $1.0 })
    }

    @Test func shortRunsAreUntouched() {
        let run = (0..<100).map { (Double($0), Double($0 * $0)) }
        #expect(SVGChart.decimated(run).map(\.1) == run.map(\.1))
    }

    @Test func coordinatesHaveOneDecimal() {
        #expect(ValueFormat.coordinate(12.34) == "12.3")
        #expect(ValueFormat.coordinate(-0.06) == "-0.1")
        #expect(ValueFormat.coordinate(7) == "7.0")
        #expect(ValueFormat.coordinate(.nan) == "0.0")
    }
}

@Suite struct CivilTimeFormattingTests {
    @Test func dateTimeAlwaysCarriesTheTime() {
        let midnight = CivilTime(year: 2011, month: 3, day: 1)
        #expect(midnight.dateString == "2011-03-01")
        #expect(midnight.dateTimeString == "2011-03-01T00:00:00Z")
        #expect(midnight.isoString == "2011-03-01")
        let afternoon = CivilTime(year: 2011, month: 3, day: 1, secondOfDay: 14 * 3600 + 30 * 60 + 5)
        #expect(afternoon.isoString == "2011-03-01T14:30:05Z")
        #expect(CivilTime(year: 12345, month: 1, day: 2).dateString == "12345-01-02")
    }
}
