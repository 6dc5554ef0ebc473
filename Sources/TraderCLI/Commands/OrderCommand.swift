import Analytics
import ArgumentParser
import Foundation
import InteractiveBrokers
import LiveSession
import TraderConfig
import TraderKit
import TradingEngine
import TradingModel

/// `ibtrader order buy|sell SYMBOL QTY …`: one manual order (or bracket) through the engine's risk rules and the
/// journal, acknowledged by TWS.
struct OrderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "order",
        abstract: "Send one order (or a bracket) to a paper account, through the risk rules and the journal.",
        discussion: """
            The intent is journaled (orderRef IBT:manual:<key>) before it is sent; the command waits for TWS's \
            acknowledgement (--timeout) and exits non-zero when the order is denied by a risk rule, rejected by TWS \
            or not acknowledged. Risk limits come from --config (its risk section) and the --max-* options. A live \
            (non-DU) account is refused unless --live is confirmed at the prompt or --confirm-live ACCOUNT names it. \
            IBTRADER_KILL_SWITCH=1 denies every order; so does the kill switch of a bot running on the same config (asked \
            over its dashboard), whose pause or halts refuse what it would (--despite-bot sends anyway). --what-if asks TWS for its margin and commission preview \
            instead: nothing is sent for execution or journaled. With --order-timeout the command stays attached and \
            works the order as the bot's execution styles do (each step journaled); Ctrl-C leaves it working.
            """
    )

    @Argument(help: "buy or sell.") var side: String
    @Argument(help: "A US stock (SMART), a contract month (ES 2026-12, ESZ6) or a currency pair (EUR.USD).") var symbol: String
    @Argument(help: "The quantity: shares, contracts, or units of the pair's base currency.") var quantity: String

    @Option(name: .long, help: "MKT, LMT, STP, STP_LMT, TRAIL or MIDPRICE.") var type: String = "MKT"
    @Option(name: .long, help: "Limit price (LMT, STP_LMT); MIDPRICE's cap.") var limit: String?
    @Option(name: .long, help: "Stop price (STP, STP_LMT).") var stop: String?
    @Option(name: .customLong("trail-amount"), help: "Trailing amount (TRAIL).") var trailAmount: String?
    @Option(name: .customLong("trail-percent"), help: "Trailing percent (TRAIL).") var trailPercent: String?
    @Option(name: .customLong("take-profit"), help: "Bracket: take-profit limit price (with --stop-loss).") var takeProfit: String?
    @Option(name: .customLong("stop-loss"), help: "Bracket: stop-loss stop price (with --take-profit).") var stopLoss: String?
    @Option(name: .long, help: "DAY, GTC, IOC or GTD (with --good-till).") var tif: String = "DAY"
    @Option(name: .customLong("good-till"), help: "GTD expiry, UTC: 2026-11-24T21:00:00Z or 20261124-21:00:00.")
    var goodTill: String?
    @Flag(name: .customLong("outside-rth"), help: "Allow the order to trigger and fill outside regular trading hours.")
    var outsideRTH = false
    @Flag(name: .long, help: "Let the order work in IB's overnight session too (includeOvernight; TWS API 189+).") var overnight = false
    @Option(name: .long, help: "An IB algo to work the order: adaptive (MKT and LMT only).") var algo: String?
    @Option(name: .long, help: "Adaptive's priority: urgent, normal (default) or patient.") var priority: String?
    @Option(name: .customLong("limit-offset"), parsing: .unconditional, help: "LMT priced from a quote instead of --limit (MIDPRICE: its cap): 1 tick, -2 ticks, 5 bps; positive pays up.")
    var limitOffset: String?
    @Option(name: .customLong("limit-from"), help: "The quote --limit-offset is measured from: last (default), bid or ask.") var limitFrom: String?
    @Option(name: .customLong("order-timeout"), help: "Stay attached and work the order: after this long unfilled (30s, 2m), --on-timeout.")
    var orderTimeout: String?
    @Option(name: .customLong("on-timeout"), help: "cancel (default), reprice (LMT: move the limit by --reprice-step) or market (cancel, the rest at market).")
    var onTimeout: String?
    @Option(name: .long, help: "With --on-timeout reprice: how many reprices, one timeout apart (default 2).") var reprices: String?
    @Option(name: .customLong("reprice-step"), help: "How far each reprice pays up: 1 tick (default), 2 bps.") var repriceStep: String?
    @Option(name: .customLong("after-reprices"), help: "After the last reprice: cancel (default) or market.") var afterReprices: String?
    @Flag(name: .customLong("what-if"), help: "Print TWS's margin and commission preview; send nothing.") var whatIf = false
    @Flag(name: .customLong("despite-bot"), help: "Send even though the bot on this config refuses such orders now (kill switch, pause, halt).")
    var despiteBot = false
    @Option(name: .long, help: "The order's key (orderRef IBT:manual:KEY); a key already journaled is never sent again.")
    var ref: String?

    @OptionGroup var risk: RiskOptions

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var manual: ManualOptions

    var arguments: ManualOrderArguments {
        var a = ManualOrderArguments(
            side: side, symbol: symbol, quantity: quantity, type: type, limit: limit, stop: stop,
            trailAmount: trailAmount, trailPercent: trailPercent, takeProfit: takeProfit, stopLoss: stopLoss,
            timeInForce: tif, goodTill: goodTill, outsideRegularHours: outsideRTH, algo: algo, priority: priority)
        (a.limitOffset, a.limitFrom, a.orderTimeout) = (limitOffset, limitFrom, orderTimeout.flatMap(HumanDuration.parse))
        (a.onTimeout, a.reprices, a.repriceStep, a.afterReprices) = (onTimeout, reprices, repriceStep, afterReprices)
        a.includeOvernight = overnight
        return a
    }

    func validate() throws {
        if let orderTimeout, HumanDuration.parse(orderTimeout) == nil {
            throw ValidationError("--order-timeout must be \(HumanDuration.spellings), got '\(orderTimeout)'")
        }
        do { _ = try ManualOrderTicket(arguments, at: ManualSetup.wallTime()) } catch { throw ValidationError(error.description) }
        if let ref, ref.isEmpty || ref.contains(where: \.isWhitespace) {
            throw ValidationError("--ref must be a non-empty key without spaces")
        }
    }

    func run() async throws { try await perform().emit() }

    /// Sends the order; the lines to print and whether it was acknowledged.
    func perform() async throws -> ManualCommandOutput {
        let ticket: ManualOrderTicket
        do { ticket = try ManualOrderTicket(arguments, at: ManualSetup.wallTime()) } catch { throw CLIError(error.description) }
        // A what-if sends nothing for execution, so it opens no journal.
        let context = try ManualContext(
            connection: connection, manual: manual, journaling: !whatIf, overrides: risk.overrides)
        if whatIf {
            let result = try await context.run { client, info, settings in
                try await ManualTrading.previewOrder(ticket, on: (client, info, settings))
            }
            return ManualCommandOutput(lines: ManualListing.whatIf(result, json: manual.json), succeeded: result.succeeded)
        }
        let gate = await BotStateCheck.gate(
            context.loaded, side: ticket.side, symbol: ticket.symbol, quantity: ticket.quantity, despite: despiteBot,
            quiet: manual.config.isEmpty, json: manual.json)
        if gate.refused { return ManualCommandOutput(lines: gate.lines, succeeded: false) }
        let key = ClientOrderID(ref ?? "\(Int64(Date().timeIntervalSince1970 * 1000))-\(ticket.referenceName)")
        let result = try await context.run { client, info, settings in
            try await ManualTrading.placeOrder(ticket, clientOrderID: key, on: (client, info, settings))
        }
        return ManualCommandOutput(lines: gate.lines + ManualListing.order(result, json: manual.json), succeeded: result.succeeded)
    }
}
