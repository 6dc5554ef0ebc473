import GatewayCore
import GatewaySimulator
import Testing
import TraderKit

@testable import TraderCLI

/// Issue 45: `ibtrader quote` says whether the symbol is halted (TWS's Halted tick, a default tick of a snapshot too).
@Suite(.timeLimit(.minutes(1))) struct QuoteHaltTests {
    @Test(arguments: [(0, "halted: no"), (1, "halted: YES, trading is halted by the exchange"), (2, "halted: YES, a volatility trading pause")])
    func theQuoteSaysWhetherTheSymbolIsHalted(kind: Int, line: String) async throws {
        let text = try await withSimulator(data: .synthetic(count: 2, seed: 3)) { simulator, port in
            await simulator.apply(.halt(symbol: "SYN001", kind: kind))
            let command = try QuoteCommand.parse(["SYN001", "--port", "\(port)", "--client-id", "43", "--market-data-type", "1"])
            return try await command.connection.withConnection { client, _ in
                try await MarketDataQueries.quoteText(client, contract: command.contract.contract, marketDataType: .live)
            }
        }
        #expect(text.contains("\n\(line)"), "\(text)")
    }
}
