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
        #expect(loaded.bars.count == 2)
        #expect(loaded.skippedRows == 2)
        #expect(loaded.skippedLines == [3, 4])
        #expect(loaded.inconsistentBars == 1)  // open 3 above high 2: kept as given, counted
    }

    @Test func loadsTheBundledScenarioS() throws {
        let loaded = try BarCSVLoader.load(path: Fixtures.path("peers/S/SYM000.csv"))
        #expect(loaded.bars.count == 100_000)
        #expect(loaded.bars.first?.timestamp.description == "2020-01-02T14:30:00Z")
        #expect(loaded.bars.last?.timestamp.description == "2020-12-25T17:09:00Z")
        #expect(loaded.inconsistentBars == 0)
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
