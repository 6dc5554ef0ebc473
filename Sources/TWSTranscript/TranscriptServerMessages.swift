import Foundation
import TWSProtocol

/// What a `server` step needs besides its own fields: bound values, the client's own ids, and what the session
/// showed before (the orders the client placed, the contracts the server named), so a step that leaves a field out
/// is filled the way TWS fills it.
struct TranscriptContext: Sendable {
    /// `$name` → the text the client sent.
    var bindings: [String: String] = [:]
    /// A transcript's literal order id → the id our client used for that order.
    var orderIDs: [Int: Int] = [:]
    /// The last placeOrder of each order id (our ids): TWS echoes what the client sent (orderRef, account, TIF).
    var placed: [Int: (contract: TWSContract, order: TWSOrder)] = [:]
    /// Contracts by symbol, as the server described them (open orders, contract details, positions).
    var contracts: [String: TWSContract] = [:]
    /// A price of each symbol, the first the recording shows (an order's price, an execution's): the ambient
    /// responder's quote when a test gives none.
    var prices: [String: Double] = [:]
    /// Executions so far per order id (our ids): quantity and notional, for TWS's cumulative quantity and average.
    var executed: [Int: (quantity: Decimal, notional: Double)] = [:]
    /// What each order's server messages said last (our ids): perm id and client id.
    var permIDs: [Int: Int64] = [:]
    var clientIDs: [Int: Int] = [:]
    /// The client id of this connection.
    var clientID = 0
    /// Orders the session showed working (openOrder, not yet ended by an orderStatus), by id: what a gateway lists
    /// for reqOpenOrders.
    var working: [Int: TWSOpenOrder] = [:]
    /// Executions the session showed, with their commission reports: what a gateway gives for reqExecutions.
    var executions: [(contract: TWSContract, execution: TWSExecution)] = []
    var commissions: [String: TWSCommissionReport] = [:]
    /// Writes an execution's time as TWS does (`yyyyMMdd HH:mm:ss <login zone>`).
    var timeText: @Sendable (Date) -> String = TranscriptTimes.utcText

    /// A text with `$name` replaced by what it is bound to.
    func resolve(_ value: TranscriptValue?) -> String? {
        guard let value else { return nil }
        if let name = value.bindingName { return bindings[name] ?? name }
        return value.text
    }

    /// An id field: bound, or a literal order id the client used under another number.
    func id(_ value: TranscriptValue?) -> Int? {
        guard let text = resolve(value), let id = Int(text) else { return nil }
        return orderIDs[id] ?? id
    }
}

/// A `server` step that cannot be sent.
enum TranscriptEncodingFailure: Error, Equatable, CustomStringConvertible {
    /// A message of a feature this client does not offer: no encoder for it.
    case unsupported(String)
    /// A field that does not read as its type.
    case badField(message: String, field: String, value: String)

    var description: String {
        switch self {
        case .unsupported(let name): "\(name) is not a message IBTrader's client reads (a feature it does not offer)"
        case .badField(let message, let field, let value): "\(message).\(field) = \"\(value)\" does not read"
        }
    }
}

/// Builds the TWS messages of `server` steps.
enum TranscriptServerMessages {
    /// The message names the encoder knows (the rest are features this client does not offer).
    static let supported: Set<String> = [
        "next_valid_id", "managed_accounts", "current_time", "api_error", "tick_price", "tick_size", "tick_string",
        "tick_generic", "tick_req_params", "market_data_type", "tick_snapshot_end", "order_status", "open_order",
        "open_order_end", "execution_detail", "executions_end", "commission_report", "position", "position_end",
        "update_account_value", "update_portfolio", "update_account_time", "account_download_end", "account_summary",
        "account_summary_end", "contract_details", "contract_details_end", "historical_bar", "historical_bars_end",
        "historical_bars_range_end", "historical_data_update", "realtime_bar", "pnl", "pnl_single", "completed_order",
        "completed_order_end", "account_update_multi_end", "market_rule",
    ]

