import Foundation
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
    /// The contract id.
    public var contractID: Int
    /// Signed quantity.
    public var quantity: Quantity
    /// Average cost per share.
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
    /// The account's positions (reqPositions), non-zero ones, sorted by symbol.
    /// - Throws: `ManualTradingError`.
    public static func positions(
        on connection: TWSConnection, info: TWSSessionInfo, settings: ManualSettings
    ) async throws(ManualTradingError) -> [ManualPosition] {
        let account = try account(info, settings: settings)
        let all: [TWSPosition]
        do { all = try await connection.positions() } catch { throw .request("\(error)") }
        var result: [ManualPosition] = []
        for p in all where p.account == account {
            guard let quantity = shareQuantity(NSDecimalNumber(decimal: p.quantity ?? 0).doubleValue) else {
                let text = p.quantity.map { "\($0)" } ?? ""
                throw .request("TWS reported an unreadable position in \(p.contract.symbol): \(text)")
            }
            guard quantity != .zero else { continue }
            result.append(ManualPosition(
                account: p.account, symbol: p.contract.symbol, contractID: p.contract.contractID, quantity: quantity,
                averageCost: p.averageCost))
        }
        return result.sorted { $0.symbol < $1.symbol }
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
        if let pnl = await firstPnL(account: account, on: connection, timeout: settings.timeout) {
            report.dailyPnL = pnl.daily
            report.unrealizedPnL = pnl.unrealized
            report.realizedPnL = pnl.realized
        }
        return report
    }

    /// The first reqPnL update, or `nil` when none arrives in time (TWS sends P&L only for accounts it tracks).
    static func firstPnL(account: String, on connection: TWSConnection, timeout: Duration) async -> TWSPnL? {
        guard let stream = try? await connection.pnl(account: account) else { return nil }
        return await withTaskGroup(of: TWSPnL?.self, returning: TWSPnL?.self) { group in
            group.addTask {
                do {
                    for try await item in stream {
                        if case .data(let pnl) = item { return pnl }
                    }
                } catch {}
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    /// The account's numbers a risk check needs, fetched only when a rule needs them; and the order's reference
    /// price (last trade of a snapshot, delayed if live is not subscribed).
    static func accountState(
        _ ticket: ManualOrderTicket, account: String, contract: TWSContract, on connection: TWSConnection,
        settings: ManualSettings, replacing permID: Int64? = nil
    ) async throws(ManualTradingError) -> (account: ManualAccountState, price: Price?) {
        var state = ManualAccountState(equity: .zero, grossExposure: .zero, activePositions: 0, position: .zero)
        state.killSwitchEngaged = settings.killSwitchEngaged
        // Only the kill switch: nothing to fetch.
        guard settings.risk.makeRules().count > 1 else { return (state, nil) }
        let summary: [TWSAccountSummaryValue]
        let positions: [TWSPosition]
        let open: [TWSOpenOrder]
        do {
            summary = try await connection.accountSummary(tags: "NetLiquidation,GrossPositionValue,SettledCash")
            positions = try await connection.positions().filter { $0.account == account }
            // A modification replaces its order: the order as modified is checked, not both.
            open = try await connection.allOpenOrders().filter {
                ($0.order.account == account || $0.order.account.isEmpty) && $0.order.permID != permID
            }
        } catch {
            throw .request("\(error)")
        }
        func money(_ tag: String) -> Money? {
            summary.first { $0.account == account && $0.tag == tag }.flatMap { Double($0.value) }
                .flatMap { Money(checkedApproximately: $0) }
        }
        state.equity = money("NetLiquidation") ?? .zero
        state.grossExposure = money("GrossPositionValue") ?? .zero
        if settings.risk.requireSettledCash == true { state.settledCash = money("SettledCash") }
        let held = positions.filter { ($0.quantity ?? 0) != 0 }
        state.activePositions = held.count
        if let mine = held.first(where: { $0.contract.contractID == contract.contractID }) {
            guard let quantity = shareQuantity(NSDecimalNumber(decimal: mine.quantity ?? 0).doubleValue) else {
                throw .request("TWS reported an unreadable position in \(contract.symbol)")
            }
            state.position = quantity
        }
        state.pendingOrders = pendingOrders(open, positions: held, contract: contract)
        // A contract without a position that an open order would open counts as a position, as in the engine.
        let heldIDs = Set(held.map(\.contract.contractID))
        state.activePositions += Set(
            open.filter { $0.contract.contractID != contract.contractID && !heldIDs.contains($0.contract.contractID) }
                .map(\.contract.contractID)
        ).count
        if settings.risk.maxDailyLossPercent != nil,
            let daily = await firstPnL(account: account, on: connection, timeout: settings.timeout)?.daily
        {
            state.dailyPnL = Money(checkedApproximately: daily)
        }
        return (state, await lastPrice(contract, on: connection))
    }

    /// The account's open orders as the risk check counts them: side, whole quantity, price (limit, else stop) and
    /// whether each adds to its contract's position. Orders that are not live (cancelled, filled, inactive) and
    /// protective children of a bracket (they close, they do not open) are left out.
    static func pendingOrders(
        _ open: [TWSOpenOrder], positions: [TWSPosition], contract: TWSContract
    ) -> [ManualPendingOrder] {
        open.compactMap { entry in
            let order = entry.order
            let status = entry.orderState.status.lowercased()
            guard !["cancelled", "apicancelled", "filled", "inactive", "pendingcancel"].contains(status),
                order.parentID == 0,
                let side = Side(rawValue: order.action.uppercased()) ?? (order.action.uppercased() == "SSHORT" ? .sell : nil),
                let total = order.totalQuantity,
                let quantity = shareQuantity(NSDecimalNumber(decimal: total).doubleValue), quantity.units > 0
            else { return nil }
            let price = [order.limitPrice, order.auxPrice].lazy.compactMap { $0 }.first { $0 > 0 && $0 < 1e15 }
                .flatMap { Price(checkedApproximately: $0) }
            let held = positions.first { $0.contract.contractID == entry.contract.contractID }?.quantity ?? 0
            let increases = side == .buy ? held >= 0 : held <= 0
            return ManualPendingOrder(
                sameContract: entry.contract.contractID == contract.contractID, side: side, quantity: quantity,
                price: price, increases: increases)
        }
    }

    /// The last trade price of a snapshot (live, else delayed, else the close); `nil` without market data.
    static func lastPrice(_ contract: TWSContract, on connection: TWSConnection) async -> Price? {
        try? await connection.setMarketDataType(.delayed)
        guard let snapshot = try? await connection.marketDataSnapshot(contract: contract) else { return nil }
        for tick in [TWSTickType.last, .delayedLast, .close, .delayedClose] {
            if let value = snapshot.prices[tick], value > 0, let price = Price(checkedApproximately: value) {
                return price
            }
        }
        return nil
    }
}
