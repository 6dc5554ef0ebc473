import Foundation
import LiveSession
import TWSClient
import TWSProtocol
import TradingEngine
import TradingModel

/// One position, as `ibtrader positions` shows it.
public struct ManualPosition: Sendable, Hashable, Codable {
    /// The account.
    public var account: String
    /// The symbol.
    public var symbol: String
    /// The contract's terms as TWS reported them: a QQQ put and QQQ's shares are two positions, told apart here.
    public var contract: ContractTerms
    /// The contract id.
    public var contractID: Int
    /// Signed quantity (shares, contracts, or units of a pair's base currency).
    public var quantity: Quantity
    /// Average cost per unit as IB reports it (for a future or an option, per contract: price × multiplier).
    public var averageCost: Double
}

/// What `ibtrader account` shows: account summary values and P&L.
public struct ManualAccountReport: Sendable, Hashable, Codable {
    /// The account.
    public var account: String
    /// Summary values by tag (`NetLiquidation`, `TotalCashValue`, `BuyingPower`, …), as TWS sent them.
    public var values: [String: String]
    /// The currency of the monetary values.
    public var currency: String
    /// Today's P&L (reqPnL), when TWS sent one in time.
    public var dailyPnL: Double?
    /// Unrealized P&L.
    public var unrealizedPnL: Double?
    /// Realized P&L.
    public var realizedPnL: Double?

    /// The tags `ibtrader account` asks for, in display order.
    public static let tags = [
        "NetLiquidation", "TotalCashValue", "SettledCash", "BuyingPower", "AvailableFunds", "GrossPositionValue",
        "EquityWithLoanValue", "InitMarginReq", "MaintMarginReq", "ExcessLiquidity",
    ]
}

extension ManualTrading {
    /// The account's positions (reqPositions), non-zero ones, each with its contract's terms, sorted by symbol.
    /// - Throws: `ManualTradingError`.
    public static func positions(
        on connection: TWSConnection, info: TWSSessionInfo, settings: ManualSettings
    ) async throws(ManualTradingError) -> [ManualPosition] {
        let account = try account(info, settings: settings)
        let all: [TWSPosition]
        do { all = try await connection.positions() } catch { throw .request("\(error)") }
        return try positions(all, account: account)
    }

    /// The non-zero positions of `account` among TWS's `position` messages, each with its contract's terms; a
    /// symbol's shares first, then its other contracts (a QQQ put after QQQ's shares: two lines).
    /// - Throws: `ManualTradingError.request` for a quantity that is no number of shares or contracts.
    public static func positions(_ all: [TWSPosition], account: String) throws(ManualTradingError) -> [ManualPosition] {
        var result: [ManualPosition] = []
        for p in all where p.account == account {
            guard let quantity = shareQuantity(NSDecimalNumber(decimal: p.quantity ?? 0).doubleValue) else {
                let text = p.quantity.map { "\($0)" } ?? ""
                throw .request("TWS reported an unreadable position in \(p.contract.symbol): \(text)")
            }
            guard quantity != .zero else { continue }
            result.append(ManualPosition(
                account: p.account, symbol: p.contract.symbol, contract: ContractTerms(p.contract),
                contractID: p.contract.contractID, quantity: quantity, averageCost: p.averageCost))
        }
        func order(_ p: ManualPosition) -> (String, Int, String) { (p.symbol, p.contract.isStock ? 0 : 1, p.contract.description) }
        return result.sorted { order($0) < order($1) }
    }

    /// The account summary and P&L.
    /// - Throws: `ManualTradingError`.
    public static func accountReport(
        on connection: TWSConnection, info: TWSSessionInfo, settings: ManualSettings
    ) async throws(ManualTradingError) -> ManualAccountReport {
        let account = try account(info, settings: settings)
        let summary: [TWSAccountSummaryValue]
        do { summary = try await connection.accountSummary(tags: ManualAccountReport.tags.joined(separator: ",")) } catch {
            throw .request("\(error)")
        }
        var report = ManualAccountReport(account: account, values: [:], currency: "")
        for value in summary where value.account == account {
            report.values[value.tag] = value.value
            if !value.currency.isEmpty { report.currency = value.currency }
        }
        if let pnl = await connection.firstPnL(account: account, within: settings.timeout) {
            report.dailyPnL = pnl.daily
            report.unrealizedPnL = pnl.unrealized
            report.realizedPnL = pnl.realized
        }
        return report
    }

    /// A share count from TWS's decimal, on the fixed-point grid; `nil` when TWS sent one that does not fit.
    static func shareQuantity(_ shares: Double) -> Quantity? {
        Quantity(checkedApproximately: shares)
    }
}