    /// The response of one step (`historical_bar` steps are gathered by the player, see `historicalData`).
    static func response(
        _ message: TWSTranscript.Message, context: inout TranscriptContext
    ) throws(TranscriptEncodingFailure) -> TWSResponse {
        var reader = FieldReader(message: message, context: context)
        let f = message.fields
        switch message.name {
        case "next_valid_id":
            return .nextValidID(orderID: try reader.int("order_id"))
        case "managed_accounts":
            return .managedAccounts(accountsList: f.texts("accounts").joined(separator: ","))
        case "current_time":
            return .currentTime(Int64(try reader.int("time")))
        case "api_error":
            let time = reader.text("error_time_ms")
            return .error(TWSErrorMessage(
                requestID: context.id(f["req_id"]) ?? -1, code: try reader.int("code"), message: reader.text("message"),
                advancedOrderRejectJSON: reader.text("advanced_order_reject_json"),
                errorTime: time.isEmpty ? nil : Int64(time)))
        case "tick_price":
            let field = try reader.int("field")
            return .tickPrice(TWSTickPrice(
                requestID: try reader.requestID(), tickType: TWSTickType(rawValue: field), price: try reader.double("price"),
                size: f.has("size") ? try reader.decimal("size") : 0))
        case "tick_size":
            return .tickSize(requestID: try reader.requestID(), tickType: TWSTickType(rawValue: try reader.int("field")),
                             size: try reader.decimal("size"))
        case "tick_string":
            return .tickString(requestID: try reader.requestID(), tickType: TWSTickType(rawValue: try reader.int("field")),
                               value: reader.text("value"))
        case "tick_generic":
            return .tickGeneric(requestID: try reader.requestID(), tickType: TWSTickType(rawValue: try reader.int("field")),
                                value: try reader.double("value"))
        case "tick_req_params":
            return .tickRequestParameters(
                requestID: try reader.requestID(), minTick: try reader.double("min_tick", default: 0.01),
                bboExchange: reader.text("bbo_exchange"), snapshotPermissions: try reader.int("snapshot_permissions", default: 0))
        case "market_data_type":
            return .marketDataType(requestID: try reader.requestID(), marketDataType: try reader.int("data_type"))
        case "tick_snapshot_end":
            return .tickSnapshotEnd(requestID: try reader.requestID())
        case "order_status":
            let id = try reader.orderID()
            let status = TWSOrderStatus(
                orderID: id, status: reader.text("status"), filled: try reader.decimal("filled", default: 0),
                remaining: try reader.decimal("remaining", default: 0),
                averageFillPrice: try reader.double("avg_fill_price", default: 0),
                permID: f.has("perm_id") ? Int64(try reader.int("perm_id")) : context.permIDs[id] ?? 0,
                parentID: context.id(f["parent_id"]) ?? 0, lastFillPrice: try reader.double("last_fill_price", default: 0),
                clientID: f.has("client_id") ? try reader.int("client_id") : context.clientIDs[id] ?? context.clientID,
                whyHeld: reader.text("why_held"), marketCapPrice: try reader.double("mkt_cap_price", default: 0))
            if status.permID != 0 { context.permIDs[id] = status.permID }
            if ["Filled", "Cancelled", "ApiCancelled", "Inactive"].contains(status.status) {
                context.working[id] = nil
            } else if context.working[id] != nil {
                context.working[id]?.orderState.status = status.status
            }
            return .orderStatus(status)
        case "open_order":
            let open = try openOrder(&reader, context: &context)
            if ["Filled", "Cancelled", "ApiCancelled", "Inactive"].contains(open.orderState.status) {
                context.working[open.order.orderID] = nil
            } else {
                context.working[open.order.orderID] = open
            }
            return .openOrder(open)
        case "open_order_end":
            return .openOrderEnd
        case "execution_detail":
            return try executionDetail(&reader, context: &context)
        case "executions_end":
            return .executionDetailsEnd(requestID: try reader.requestID())
        case "commission_report":
            let report = TWSCommissionReport(
                executionID: reader.text("exec_id"), commission: try reader.double("commission", default: 0),
                currency: reader.text("currency", default: "USD"),
                realizedPNL: f.has("realized_pnl") ? try reader.double("realized_pnl") : nil)
            context.commissions[report.executionID] = report
            return .commissionReport(report)
        case "position":
            return .position(
                account: reader.text("account"), contract: try contract(f.object("contract"), context: &context),
                position: try reader.decimal("position"), averageCost: try reader.double("avg_cost", default: 0))
        case "position_end":
            return .positionEnd
        case "update_account_value":
            return .accountValue(key: reader.text("key"), value: reader.text("value"), currency: reader.text("currency"),
                                 accountName: reader.text("account"))
        case "update_portfolio":
            return .portfolioValue(TWSPortfolioValue(
                contract: try contract(f.object("contract"), context: &context), position: try reader.decimal("position"),
                marketPrice: try reader.double("market_price", default: 0), marketValue: try reader.double("market_value", default: 0),
                averageCost: try reader.double("avg_cost", default: 0), unrealizedPNL: try reader.double("unrealized_pnl", default: 0),
                realizedPNL: try reader.double("realized_pnl", default: 0), accountName: reader.text("account")))
        case "update_account_time":
            return .accountTime(reader.text("timestamp"))
        case "account_download_end":
            return .accountDownloadEnd(accountName: reader.text("account"))
        case "account_summary":
            return .accountSummary(requestID: try reader.requestID(), account: reader.text("account"), tag: reader.text("tag"),
                                   value: reader.text("value"), currency: reader.text("currency"))
        case "account_summary_end":
            return .accountSummaryEnd(requestID: try reader.requestID())
        case "contract_details":
            var details = TWSContractDetails(contract: try contract(f.object("contract"), context: &context))
            details.marketName = reader.text("market_name", default: details.contract.tradingClass)
            details.minTick = try reader.double("min_tick", default: 0.01)
            details.longName = reader.text("long_name")
            details.timeZoneID = reader.text("time_zone_id")
            details.tradingHours = reader.text("trading_hours")
            details.liquidHours = reader.text("liquid_hours")
            details.orderTypes = reader.text("order_types")
            details.validExchanges = reader.text("valid_exchanges", default: details.contract.exchange)
            details.priceMagnifier = try reader.int("price_magnifier", default: 1)
            details.marketRuleIDs = reader.text("market_rule_ids")
            details.contractMonth = reader.text("contract_month")
            details.underContractID = try reader.int("under_con_id", default: 0)
            details.minSize = try reader.decimal("min_size", default: 1)
            details.sizeIncrement = try reader.decimal("size_increment", default: 1)
            details.suggestedSizeIncrement = try reader.decimal("suggested_size_increment", default: 1)
            return .contractDetails(requestID: try reader.requestID(), details: details)
        case "contract_details_end":
            return .contractDetailsEnd(requestID: try reader.requestID())
        case "historical_bars_end", "historical_bars_range_end":
            return .historicalDataEnd(requestID: try reader.requestID(), startDate: reader.text("start"), endDate: reader.text("end"))
        case "historical_data_update":
            return .historicalDataUpdate(requestID: try reader.requestID(), bar: try bar(&reader))
        case "realtime_bar":
            let time = reader.text("time")
            let seconds = Int64(time) ?? TranscriptTimes.date(time).map { Int64($0.timeIntervalSince1970) }
            guard let seconds else { throw .badField(message: message.name, field: "time", value: time) }
            return .realTimeBar(requestID: try reader.requestID(), bar: TWSRealTimeBar(
                time: seconds, open: try reader.double("open"), high: try reader.double("high"), low: try reader.double("low"),
                close: try reader.double("close"), volume: try reader.decimal("volume", default: 0),
                wap: try reader.decimal("wap", default: 0), count: try reader.int("count", default: 0)))
        case "pnl":
            return .pnl(requestID: try reader.requestID(), dailyPnL: try reader.optionalDouble("daily_pnl"),
                        unrealizedPnL: try reader.optionalDouble("unrealized_pnl"),
                        realizedPnL: try reader.optionalDouble("realized_pnl"))
        case "pnl_single":
            return .pnlSingle(TWSPnLSingle(
                requestID: try reader.requestID(), position: try reader.decimal("position", default: 0),
                dailyPnL: try reader.optionalDouble("daily_pnl"), unrealizedPnL: try reader.optionalDouble("unrealized_pnl"),
                realizedPnL: try reader.optionalDouble("realized_pnl"), value: try reader.optionalDouble("value")))
        case "completed_order":
            return .completedOrder(try completedOrder(&reader, context: &context))
        case "completed_order_end":
            return .completedOrdersEnd
        case "account_update_multi_end":
            return .accountUpdateMultiEnd(requestID: try reader.requestID())
        case "market_rule":
            let increments = try f.objects("increments").map { item throws(TranscriptEncodingFailure) -> TWSPriceIncrement in
                let row = FieldReader(message: .init(name: message.name, fields: item), context: context)
                return TWSPriceIncrement(lowEdge: try row.double("low_edge"), increment: try row.double("increment"))
            }
            return .marketRule(marketRuleID: try reader.int("market_rule_id"), increments: increments)
        default:
            throw .unsupported(message.name)
        }
    }

