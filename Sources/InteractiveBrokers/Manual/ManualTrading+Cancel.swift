import Foundation
import JournalModel
import Storage
import TradingModel
import TWSClient
import TWSProtocol

/// One open order, as `ibtrader orders` shows it.
public struct ManualOpenOrder: Sendable, Hashable, Codable {
    /// TWS's order id (per client).
    public var orderID: Int
    /// The API client that placed it (0: TWS itself).
    public var clientID: Int
    /// TWS's permanent id.
    public var permID: Int64
    /// The orderRef.
    public var orderRef: String
    /// The account.
    public var account: String
    /// The symbol.
    public var symbol: String
    /// `BUY` / `SELL`.
    public var action: String
    /// Total quantity.
    public var quantity: String
    /// Type with prices (`LMT 150.25`).
    public var type: String
    /// Time in force.
    public var timeInForce: String
    /// TWS's status (`Submitted`, `PreSubmitted`, …).
    public var status: String
    /// The bracket parent's order id (0: none).
    public var parentID: Int
    /// The algo and its parameters (`Adaptive Patient`), or empty.
    public var algo: String
    /// May trigger and fill outside regular trading hours.
    public var outsideRTH: Bool
    /// A GTD order's expiry as TWS holds it, or empty.
    public var goodTill: String

    /// The terms beyond pricing and lifetime, in words: `Adaptive Patient, outside RTH, till 20261124-21:00:00`.
    public var terms: String {
        var words: [String] = []
        if !algo.isEmpty { words.append(algo) }
        if outsideRTH { words.append("outside RTH") }
        if !goodTill.isEmpty { words.append("till \(goodTill)") }
        return words.joined(separator: ", ")
    }

    init(_ open: TWSOpenOrder) {
        let o = open.order
        orderID = o.orderID
        clientID = o.clientID
        permID = o.permID
        orderRef = o.orderRef
        account = o.account
        symbol = open.contract.symbol
        action = o.action
        quantity = o.totalQuantity.map { "\($0)" } ?? ""
        var prices = [o.auxPrice, o.limitPrice].compactMap { $0 }.map { String($0) }
        if let percent = o.trailingPercent { prices.append("\(percent)%") }
        type = ([o.orderType] + prices).joined(separator: " ")
        timeInForce = o.timeInForce
        status = open.orderState.status
        parentID = o.parentID
        algo = o.algoStrategy.isEmpty ? "" : ([o.algoStrategy] + o.algoParams.map(\.value)).joined(separator: " ")
        outsideRTH = o.outsideRTH
        goodTill = o.goodTillDate
    }
}

/// Which order `ibtrader cancel` means.
public enum ManualCancelTarget: Sendable, Hashable, CustomStringConvertible {
    /// TWS's order id.
    case orderID(Int)
    /// The orderRef (as journaled).
    case orderRef(String)

    /// A number is an order id, anything else an orderRef.
    public init(_ text: String) {
        if let id = Int(text) { self = .orderID(id) } else { self = .orderRef(text) }
    }

    public var description: String {
        switch self {
        case .orderID(let id): "with order id \(id)"
        case .orderRef(let ref): "with orderRef \(ref)"
        }
    }
}

/// What a cancel did.
public struct ManualCancelResult: Sendable, Hashable {
    /// The orders that were open and are gone now.
    public var cancelled: [ManualOpenOrder]
    /// The orders still open when the wait ended.
    public var stillOpen: [ManualOpenOrder]
}

extension ManualTrading {
    /// Every open order of the account (reqAllOpenOrders: all clients and TWS).
    /// - Throws: `ManualTradingError`.
    public static func openOrders(
        on connection: TWSConnection, info: TWSSessionInfo, settings: ManualSettings
    ) async throws(ManualTradingError) -> [ManualOpenOrder] {
        let account = try account(info, settings: settings)
        do {
            return try await connection.allOpenOrders().map(ManualOpenOrder.init)
                .filter { $0.account.isEmpty || $0.account == account }
                .sorted { ($0.permID, $0.orderID) < ($1.permID, $1.orderID) }
        } catch {
            throw .request("\(error)")
        }
    }

