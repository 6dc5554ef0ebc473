import Foundation
import TWSProtocol

/// Our client's requests in the transcripts' vocabulary (ibkr-go's message names, the official client's field names
/// in snake case), so a decoded request can be matched to a `client` step.
public enum TranscriptClientMessages {
    /// The name and fields of a request as a transcript writes them.
    ///
    /// Field values are wire texts: numbers as written by `String(_:)`, booleans as `1`/`0`, unset values empty.
    public static func describe(_ request: TWSRequest) -> (name: String, fields: [String: String]) {
        switch request {
        case .startAPI(let clientID, let capabilities):
            return ("start_api", ["client_id": String(clientID), "optional_capabilities": capabilities])
        case .requestIDs(let count): return ("req_ids", ["num_ids": String(count)])
        case .currentTime: return ("req_current_time", [:])
        case .currentTimeInMillis: return ("req_current_time_millis", [:])
        case .managedAccounts: return ("req_managed_accounts", [:])
        case .contractDetails(let id, let contract):
            return ("req_contract_details", ["req_id": String(id)].merging(contractFields(contract)) { a, _ in a })
        case .marketData(let r):
            return ("req_quote", [
                "req_id": String(r.requestID), "snapshot": flag(r.snapshot), "generic_ticks": r.genericTickList,
                "regulatory_snapshot": flag(r.regulatorySnapshot),
            ].merging(contractFields(r.contract)) { a, _ in a })
        case .cancelMarketData(let id): return ("cancel_quote", ["req_id": String(id)])
        case .marketDataType(let type): return ("req_market_data_type", ["data_type": String(type)])
        case .realTimeBars(let r):
            return ("req_realtime_bars", [
                "req_id": String(r.requestID), "bar_size": String(r.barSize), "what_to_show": r.whatToShow,
                "use_rth": flag(r.useRTH),
            ].merging(contractFields(r.contract)) { a, _ in a })
        case .cancelRealTimeBars(let id): return ("cancel_realtime_bars", ["req_id": String(id)])
        case .historicalData(let r):
            return ("req_historical_bars", [
                "req_id": String(r.requestID), "end_time": r.endDateTime, "bar_size": r.barSizeSetting,
                "duration": r.durationString, "use_rth": flag(r.useRTH), "what_to_show": r.whatToShow,
                "format_date": String(r.formatDate), "keep_up_to_date": flag(r.keepUpToDate),
            ].merging(contractFields(r.contract)) { a, _ in a })
        case .cancelHistoricalData(let id): return ("cancel_historical_data", ["req_id": String(id)])
        case .placeOrder(let id, let contract, let order):
            return ("place_order", orderFields(order).merging(["order_id": String(id)]) { _, b in b }
                .merging(contractFields(contract)) { a, _ in a })
        case .cancelOrder(let id, let options):
            return ("cancel_order", [
                "order_id": String(id), "manual_order_cancel_time": options.manualOrderCancelTime,
                "ext_operator": options.extOperator, "manual_order_indicator": options.manualOrderIndicator.map(String.init) ?? "",
            ])
        case .openOrders: return ("req_open_orders", ["scope": "client"])
        case .allOpenOrders: return ("req_open_orders", ["scope": "all"])
        case .autoOpenOrders(let bind): return ("req_open_orders", ["scope": "auto", "auto_bind": flag(bind)])
        case .positions: return ("req_positions", [:])
        case .cancelPositions: return ("cancel_positions", [:])
        case .accountUpdates(let subscribe, let account):
            return ("req_account_updates", ["subscribe": flag(subscribe), "account": account])
        case .accountSummary(let id, let group, let tags):
            return ("req_account_summary", ["req_id": String(id), "account": group, "tags": tags])
        case .cancelAccountSummary(let id): return ("cancel_account_summary", ["req_id": String(id)])
        case .executions(let id, let filter):
            return ("req_executions", [
                "req_id": String(id), "client_id": String(filter.clientID), "account": filter.accountCode,
                "time": filter.time, "symbol": filter.symbol, "sec_type": filter.securityType, "exchange": filter.exchange,
                "side": filter.side, "last_n_days": filter.lastNDays.map(String.init) ?? "",
            ])
        case .pnl(let id, let account, let model):
            return ("req_pnl", ["req_id": String(id), "account": account, "model_code": model])
        case .cancelPnL(let id): return ("cancel_pnl", ["req_id": String(id)])
        case .pnlSingle(let id, let account, let model, let conID):
            return ("req_pnl_single", ["req_id": String(id), "account": account, "model_code": model, "con_id": String(conID)])
        case .cancelPnLSingle(let id): return ("cancel_pnl_single", ["req_id": String(id)])
        case .globalCancel(let options):
            return ("global_cancel", [
                "ext_operator": options.extOperator,
                "manual_order_indicator": options.manualOrderIndicator.map(String.init) ?? "",
            ])
        case .completedOrders(let apiOnly): return ("req_completed_orders", ["api_only": flag(apiOnly)])
        case .accountUpdatesMulti(let id, let account, let model, let ledger):
            return ("req_account_updates_multi", [
                "req_id": String(id), "account": account, "model_code": model, "ledger_and_nlv": flag(ledger),
            ])
        case .marketRule(let id): return ("req_market_rule", ["market_rule_id": String(id)])
        }
    }

    /// Keys a transcript may carry that describe the wire encoding rather than the request (ibkr-go's field counts).
    static let encodingKeys: Set<String> = ["field_count"]

    static func flag(_ value: Bool) -> String { value ? "1" : "0" }

    static func number(_ value: Double?) -> String {
        guard let value else { return "" }
        return value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    static func contractFields(_ contract: TWSContract) -> [String: String] {
        [
            "contract.con_id": contract.contractID == 0 ? "" : String(contract.contractID),
            "contract.symbol": contract.symbol, "contract.sec_type": contract.securityType,
            "contract.expiry": contract.lastTradeDateOrContractMonth, "contract.strike": number(contract.strike),
            "contract.right": contract.right, "contract.multiplier": contract.multiplier,
            "contract.exchange": contract.exchange, "contract.primary_exchange": contract.primaryExchange,
            "contract.currency": contract.currency, "contract.local_symbol": contract.localSymbol,
            "contract.trading_class": contract.tradingClass,
        ]
    }

    static func orderFields(_ order: TWSOrder) -> [String: String] {
        [
            "action": order.action, "total_quantity": order.totalQuantity.map { "\($0)" } ?? "",
            "order_type": order.orderType, "lmt_price": number(order.limitPrice), "aux_price": number(order.auxPrice),
            "tif": order.timeInForce, "account": order.account, "order_ref": order.orderRef,
            "transmit": flag(order.transmit), "parent_id": order.parentID == 0 ? "" : String(order.parentID),
            "outside_rth": flag(order.outsideRTH), "trailing_percent": number(order.trailingPercent),
            "trail_stop_price": number(order.trailStopPrice), "oca_group": order.ocaGroup,
            "good_till_date": order.goodTillDate, "good_after_time": order.goodAfterTime,
        ]
    }

    /// Whether a step's value and ours mean the same: numbers by value (`10` = `10.0`), booleans by truth (`true` =
    /// `1`), empty = absent.
    static func same(_ expected: String, _ actual: String?) -> Bool {
        let actual = actual ?? ""
        if expected == actual { return true }
        let truth: [String: String] = ["true": "1", "false": "0"]
        if let e = truth[expected.lowercased()], e == actual { return true }
        if let e = Double(expected), let a = Double(actual) { return e == a }
        return false
    }
}