    /// One historicalData message of consecutive `historical_bar` steps of one request.
    static func historicalData(
        _ steps: [TWSTranscript.Message], context: TranscriptContext
    ) throws(TranscriptEncodingFailure) -> TWSResponse {
        var bars: [TWSBar] = []
        var requestID = 0
        for step in steps {
            var reader = FieldReader(message: step, context: context)
            requestID = try reader.requestID()
            bars.append(try bar(&reader))
        }
        return .historicalData(requestID: requestID, startDate: nil, endDate: nil, bars: bars)
    }

    private static func bar(_ reader: inout FieldReader) throws(TranscriptEncodingFailure) -> TWSBar {
        TWSBar(
            date: reader.text("time"), open: try reader.double("open"), high: try reader.double("high"),
            low: try reader.double("low"), close: try reader.double("close"), volume: try reader.decimal("volume", default: 0),
            wap: try reader.decimal("wap", default: 0),
            barCount: try reader.int("count", default: try reader.int("bar_count", default: 0)))
    }

    /// A contract as the server describes it: the step's fields over what the session knows of that symbol.
    static func contract(
        _ fields: TranscriptFields, context: inout TranscriptContext
    ) throws(TranscriptEncodingFailure) -> TWSContract {
        let reader = FieldReader(message: .init(name: "contract", fields: fields), context: context)
        let symbol = reader.text("symbol")
        var contract = context.contracts[symbol] ?? TWSContract(symbol: symbol)
        func set(_ key: String, _ path: WritableKeyPath<TWSContract, String>) {
            if fields.has(key) { contract[keyPath: path] = reader.text(key) }
        }
        if fields.has("con_id") { contract.contractID = try reader.int("con_id") }
        set("sec_type", \.securityType)
        set("expiry", \.lastTradeDateOrContractMonth)
        set("last_trade_date_or_contract_month", \.lastTradeDateOrContractMonth)
        set("right", \.right)
        set("multiplier", \.multiplier)
        set("exchange", \.exchange)
        set("primary_exchange", \.primaryExchange)
        set("currency", \.currency)
        set("local_symbol", \.localSymbol)
        set("trading_class", \.tradingClass)
        if fields.has("strike") { contract.strike = try reader.double("strike") }
        if contract.securityType.isEmpty { contract.securityType = "STK" }
        if !symbol.isEmpty { context.contracts[symbol] = contract }
        return contract
    }