    /// Cancels one order (cancelOrder) and waits until TWS no longer lists it. The journal gets a note, and the
    /// order's state when its orderRef is journaled.
    /// - Throws: `ManualTradingError.orderNotFound`, `.otherClient`, `.request`, `.journal`.
    public static func cancel(
        _ target: ManualCancelTarget, on connection: TWSConnection, info: TWSSessionInfo, settings: ManualSettings
    ) async throws(ManualTradingError) -> ManualCancelResult {
        let open = try await openOrders(on: connection, info: info, settings: settings)
        let clientID = await connection.configuration.clientID
        // Order ids are per client: prefer this client's order with that id.
        let candidates = open.filter { order in
            switch target {
            case .orderID(let id): order.orderID == id
            case .orderRef(let ref): order.orderRef == ref
            }
        }
        guard let order = candidates.first(where: { $0.clientID == clientID }) ?? candidates.first else {
            throw .orderNotFound(target.description)
        }
        guard order.clientID == clientID else {
            throw .otherClient(orderID: order.orderID, clientID: order.clientID)
        }
        try note(.note, "manual cancel of order \(order.orderID) \(order.orderRef)", settings: settings)
        try record([order], state: .pendingCancel, settings: settings)
        do { try await connection.cancelOrder(order.orderID) } catch { throw .request("\(error)") }
        let result = try await waitUntilGone([order], on: connection, info: info, settings: settings)
        try record(result.cancelled, state: .canceled, settings: settings)
        return result
    }

    /// Cancels every open order of the account, of every client and TWS (reqGlobalCancel), and waits until TWS
    /// lists none of them.
    /// - Throws: `ManualTradingError.request`, `.journal`.
    public static func cancelAll(
        on connection: TWSConnection, info: TWSSessionInfo, settings: ManualSettings
    ) async throws(ManualTradingError) -> ManualCancelResult {
        let open = try await openOrders(on: connection, info: info, settings: settings)
        try note(.note, "manual global cancel (\(open.count) open orders)", settings: settings)
        try record(open, state: .pendingCancel, settings: settings)
        do { try await connection.globalCancel() } catch { throw .request("\(error)") }
        let result = try await waitUntilGone(open, on: connection, info: info, settings: settings)
        try record(result.cancelled, state: .canceled, settings: settings)
        return result
    }

    /// Polls the open orders until none of `orders` is listed or the timeout passes.
    private static func waitUntilGone(
        _ orders: [ManualOpenOrder], on connection: TWSConnection, info: TWSSessionInfo, settings: ManualSettings
    ) async throws(ManualTradingError) -> ManualCancelResult {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: settings.timeout)
        var remaining = orders
        while true {
            let open = Set(try await openOrders(on: connection, info: info, settings: settings).map(\.permID))
            remaining = orders.filter { open.contains($0.permID) }
            if remaining.isEmpty || clock.now >= deadline { break }
            await pause(.milliseconds(100))
        }
        let gone = Set(remaining.map(\.permID))
        return ManualCancelResult(cancelled: orders.filter { !gone.contains($0.permID) }, stillOpen: remaining)
    }

    /// The state of journaled orders (by orderRef); orders the journal does not know are skipped.
    private static func record(
        _ orders: [ManualOpenOrder], state: OrderState, settings: ManualSettings
    ) throws(ManualTradingError) {
        guard let journal = settings.journal else { return }
        do {
            for order in orders where !order.orderRef.isEmpty {
                let ref = ClientOrderID(order.orderRef)
                guard try journal.order(ref) != nil else { continue }
                var update = JournalStatusUpdate(orderRef: ref, state: state, time: settings.clock())
                update.brokerOrderID = Int64(order.orderID)
                update.message = state == .canceled ? "cancelled manually" : nil
                try journal.recordStatus(update)
            }
        } catch {
            throw .journal("\(error)")
        }
    }
}
