import GatewayCore
import Testing
import TWSProtocol
import TraderKit
import TradingModel

@testable import TraderCLI

/// Issue 47: `ibtrader quote`, `contract` and `history` on `ES continuous` answer for the month the bot trades on the
/// server's day (the roll rule), and say so; IB streams no quotes for its continuous contract, which the simulator
/// does not know either. On 2013-12-16 that is March 2014, a week before December's last trading day.
@Suite(.timeLimit(.minutes(1))) struct ContinuousFutureQueryTests {
    static func withFutures<Result: Sendable>(
        at start: Timestamp, _ body: @Sendable (Int) async throws -> Result
    ) async throws -> Result {
        try await withSimulator(data: try MarketDataSet.bundled(.futures), start: start) { _, port in try await body(port) }
    }

    @Test(arguments: [
        (Timestamp(year: 2013, month: 12, day: 12, secondOfDay: 15 * 3600), "ESZ3", "ES 2013-12"),
        (Timestamp(year: 2013, month: 12, day: 16, secondOfDay: 15 * 3600), "ESH4", "ES 2014-03"),
    ])
    func aQuoteOfTheContinuousFutureIsTheFrontMonthsAndSaysSo(start: Timestamp, local: String, month: String) async throws {
        let text = try await Self.withFutures(at: start) { port in
            let command = try QuoteCommand.parse(["ES continuous", "--port", "\(port)", "--client-id", "44", "--market-data-type", "1"])
            return try await command.connection.withConnection { client, _ in
                try await MarketDataQueries.quoteText(client, contract: command.contract.contract, marketDataType: .live)
            }
        }
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("ES continuous is \(month) on \(start.description.prefix(10)), the month the bot trades") == true, "\(text)")
        #expect(lines.dropFirst().first?.hasPrefix("symbol: \(local) (conId ") == true, "\(text)")
        #expect(lines.contains { $0.hasPrefix("last: ") && !$0.hasPrefix("last: –") }, "\(text)")
    }

    @Test func theContractOfTheContinuousFutureIsTheFrontMonths() async throws {
        let start = Timestamp(year: 2013, month: 12, day: 16, secondOfDay: 15 * 3600)
        let text = try await Self.withFutures(at: start) { port in
            try await connectionOptions(port).withConnection { client, _ in
                try await MarketDataQueries.contractText(
                    client, contract: ContractOptionsFixture.contract("ES continuous"), name: "ES continuous")
            }
        }
        #expect(text.hasPrefix("ES continuous is ES 2014-03 on 2013-12-16, the month the bot trades until its roll day, 2014-03-14"), "\(text)")
        #expect(text.contains("\nlocal symbol: ESH4\n") && text.contains("\ncontract month: 201403,"), "\(text)")
    }

    @Test func historyOfTheContinuousFutureIsTheFrontMonthsBars() async throws {
        let start = Timestamp(year: 2013, month: 12, day: 16, secondOfDay: 15 * 3600)
        let csv = try await Self.withFutures(at: start) { port in
            try await connectionOptions(port).withConnection { client, _ in
                try await MarketDataQueries.historyCSV(
                    client, contract: ContractOptionsFixture.contract("ES continuous"), duration: "1 W", barSize: "1 day",
                    whatToShow: "TRADES", regularHours: false)
            }
        }
        // March's daily bars (the bundled ESH2014 file's), not December's.
        let rows = csv.split(separator: "\n")
        #expect(rows.first == "date,open,high,low,close,volume")
        let friday = try #require(rows.first { $0.hasPrefix("2013-12-13,") })
        let march = try MarketDataSet.bundled(.futures).instrument(symbol: "ESH2014")?.series.bars
            .first { $0.timestamp.description.hasPrefix("2013-12-13") }
        let close = try #require(march).close
        let december = try MarketDataSet.bundled(.futures).instrument(symbol: "ESZ2013")?.series.bars
            .first { $0.timestamp.description.hasPrefix("2013-12-13") }
        #expect(try #require(december).close != close)
        #expect(Double(friday.split(separator: ",")[4]) == close.doubleValue, "\(csv)")
    }
}

private func connectionOptions(_ port: Int) throws -> ConnectionOptions {
    try QuoteCommand.parse(["X", "--port", "\(port)", "--client-id", "45"]).connection
}

private enum ContractOptionsFixture {
    static func contract(_ symbol: String) throws -> TWSContract {
        try QuoteCommand.parse([symbol]).contract.contract
    }
}