    private static func order(
        _ reader: inout FieldReader, id: Int, context: TranscriptContext
    ) throws(TranscriptEncodingFailure) -> TWSOrder {
        let f = reader.message.fields
        // TWS echoes what the client sent; a price the client left unset comes back as 0 (the grounded captures).
        var order = context.placed[id]?.order ?? TWSOrder()
        order.orderID = id
        if f.has("action") { order.action = reader.text("action") }
        if f.has("order_type") { order.orderType = reader.text("order_type") }
        if f.has("quantity") { order.totalQuantity = try reader.decimal("quantity") }
        if f.has("total_quantity") { order.totalQuantity = try reader.decimal("total_quantity") }
        order.limitPrice = f.has("lmt_price") ? try reader.double("lmt_price", default: 0) : order.limitPrice ?? 0
        order.auxPrice = f.has("aux_price") ? try reader.double("aux_price", default: 0) : order.auxPrice ?? 0
        if f.has("trailing_percent") { order.trailingPercent = try reader.optionalDouble("trailing_percent") }
        if f.has("trail_stop_price") { order.trailStopPrice = try reader.optionalDouble("trail_stop_price") }
        if f.has("tif") { order.timeInForce = reader.text("tif") }
        if order.timeInForce.isEmpty { order.timeInForce = "DAY" }
        if f.has("account") { order.account = reader.text("account") }
        if f.has("order_ref") { order.orderRef = reader.text("order_ref") }
        if f.has("origin") { order.origin = try reader.int("origin") }
        if f.has("parent_id") { order.parentID = context.id(f["parent_id"]) ?? 0 }
        if f.has("outside_rth") { order.outsideRTH = reader.text("outside_rth") == "1" || reader.text("outside_rth") == "true" }
        order.permID = f.has("perm_id") ? Int64(try reader.int("perm_id")) : context.permIDs[id] ?? order.permID
        order.clientID = f.has("client_id") ? try reader.int("client_id") : context.clientIDs[id] ?? context.clientID
        return order
    }

