import Foundation
import LiveSession
import TradingEngine
import TradingModel
import TWSClient
import TWSProtocol

/// How a what-if request ended.
public enum ManualWhatIfOutcome: Sendable, Hashable {
    /// TWS's preview.
    case preview(OrderPreview)
    /// TWS refused the order outright (its text).
    case rejected(String)
    /// No answer within the timeout.
    case timedOut
}

/// What `ibtrader order … --what-if` learned. Nothing was placed or journaled.
public struct ManualWhatIfResult: Sendable, Hashable {
    /// The account used.
    public var account: String
    /// The order previewed, as TWS names it (`BUY 10 AAPL LMT 150.25 DAY Adaptive Patient`).
    public var order: String
    /// The outcome.
    public var outcome: ManualWhatIfOutcome
    /// The risk rule that would deny the order, if any (the preview is still shown).
    public var riskDenial: RiskDenial?
    /// `true` when the order is a bracket and only its entry was previewed.
    public var entryOnly: Bool

    /// `true` for a preview.
    public var succeeded: Bool {
        if case .preview = outcome { return true }
        return false
    }
}

extension ManualTrading {
    /// Asks TWS for its what-if preview of an order (placeOrder with `whatIf`): margin before, change and after,
    /// equity with loan, commission. TWS answers with one `openOrder` and keeps no order; nothing is journaled.
    /// The risk rules are checked too, and a denial is reported beside the preview.
    /// - Parameters:
    ///   - ticket: the validated order (a bracket's entry alone is previewed).
    ///   - context: the connection, its session, and the settings.
    /// - Throws: `ManualTradingError` for the account rule, an unknown contract, an off-tick price, I/O.
    public static func previewOrder(
        _ ticket: ManualOrderTicket,
        on context: (connection: TWSConnection, info: TWSSessionInfo, settings: ManualSettings)
    ) async throws(ManualTradingError) -> ManualWhatIfResult {
        let (connection, settings) = (context.connection, context.settings)
        let account = try account(context.info, settings: settings)
        let details = try await qualifiedDetails(ticket.symbol, on: connection)
        let entry = Order(
            id: OrderID(1), clientOrderID: ClientOrderID("what-if"), request: ticket.request(for: InstrumentID(index: 0)),
            createdAt: settings.clock())
        try checkTick([entry.type], symbol: ticket.symbol.rawValue, ticks: await contractTicks(details, on: connection))
        let state = try await accountState(
            ticket, account: account, contract: details.contract, on: connection, settings: settings)
        let denial = ManualRiskCheck.denial(
            ticket, config: settings.risk, account: state.account, referencePrice: state.price, at: settings.clock(),
            commissionReserve: settings.commissionReserve)
        var wire: TWSOrder
        do {
            wire = try OrderMapping.wireOrder(
                for: entry, options: WireOrderOptions(account: account, reference: settings.reference))
        } catch {
            throw .request("the order cannot be expressed to TWS: \(error)")
        }
        wire.orderRef = ""
        let order = describe(wire, symbol: ticket.symbol.rawValue)
        let outcome: ManualWhatIfOutcome
        do {
            let state = try await connection.whatIf(wire, contract: details.contract, timeout: settings.timeout)
            outcome = .preview(PreviewMapping.preview(of: state))
        } catch {
            switch error {
            case .rejected(let notice): outcome = .rejected(notice.message)
            case .timedOut: outcome = .timedOut
            default: throw .request("\(error)")
            }
        }
        return ManualWhatIfResult(
            account: account, order: order, outcome: outcome, riskDenial: denial, entryOnly: ticket.isBracket)
    }

    /// `BUY 10 AAPL LMT 150.25 DAY Adaptive Patient outside RTH` from the wire order.
    private static func describe(_ wire: TWSOrder, symbol: String) -> String {
        var words = [wire.action, "\(wire.totalQuantity.map { "\($0)" } ?? "")", symbol, wire.orderType]
        func price(_ value: Double) -> String { Price(checkedApproximately: value).map { "\($0)" } ?? "\(value)" }
        if let limit = wire.limitPrice { words.append(price(limit)) }
        if let stop = wire.auxPrice { words.append("stop \(price(stop))") }
        words.append(wire.timeInForce)
        if !wire.goodTillDate.isEmpty { words.append("till \(wire.goodTillDate) UTC") }
        if !wire.algoStrategy.isEmpty { words.append(([wire.algoStrategy] + wire.algoParams.map(\.value)).joined(separator: " ")) }
        if wire.outsideRTH { words.append("outside RTH") }
        return words.joined(separator: " ")
    }
}
