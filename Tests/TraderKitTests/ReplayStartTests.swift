import Foundation
import Testing
import TraderKit
import TradingModel

/// `ibtrader gateway --start` and `ibtrader sandbox --start`: a date is its regular open in New York (which is 13:30
/// UTC in summer, not 14:30), and a New York time lets a replay begin in the pre-market.
struct ReplayStartTests {
    @Test func aDateIsItsNineThirtyOpenInNewYork() throws {
        #expect(try GatewaySetup.start("2023-11-13") == Timestamp(year: 2023, month: 11, day: 13, secondOfDay: 14 * 3600 + 1800))
        #expect(try GatewaySetup.start("2023-07-10") == Timestamp(year: 2023, month: 7, day: 10, secondOfDay: 13 * 3600 + 1800))
    }

    @Test func aTimeIsNewYorkTimeUnlessItEndsInZ() throws {
        #expect(try GatewaySetup.start("2023-11-13 04:00") == Timestamp(year: 2023, month: 11, day: 13, secondOfDay: 9 * 3600))
        #expect(try GatewaySetup.start("2023-07-10T04:00") == Timestamp(year: 2023, month: 7, day: 10, secondOfDay: 8 * 3600))
        #expect(try GatewaySetup.start("2023-11-13T14:30Z") == Timestamp(year: 2023, month: 11, day: 13, secondOfDay: 14 * 3600 + 1800))
    }

    @Test(arguments: ["2023-11-13 4:00", "2023-11-13 +1:30", "2023-11-13 09:-5", "2023-11-13 25:00", "2023-11-13 09:60", "2023-11-13_09:30", "2023-11-13 09:30:00", "13/11/2023"])
    func anythingElseIsAClearError(_ text: String) {
        #expect(throws: TraderError.self) { try GatewaySetup.start(text) }
        do {
            _ = try GatewaySetup.start(text)
        } catch {
            #expect(error.description.contains("--start"), "\(error.description)")
            #expect(error.description.contains(text) || text.count <= 10, "\(error.description)")
        }
    }

    @Test("a start after the data's last bar is refused with the span the data covers; one inside it is taken")
    func aStartOutsideTheDataIsRefused() throws {
        let data = try GatewaySetup.data("bundled:spy-1min", synthetic: nil, seed: 0)
        let late = try GatewaySetup.start("2023-11-13 08:00")
        do {
            try GatewaySetup.check(start: late, within: data)
            Issue.record("a start after the data was taken")
        } catch {
            #expect(error.description.contains("--start") && error.description.contains("last bar"), "\(error)")
            #expect(error.description.contains("2011-01-03 to 2011-03-31"), "\(error)")
        }
        try GatewaySetup.check(start: try GatewaySetup.start("2011-01-04 08:00"), within: data)
    }
}

/// The simulator serves futures and currency pairs too (issue 47): their data loads with their terms.
struct GatewayDataKindsTests {
    @Test(arguments: [("bundled:futures", "ESH2014", "FUT"), ("bundled:fx", "EURUSD", "CASH")])
    func futuresAndPairsAreServed(argument: String, symbol: String, securityType: String) throws {
        let data = try GatewaySetup.data(argument, synthetic: nil, seed: 0)
        let instrument = try #require(data.instrument(symbol: symbol))
        #expect(instrument.securityType == securityType)
    }
}

/// `--symbols` finds an instrument however it is spelled (issue 47): `EUR.USD` is `EURUSD_1d.csv`, `ES 2013-12` is
/// `ESZ2013_1d.csv`, and the instrument takes the name asked for.
struct SymbolSpellingTests {
    @Test func pairsAndContractMonthsAreMatchedByInstrument() throws {
        let resolved = try DataSourceResolver.resolve(
            "bundled:futures-fx", symbols: ["EUR.USD", "gbp/usd", "ES 2013-12", "ES continuous"])
        #expect(resolved.files.map(\.symbol.rawValue) == ["EUR.USD", "GBP/USD", "ES 2013-12"])
        #expect(resolved.files.map { URL(fileURLWithPath: $0.path).lastPathComponent }
            == ["EURUSD_1d.csv", "GBPUSD_1d.csv", "ESZ2013_1d.csv"])
        #expect(resolved.continuous.map(\.symbol.rawValue) == ["ES continuous"])
        #expect(InstrumentKind.canonicalName(of: "esz26") == "ES 2026-12")
        #expect(InstrumentKind.canonicalName(of: "EUR/USD") == "EUR.USD" && InstrumentKind.canonicalName(of: "brk b") == "BRK B")
        do {
            _ = try DataSourceResolver.resolve("bundled:futures-fx", symbols: ["USD.JPY"])
            Issue.record("USD.JPY was found")
        } catch {
            #expect(error.description.contains("not in bundled:futures-fx: USD.JPY"), "\(error)")
        }
    }
}