    private static func openOrder(
        _ reader: inout FieldReader, context: inout TranscriptContext
    ) throws(TranscriptEncodingFailure) -> TWSOpenOrder {
        let id = try reader.orderID()
        let f = reader.message.fields
        let contract = f.has("contract")
            ? try contract(f.object("contract"), context: &context) : context.placed[id]?.contract ?? TWSContract()
        let order = try order(&reader, id: id, context: context)
        if order.permID != 0 { context.permIDs[id] = order.permID }
        context.clientIDs[id] = order.clientID
        let state = TWSOrderState(status: reader.text("status", default: "Submitted"))
        return TWSOpenOrder(contract: contract, order: order, orderState: state)
    }

    private static func completedOrder(
        _ reader: inout FieldReader, context: inout TranscriptContext
    ) throws(TranscriptEncodingFailure) -> TWSCompletedOrder {
        let f = reader.message.fields
        let id = f.has("order_id") ? try reader.orderID() : 0
        let contract = try contract(f.object("contract"), context: &context)
        var order = try order(&reader, id: id, context: context)
        order.orderID = id
        var completed = TWSCompletedOrder(
            contract: contract, order: order, orderState: TWSOrderState(status: reader.text("status", default: "Filled")))
        completed.filledQuantity = try reader.decimal("filled", default: 0)
        completed.completedTime = reader.text("completed_time")
        completed.completedStatus = reader.text("completed_status", default: completed.orderState.status)
        return completed
    }

    private static func executionDetail(
        _ reader: inout FieldReader, context: inout TranscriptContext
    ) throws(TranscriptEncodingFailure) -> TWSResponse {
        let f = reader.message.fields
        let requestID = f.has("req_id") ? try reader.requestID() : -1
        let id = f.has("order_id") ? try reader.orderID() : 0
        var contractFields = f.object("contract").values
        for key in ["symbol", "sec_type", "con_id", "exchange", "currency", "local_symbol", "expiry", "strike", "right",
                    "multiplier", "trading_class", "primary_exchange"] where f.has(key) {
            contractFields[key] = f[key]
        }
        let contract = try contract(TranscriptFields(contractFields), context: &context)
        var execution = TWSExecution(executionID: reader.text("exec_id"))
        execution.orderID = id
        execution.clientID = f.has("client_id") ? try reader.int("client_id") : context.clientIDs[id] ?? context.clientID
        execution.accountNumber = reader.text("account", default: context.placed[id]?.order.account ?? "")
        execution.exchange = reader.text("exec_exchange", default: contract.exchange.isEmpty ? "SMART" : contract.exchange)
        execution.side = reader.text("side")
        let shares = try reader.decimal("shares") ?? 0
        execution.shares = shares
        execution.price = try reader.double("price")
        execution.permID = f.has("perm_id") ? Int64(try reader.int("perm_id")) : context.permIDs[id] ?? 0
        execution.orderRef = reader.text("order_ref", default: context.placed[id]?.order.orderRef ?? "")
        // TWS sends the order's running total and average with every execution.
        var so_far = context.executed[id] ?? (0, 0)
        so_far.quantity += shares
        so_far.notional += NSDecimalNumber(decimal: shares).doubleValue * execution.price
        if id != 0 { context.executed[id] = so_far }
        execution.cumulativeQuantity = f.has("cum_qty") ? try reader.decimal("cum_qty") : so_far.quantity
        let quantity = NSDecimalNumber(decimal: so_far.quantity).doubleValue
        execution.averagePrice = f.has("avg_price")
            ? try reader.double("avg_price") : quantity > 0 ? so_far.notional / quantity : execution.price
        let time = reader.text("time")
        execution.time = TranscriptTimes.date(time).map(context.timeText) ?? time
        if !context.executions.contains(where: { $0.execution.executionID == execution.executionID }) {
            context.executions.append((contract, execution))
        }
        return .executionDetails(requestID: requestID, contract: contract, execution: execution)
    }

