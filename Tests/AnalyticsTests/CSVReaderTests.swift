import Testing
@testable import Analytics

@Suite struct CSVReaderTests {
    @Test func readsDatesAndDateTimes() throws {
        let curve = try CSVReader.equityCurve(from: "\u{FEFF}Date,Equity\r\n2024-01-02,100\r\n2024-01-03T15:30:00Z,101.5\r\n\r\n")
        #expect(curve.map(\.equity) == [100, 101.5])
        #expect(CivilTime.format(curve[0].time) == "2024-01-02")
        #expect(CivilTime.format(curve[1].time) == "2024-01-03T15:30:00Z")
    }

    @Test func readsBarsOrClosesAsBenchmark() throws {
        let bars = "date,open,high,low,close,volume\n2024-01-02,1,2,0.5,1.5,100\n2024-01-04,1,2,0.5,1.7,100\n"
        let prices = try CSVReader.prices(from: bars)
        #expect(prices.map(\.close) == [1.5, 1.7])
        let plain = try CSVReader.prices(from: "date,close\n2024-01-02,3\n")
        #expect(plain == [PricePoint(time: 1_704_153_600, close: 3)])
        let times = try ["2024-01-02", "2024-01-03", "2024-01-04"].map { try #require(CivilTime.parse($0)) }
        #expect(try CSVReader.align(prices, to: times) == [1.5, 1.5, 1.7])
        #expect(throws: CSVReadError.benchmarkStartsTooLate(date: "2024-01-01")) {
            try CSVReader.align(prices, to: [1_704_067_200])
        }
    }

    @Test(arguments: [
        ("date,equity\n2024-01-02,100\n2024-13-02,5\n", CSVReadError.invalidDate(line: 3, text: "2024-13-02")),
        ("date,equity\n2024-02-30,100\n", .invalidDate(line: 2, text: "2024-02-30")),
        ("date,equity\n2024-01-02,abc\n", .invalidNumber(line: 2, column: "equity", text: "abc")),
        ("date,equity\n2024-01-02,nan\n", .invalidNumber(line: 2, column: "equity", text: "nan")),
        ("date,equity\n2024-01-02\n", .missingField(line: 2, column: "equity")),
        ("date,equity\n2024-01-03,1\n2024-01-02,1\n", .unorderedDate(line: 3, text: "2024-01-02")),
        ("date,value\n2024-01-02,1\n", .missingColumn(name: "equity")),
        ("", .empty),
    ])
    func badRowsNameTheLine(text: String, expected: CSVReadError) {
        #expect(throws: expected) { try CSVReader.equityCurve(from: text) }
    }

    @Test func civilTimeRoundTrips() {
        for seconds: Int64 in [0, 951_782_400, 1_709_164_800, -86_400, 4_102_444_800 + 3_661] {
            #expect(CivilTime.parse(CivilTime.format(seconds)) == seconds)
        }
        #expect(CivilTime.parse("2000-02-29") == 951_782_400)
        #expect(CivilTime.parse("1900-02-29") == nil)
        #expect(CivilTime.parse("2024-01-02T24:00:00Z") == nil)
        #expect(CivilTime.parse("2024-1-02") == nil)
    }
}

/// Random text must give a value or a typed error, never a trap.
@Suite struct CSVReaderFuzzTests {
    @Test func randomInputNeverTraps() {
        var state: UInt64 = 42
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        let alphabet = Array("0123456789-:TZ ,.\r\neE+nai\u{00e9}date,equity,close\n2024-01-02")
        for _ in 0..<2000 {
            let length = Int(next() % 80)
            var text = next() % 2 == 0 ? "date,equity,close\n" : ""
            for _ in 0..<length { text.append(alphabet[Int(next() % UInt64(alphabet.count))]) }
            _ = try? CSVReader.equityCurve(from: text)
            _ = try? CSVReader.prices(from: text)
            _ = CivilTime.parse(text)
        }
    }
}
