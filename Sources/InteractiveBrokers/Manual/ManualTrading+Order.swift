import Foundation
import JournalModel
import LiveSession
import Logging
import Storage
import TradingEngine
import TradingModel
import TWSClient
import TWSProtocol

extension ManualTrading {
    /// Sends a manual order in a ticket session (`LiveRunner.runTicket`) on this connection, and waits for TWS's
    /// acknowledgement.
    ///
    /// Order of work: journal check (an orderRef already journaled is never sent again) → the session core's
    /// start-up (account rule: a live account needs confirmation; the contract and its market rule; the broker's
    /// state) → a limit priced from a quote when asked → the tick check → the risk check on the broker's account
    /// (denial: journaled as a `risk-denial` event, nothing sent) → the order desk journals the intent, then sends →
    /// wait for accepted / filled / rejected (`settings.timeout`) → with a working plan (`--order-timeout`), the entry
    /// worked in the same session (reprices, a cancel, the rest at market) → the executions of the orders journaled
    /// with their commissions.
    /// - Parameters:
    ///   - ticket: the validated order.
    ///   - clientOrderID: the stable key (orderRef = `settings.reference` prefix + this).
    ///   - context: the connection, its session, and the settings.
    /// - Returns: the result (denials and rejections are results).
    /// - Throws: `ManualTradingError` for the account rule, an unknown contract, a duplicate orderRef, I/O.
    public static func placeOrder(
        _ ticket: ManualOrderTicket, clientOrderID: ClientOrderID,
        on context: (connection: TWSConnection, info: TWSSessionInfo, settings: ManualSettings)
    ) async throws(ManualTradingError) -> ManualOrderResult {
        let settings = context.settings
        let orderRef = settings.reference.orderRef(for: clientOrderID)
        if let journal = settings.journal {
            let existing: JournalOrder?
            do { existing = try journal.order(ClientOrderID(orderRef)) } catch { throw .journal("\(error)") }
            if let existing { throw .duplicateOrderRef(orderRef, state: existing.state.rawValue) }
        }
        let (ticket, marketTime) = try await atMarketTime(ticket, on: context)
        var order = SessionTicket(
            order: ticket, clientOrderID: clientOrderID, risk: settings.risk, timeout: TimeSpan(settings.timeout))
        order.killSwitchEngaged = settings.killSwitchEngaged
        order.commissionReserve = settings.commissionReserve
        order.marketTime = marketTime
        let summary = try await runTicket(order, symbol: ticket.symbol, on: context)
        guard let result = summary.ticket else { throw .request("the order's session ended without a result") }
        return result
    }

    /// A future's order at the gateway's time (reqCurrentTime; the session's clock when TWS does not answer): its
    /// local symbol's year is read then (`ESZ3` against a simulator replaying 2013 is December 2013), and its contract
    /// month's roll day is compared with it. Other orders are unchanged and ask nothing.
    /// - Throws: `ManualTradingError.contract` for a local symbol that names nothing at the gateway's time.
    static func atMarketTime(
        _ ticket: ManualOrderTicket, on context: (connection: TWSConnection, info: TWSSessionInfo, settings: ManualSettings)
    ) async throws(ManualTradingError) -> (ManualOrderTicket, Timestamp?) {
        guard case .future = ticket.kind else { return (ticket, nil) }
        let now = (try? await context.connection.currentTime()).map { Timestamp(seconds: $0) }
        do { return (try ticket.readingLocalSymbol(at: now ?? context.settings.clock()), now) } catch {
            throw .contract(error.description)
        }
    }

    /// Runs a ticket session on the command's connection.
    static func runTicket(
        _ ticket: SessionTicket, symbol: Symbol?,
        on context: (connection: TWSConnection, info: TWSSessionInfo, settings: ManualSettings)
    ) async throws(ManualTradingError) -> LiveRunSummary {
        let settings = context.settings
        do {
            return try await LiveRunner.runTicket(
                ticket, settings: sessionSettings(symbol, settings), journal: settings.journal,
                on: context.connection, info: context.info,
                clock: SessionClock(settings.sleeper, startingAt: settings.clock()), logger: ticketLogger)
        } catch {
            let order: ManualOrderTicket? = switch ticket.job {
            case .place(let order, _), .preview(let order): order
            case .cancel, .modify: nil
            }
            throw ManualTradingError(error, order: order)
        }
    }

    /// A ticket session's settings: the order's one symbol (none for a cancel), the account rule, the manual orderRef prefix; no warm-up, no
    /// reconnect (the command's connection is the session's), fills reported without waiting for commissions.
    static func sessionSettings(_ symbol: Symbol?, _ settings: ManualSettings) -> SessionSettings {
        var session = SessionSettings(symbols: symbol.map { [$0] } ?? [], strategyName: "manual")
        session.account = settings.account
        session.confirmedLiveAccount = settings.confirmedLiveAccount
        session.reference = settings.reference
        session.engine.futuresRollDays = settings.futuresRollDays
        session.warmupDuration = ""
        session.reconnect = false
        session.commissionWait = nil
        session.positionCheck = nil
        session.adoptExternalPositions = false
        session.watchHalts = false
        return session
    }

    /// The ticket session's log: warnings and errors (the command prints its result itself).
    static var ticketLogger: Logger {
        var logger = Logger(label: "ibtrader.order")
        logger.logLevel = .warning
        return logger
    }
}