    /// Reads a step's fields as wire values, through the session's bindings and ids.
    struct FieldReader {
        let message: TWSTranscript.Message
        let context: TranscriptContext

        func text(_ key: String, default fallback: String = "") -> String {
            message.fields.has(key) ? context.resolve(message.fields[key]) ?? fallback : fallback
        }

        func int(_ key: String, default fallback: Int? = nil) throws(TranscriptEncodingFailure) -> Int {
            let value = text(key)
            if value.isEmpty, let fallback { return fallback }
            guard let number = Int(value) ?? Double(value).flatMap({ $0 == $0.rounded() ? Int(exactly: $0) : nil }) else {
                throw .badField(message: message.name, field: key, value: value)
            }
            return number
        }

        func double(_ key: String, default fallback: Double? = nil) throws(TranscriptEncodingFailure) -> Double {
            let value = text(key)
            if value.isEmpty, let fallback { return fallback }
            guard let number = Double(value) else { throw .badField(message: message.name, field: key, value: value) }
            return number
        }

        func optionalDouble(_ key: String) throws(TranscriptEncodingFailure) -> Double? {
            text(key).isEmpty ? nil : try double(key)
        }

        func decimal(_ key: String, default fallback: Decimal? = nil) throws(TranscriptEncodingFailure) -> Decimal? {
            let value = text(key)
            if value.isEmpty { return fallback }
            guard let number = Decimal(string: value, locale: Locale(identifier: "en_US_POSIX")) else {
                throw .badField(message: message.name, field: key, value: value)
            }
            return number
        }

        func requestID() throws(TranscriptEncodingFailure) -> Int {
            guard let id = context.id(message.fields["req_id"]) else {
                throw .badField(message: message.name, field: "req_id", value: text("req_id"))
            }
            return id
        }

        func orderID() throws(TranscriptEncodingFailure) -> Int {
            guard let id = context.id(message.fields["order_id"]) else {
                throw .badField(message: message.name, field: "order_id", value: text("order_id"))
            }
            return id
        }
    }
}

/// Time texts of transcripts: ISO instants (`2026-04-15T16:20:50Z`) in, TWS's forms out.
public enum TranscriptTimes {
    /// An ISO 8601 instant (`2026-04-15T16:20:50Z`, with or without fractional seconds); `nil` for anything else.
    public static func date(_ text: String) -> Date? {
        guard text.count >= 20, text.contains("T") else { return nil }
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }

    /// IB's explicit-UTC form, `yyyyMMdd-HH:mm:ss`.
    public static let utcText: @Sendable (Date) -> String = { date in
        zoned(date, zone: TimeZone(secondsFromGMT: 0) ?? .current, name: nil)
    }

    /// `yyyyMMdd HH:mm:ss <name>` in `zone` (the dash form when `name` is `nil`), as TWS writes times in its login zone.
    public static func zoned(_ date: Date, zone: TimeZone, name: String?) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func pad(_ value: Int?, _ width: Int) -> String {
            let text = String(value ?? 0)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        let day = pad(c.year, 4) + pad(c.month, 2) + pad(c.day, 2)
        let time = pad(c.hour, 2) + ":" + pad(c.minute, 2) + ":" + pad(c.second, 2)
        guard let name else { return day + "-" + time }
        return day + " " + time + " " + name
    }
}
