import Testing
@testable import Analytics

@Suite struct SVGDecimationTests {
    @Test func longRunsKeepEveryColumnsExtremes() {
        // 200,000 points over 1,000 pixel columns with a spike in the middle.
        let run = (0..<200_000).map { i -> (Double, Double) in
            (Double(i) / 200.0, i == 100_123 ? 500.0 : Double(i % 7))
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

/// The streaming decimator used while a chart reads its points equals `decimated` on the whole run.
@Suite struct RunDecimatorTests {
    @Test(arguments: [1, 4096, 4097, 9_000, 200_000])
    func equalsDecimatingTheWholeRun(count: Int) {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let run = (0..<count).map { i -> (Double, Double) in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (Double(i) * 1000 / Double(count), Double(state >> 40) / 1000)
        }
        var decimator = RunDecimator()
        for point in run { decimator.append(point) }
        let streamed = decimator.finish()
        let whole = SVGChart.decimated(run)
        #expect(streamed.map(\.0) == whole.map(\.0))
        #expect(streamed.map(\.1) == whole.map(\.1))
        #expect(decimator.isEmpty)
    }
}
