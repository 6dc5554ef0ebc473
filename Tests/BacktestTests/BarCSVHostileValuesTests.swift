import Backtest
import Foundation
import Testing
import TradingModel

/// Numbers and dates a bar file cannot hold are row errors naming the file and line, never traps, and every
/// message reads as a sentence (reliability audit, campaign 3b).
@Suite struct BarCSVHostileValuesTests {
    static let header = "date,open,high,low,close,volume\n2020-01-02,1,2,0.5,1.5,100\n"

    func parse(_ row: String, policy: BadRowPolicy = .fail) throws(BarLoadingError) -> LoadedBars {
        try BarCSVLoader.parse(Data((Self.header + row).utf8), file: "t.csv", policy: policy)
    }

    struct Case: Sendable, CustomStringConvertible {
        var row: String
        var code: BarLoadingError.Code
        var description: String { row }
    }

    static let cases: [Case] = [
        // These trapped before (FixedPoint's add, the nanosecond timestamp of year 1 or 9999).
        Case(
            row: "2020-01-03,92233720368.55,92233720368.55,1,1,1",
            code: .numberOutOfRange(field: "open", text: "92233720368.55")),
        Case(row: "2020-01-03,1e300,2,0.5,1.5,100", code: .numberOutOfRange(field: "open", text: "1e300")),
        Case(row: "0001-01-01,1,2,0.5,1.5,100", code: .badDate("0001-01-01")),
        Case(row: "9999-12-31,1,2,0.5,1.5,100", code: .badDate("9999-12-31")),
        Case(row: "2021-02-29,1,2,0.5,1.5,100", code: .badDate("2021-02-29")),
        // These were accepted with --bad-rows fail.
        Case(row: "2020-01-03,-1,2,0.5,1.5,100", code: .impossibleBar("the open price -1 is not positive")),
        Case(row: "2020-01-03,1,2,0,1.5,100", code: .impossibleBar("the low price 0 is not positive")),
        Case(row: "2020-01-03,1,0.5,2,1.5,100", code: .impossibleBar("the high 0.5 is below the low 2")),
        Case(row: "2020-01-03,1,2,0.5,1.5,-100", code: .impossibleBar("the volume -100 is negative")),
        Case(row: "2020-01-03,1\u{0}00,2,0.5,1.5,100", code: .badNumber(field: "open", text: "1\u{0}00")),
    ]

    @Test(arguments: cases) func failModeStopsAtTheRow(_ c: Case) {
        #expect(throws: BarLoadingError(file: "t.csv", line: 3, code: c.code)) { try parse(c.row) }
    }

    @Test(arguments: cases) func skipModeSkipsAndCountsTheRow(_ c: Case) throws {
        let loaded = try parse(c.row, policy: .skip)
        #expect(loaded.bars.count == 1)
        #expect(loaded.skippedRows == 1 && loaded.skippedLines == [3])
    }

    @Test func exponentsAndLongDecimalsStillRead() throws {
        let loaded = try parse("2020-01-03,1e1,2.5E1,0.5,1.123456789,1e3")
        #expect(loaded.bars.last?.open == Price(10))
        #expect(loaded.bars.last?.close == Price("1.12345679"))
        #expect(loaded.bars.last?.volume == Quantity(1_000))
    }

    @Test func datesBackTo1900AreRead() throws {
        let loaded = try BarCSVLoader.parse(
            Data("date,open,high,low,close,volume\n1928-01-03,17.76,17.76,17.76,17.76,0\n".utf8), file: "t.csv")
        #expect(loaded.bars.first?.timestamp.description == "1928-01-03T00:00:00Z")
    }

    @Test func messagesReadAsSentences() {
        func text(_ code: BarLoadingError.Code) -> String {
            BarLoadingError(file: "a.csv", line: 7, code: code).description
        }
        #expect(text(.badNumber(field: "open", text: "abc")) == "a.csv:7: the open 'abc' is not a number")
        #expect(text(.badNumber(field: "open", text: "1\u{0}00")) == "a.csv:7: the open '1<NUL>00' is not a number")
        #expect(text(.impossibleBar("the volume -100 is negative")) == "a.csv:7: the volume -100 is negative")
        #expect(text(.badHeader("\u{FEFF}date,open")).contains("'<byte-order mark>date,open'"))
        #expect(text(.badDate(String(repeating: "9", count: 5_000_000))).count < 400)
        #expect(text(.wrongFieldCount(5))
            == "a.csv:7: a row needs 6 fields (date,open,high,low,close,volume); this one has 5")
        for code: BarLoadingError.Code in [
            .unreadable("x"), .badHeader("x"), .wrongFieldCount(1), .badDate("x"), .badNumber(field: "low", text: "x"),
            .outOfOrder("2020-01-01T00:00:00Z"), .numberOutOfRange(field: "low", text: "1e300"), .impossibleBar("x"),
        ] {
            let shown = text(code)
            #expect(!shown.contains("(\"") && !shown.contains("field:") && !shown.contains("Code"),
                    "reads like an enum dump: \(shown)")
        }
    }
}
