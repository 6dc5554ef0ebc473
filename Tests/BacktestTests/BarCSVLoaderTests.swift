import Backtest
import Foundation
import Testing
import TradingModel

@Suite struct BarCSVLoaderTests {
    func parse(_ text: String, policy: BadRowPolicy = .fail) throws(BarLoadingError) -> LoadedBars {
        try BarCSVLoader.parse(Data(text.utf8), file: "t.csv", policy: policy)
    }

    @Test func readsDailyAndIntradayDates() throws {
        let loaded = try parse("""
            date,open,high,low,close,volume
            2020-01-02,1,2,0.5,1.5,100
            2020-01-03T14:30:00Z,1.5,2,1,1.75,200.0\r
            """)
        #expect(loaded.bars.count == 2)
        #expect(loaded.bars[0].timestamp == Timestamp(year: 2020, month: 1, day: 2))
        #expect(loaded.bars[1].timestamp.description == "2020-01-03T14:30:00Z")
        #expect(loaded.bars[1].close == Price("1.75")!)
        #expect(loaded.bars[1].volume == Quantity(200))
    }

    @Test func badRowNamesFileAndLine() {
        #expect(throws: BarLoadingError(file: "t.csv", line: 3, code: .badNumber(field: "high", text: "x"))) {
            try parse("date,open,high,low,close,volume\n2020-01-02,1,2,0.5,1.5,100\n2020-01-03,1,x,1,1,1\n")
        }
        #expect(throws: BarLoadingError(file: "t.csv", line: 2, code: .badDate("2020-13-02"))) {
            try parse("date,open,high,low,close,volume\n2020-13-02,1,2,0.5,1.5,100\n")
        }
        #expect(throws: BarLoadingError(file: "t.csv", line: 2, code: .wrongFieldCount(5))) {
            try parse("date,open,high,low,close,volume\n2020-01-02,1,2,0.5,1.5\n")
        }
        #expect(throws: BarLoadingError(file: "t.csv", line: 1, code: .badHeader("time,o,h,l,c,v"))) {
            try parse("time,o,h,l,c,v\n")
        }
        #expect(throws: BarLoadingError.self) { try BarCSVLoader.load(path: "/nonexistent/file.csv") }
    }

    @Test func skipPolicyCountsBadRowsAndOutOfOrderRows() throws {
        let loaded = try parse("""
            date,open,high,low,close,volume
            2020-01-02,1,2,0.5,1.5,100
            2020-01-03,1,2,0.5,oops,100
            2020-01-01,1,2,0.5,1.5,100
            2020-01-06,3,2,0.5,1.5,100
            """, policy: .skip)
        #expect(loaded.bars.count == 1)
        #expect(loaded.skippedRows == 3)
        #expect(loaded.skippedLines == [3, 4, 5])  // line 5: open 3 above high 2
    }

    /// A bar whose open or close lies outside its own low–high is a bad row: fills inside the bar would be at prices
    /// that never traded. Under fail it names the file, line and what is wrong; under skip it is counted.
    @Test func aBarOutsideItsOwnRangeIsABadRow() throws {
        let header = "date,open,high,low,close,volume\n2020-01-02,100,101,99,100.5,1000\n"
        let cases: [(row: String, says: String)] = [
            ("2020-01-03,100,101,99,150,1000", "the close 150 is above the high 101"),
            ("2020-01-03,98.5,101,99,100,1000", "the open 98.5 is below the low 99"),
            ("2020-01-03,102,101,99,100,1000", "the open 102 is above the high 101"),
            ("2020-01-03,100,101,99,98,1000", "the close 98 is below the low 99"),
        ]
        for (row, says) in cases {
            #expect(throws: BarLoadingError(file: "t.csv", line: 3, code: .impossibleBar(says))) {
                try parse(header + row + "\n")
            }
            let error = #expect(throws: BarLoadingError.self) { try parse(header + row + "\n") }
            #expect(error?.description == "t.csv:3: \(says)")
            let skipped = try parse(header + row + "\n2020-01-06,100,101,99,100,1000\n", policy: .skip)
            #expect(skipped.bars.map(\.timestamp.dayNumber) == [Timestamp(year: 2020, month: 1, day: 2).dayNumber,
                Timestamp(year: 2020, month: 1, day: 6).dayNumber])
            #expect(skipped.skippedRows == 1 && skipped.skippedLines == [3])
        }
        // Another column layout (with an adjusted close) is checked the same way, after the adjustment.
        #expect(throws: BarLoadingError(file: "t.csv", line: 2, code: .impossibleBar("the close 150 is above the high 101"))) {
            try parse("Date,Open,High,Low,Close,Volume,Adj Close\n2020-01-02,100,101,99,150,1000,150\n")
        }
        // The edges are inside: open at the low, close at the high.
        #expect(try parse(header + "2020-01-03,99,101,99,101,1000\n").bars.count == 2)
    }

    @Test func loadsTheBundledScenarioS() throws {
        let loaded = try BarCSVLoader.load(path: Fixtures.path("peers/S/SYM000.csv"))
        #expect(loaded.bars.count == 100_000)
        #expect(loaded.bars.first?.timestamp.description == "2020-01-02T14:30:00Z")
        #expect(loaded.bars.last?.timestamp.description == "2020-12-25T17:09:00Z")
    }
}

@Suite struct MarketDataTests {
    func bars(_ days: [Int]) -> [Bar] {
        days.map { d in
            let t = Timestamp(year: 2020, month: 1, day: d)
            return Bar(timestamp: t, open: Price(d), high: Price(d), low: Price(d), close: Price(d), volume: Quantity(1))
        }
    }

    @Test func alignsLateStartsGapsAndDelistings() {
        let data = MarketData(
            universe: Universe(symbols: ["A", "B", "C"]),
            series: [bars([1, 2, 3, 4]), bars([3, 4, 5]), bars([1, 3])])
        let order = data.timeline.map { "\($0.instrument):\(data.series[Int($0.instrument)][Int($0.index)].close)" }
        #expect(order == ["0:1", "2:1", "0:2", "0:3", "1:3", "2:3", "0:4", "1:4", "1:5"])
        #expect(data.barCount == 9)
    }

    @Test func syntheticMarketIsSeededAndConsistent() {
        let config = SyntheticMarketConfig(symbols: 3, bars: 300, seed: 7)
        let a = SyntheticMarket.generate(config)
        let b = SyntheticMarket.generate(config)
        #expect(a.series == b.series)
        #expect(a.universe.instruments.map(\.symbol) == ["SYN000", "SYN001", "SYN002"])
        #expect(a.series.allSatisfy { $0.allSatisfy(\.isConsistent) })
        var other = config
        other.seed = 8
        #expect(SyntheticMarket.generate(other).series != a.series)
    }
}
