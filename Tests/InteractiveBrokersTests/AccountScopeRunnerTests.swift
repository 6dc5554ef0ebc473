import Foundation
import Logging
import SimulatedVenue
import Testing
import TradingEngine
import TradingModel
import TWSClient
import TWSProtocol

@testable import GatewayCore
@testable import GatewaySimulator
@testable import InteractiveBrokers
@testable import LiveSession

/// Issue 44: one login that manages two accounts (an advisor's or linked accounts). The bot trades the one
/// `connection.account` names (the second listed, so that taking the first account's figures would show); the other
/// account's positions, cash and margin are not its own and never move it.
@Suite struct AccountScopeRunnerTests {
    static let gateway = GatewayConfiguration(accounts: ["DU111", "DU222"], startingCash: faultCash)
    /// What someone else holds in the other account: large enough that its margin, counted as the bot's, would
    /// dwarf the bot's own.
    static let otherHolding = Quantity(2_000)

    /// Another client buys `otherHolding` SYN000 in DU111 before the bot starts.
    static func buyInTheOtherAccount(_ venue: VirtualVenue) async throws {
        try await TWSConnection.connect(venue.clientConnection(90), environment: venue.environment()) { connection, _ in
            var order = TWSOrder()
            order.action = "BUY"
            order.totalQuantity = otherHolding.decimal
            order.orderType = "MKT"
            order.account = "DU111"
            order.timeInForce = "DAY"
            order.orderRef = "someone else"
            let contract = try ContractBook(universe: Universe(symbols: ["SYN000"])).contract(for: syn0)
            _ = try await connection.placeOrder(order, contract: contract)
            // It fills over the next replay steps (each takes what the quote shows).
            await venue.wait(upTo: .seconds(1), step: .milliseconds(1)) { await venue.state().placeOrderLog.count == 1 }
            for _ in 0..<3 where await venue.state().book("DU111")?.holdings[syn0]?.quantity != otherHolding {
                await venue.advance(by: .seconds(1))
            }
            #expect(await venue.state().book("DU111")?.holdings[syn0]?.quantity == otherHolding)
        }
    }

    @Test func theBotTradesItsAccountAndLeavesTheOtherAlone() async throws {
        let log = CapturedLog()
        var logger = Logger(label: "test.accounts") { _ in CapturingLogHandler(log: log) }
        logger.logLevel = .info
        let run = try await faultRun(
            clientID: 44,
            strategy: { TargetSchedule(steps: [(faultTradeTime, 50)], recorder: $0) },
            configure: {
                $0.session.account = "DU222"
                // The margin rule on: every position check then compares the bot's figures with the account's.
                $0.session.engine.risk.initialMarginPercent = 50
                $0.session.positionCheck = PositionCheckSettings(interval: .seconds(1), confirmAfter: .seconds(1))
            },
            gateway: Self.gateway, prepare: Self.buyInTheOtherAccount, logger: logger
        ) { venue, recorder in
            await replaySteps(venue, recorder, limit: 40) { $0.book("DU222")?.holdings[syn0]?.quantity == Quantity(50) }
            // Until a position check and its margin comparison have run with the position in place.
            await venue.wait(upTo: .seconds(10), step: .milliseconds(50)) {
                log.lines.contains { $0.1.hasPrefix("margin against IB's") && !$0.1.contains("initial 0.00") }
            }
        }
        let lines = log.lines.map(\.1)
        #expect(lines.contains("trading account DU222 (paper)"))
        // Positions and cash: the bot's account's (engine = broker = DU222, cash to the cent).
        try expectFaultInvariants(run)
        #expect(run.state.book("DU222")?.holdings[syn0]?.quantity == Quantity(50))
        #expect(run.state.book("DU111")?.holdings[syn0]?.quantity == Self.otherHolding, "the other account untouched")
        #expect(executions(run.state, clientID: 44).allSatisfy { $0.execution.accountNumber == "DU222" })
        #expect(run.state.placeOrderLog.filter { $0.clientID == 44 }.allSatisfy { $0.account == "DU222" })
        // The other account's 2,000 shares are neither a difference nor "another holder's" position in this account.
        #expect(!lines.contains { $0.contains("positions differ") || $0.contains("other holders") }, "\(lines.filter { $0.contains("position") })")
        // Risk: IB's margin figures are DU222's (50 % of 50 shares), not DU111's 2,000 shares'.
        let margin = try #require(lines.last { $0.hasPrefix("margin against IB's") })
        let figures = try #require(Self.initialMargins(in: margin), "\(margin)")
        #expect(abs(figures.bot - figures.ib) <= max(1, figures.bot * 0.05), "\(margin)")
        #expect(!lines.contains { $0.hasPrefix("IB's margin requirement is above the bot's") })
    }

    @Test func aLoginWithSeveralAccountsAndNoneChosenIsRefusedAtStart() async throws {
        await #expect(throws: LiveRunnerError.accountNotChosen(managed: ["DU111", "DU222"])) {
            _ = try await faultRun(
                clientID: 45, strategy: { TargetSchedule(steps: [(faultTradeTime, 50)], recorder: $0) },
                gateway: Self.gateway
            ) { _, _ in }
        }
    }

    /// "initial 2,512.50 (IB 2,512.50)" → (bot, IB).
    static func initialMargins(in line: String) -> (bot: Double, ib: Double)? {
        guard let range = line.range(of: "initial ") else { return nil }
        let rest = line[range.upperBound...].replacingOccurrences(of: ",", with: "")
        let parts = rest.split(separator: " ")
        guard parts.count >= 3, let bot = Double(parts[0]),
            let ib = Double(parts[2].trimmingCharacters(in: CharacterSet(charactersIn: "()")))
        else { return nil }
        return (bot, ib)
    }
}
