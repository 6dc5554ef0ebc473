import Testing
import TWSProtocol

/// IB's 2172 ("the version … will be desupported on …"): the texts public reports quote, read into a date and builds.
@Suite struct TWSDesupportWarningTests {
    /// The 2026 text (the build IBTrader's compose file pinned before, 10.45.1) and the 2023 one (1018.1).
    @Test(arguments: [
        ("The version of the application you are running, 1045.1, needs to be upgraded, as it will be desupported on "
            + "20261215. The minimum supported version at that time will be 1050.1.",
            "2026-12-15", "1045.1", "10.45.1", "10.50.1"),
        ("The version of the application you are running, 1018.1, needs to be upgraded, as it will be desupported on "
            + "20230718. The minimum supported version at that time will be 1019.2.",
            "2023-07-18", "1018.1", "10.18.1", "10.19.2"),
        // IB's text with its line-break markup left in, and the date's sentence without a final dot.
        ("The version of the application you are running, 1037.1, needs to be upgraded,<br>as it will be desupported "
            + "on 20261215", "2026-12-15", "1037.1", "10.37.1", nil),
    ])
    func readsTheDateAndTheBuilds(text: String, date: String, build: String, readable: String, minimum: String?) throws {
        let warning = try #require(TWSDesupportWarning(TWSNotice(requestID: -1, code: 2172, message: text)))
        #expect(warning.date?.description == date)
        #expect(warning.build == build)
        #expect(warning.runningBuild == readable)
        #expect(warning.minimumSupportedBuild == minimum)
        #expect(warning.text == text)
        #expect(warning.summary.hasPrefix("\(readable), desupported by IB on \(date) (2172"), "\(warning.summary)")
    }

    @Test func onlyTheCodeMakesTheWarning() throws {
        let text = "The version of the application you are running, 1045.1, needs to be upgraded, as it will be "
            + "desupported on 20261215."
        #expect(TWSDesupportWarning(TWSNotice(requestID: -1, code: 2104, message: text)) == nil)
        // A reworded text is still the warning, without what it no longer says.
        let reworded = try #require(
            TWSDesupportWarning(TWSNotice(requestID: -1, code: 2172, message: "Please upgrade TWS soon.")))
        #expect(reworded.date == nil && reworded.build == nil && reworded.minimumBuild == nil)
    }

    @Test func aDateMustBeARealOne() {
        for text in ["desupported on 20261332.", "desupported on 20260230.", "desupported on 2026121.",
                     "desupported on 202612150."] {
            #expect(TWSDesupportWarning(text: text).date == nil, "\(text)")
        }
        #expect(TWSDesupportWarning(text: "desupported on 20240229.").date?.description == "2024-02-29")
        // No "desupported on": the first eight-digit date anywhere.
        #expect(TWSDesupportWarning(text: "cutoff 20270105 for 1049.1").date?.description == "2027-01-05")
        #expect(TWSDesupportWarning.Day(yyyymmdd: "2026-12-15") == nil)
    }

    @Test func buildsOfAnotherFormStayAsSent() {
        #expect(TWSDesupportWarning.readable("1045.1") == "10.45.1")
        #expect(TWSDesupportWarning.readable("10.45.1") == "10.45.1")
        #expect(TWSDesupportWarning.readable("981.3") == "981.3")
        #expect(TWSDesupportWarning.readable("10451") == "10451")
    }

    /// 2172 is in the table as information with reqId −1, so the request layer never fails anything on it.
    @Test func theTableKnowsIt() throws {
        let entry = try #require(TWSErrorTable.entry(2172))
        #expect(!entry.terminal && entry.scope == .global)
        #expect(TWSErrorClassification.disposition(code: 2172, requestID: -1) == .notice)
    }
}
