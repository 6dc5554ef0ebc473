import Foundation
import TWSProtocol
import TWSTestSupport

/// A decoded value in the shape the official decoder's callbacks are recorded in (`expect` of the vectors).
indirect enum CallbackValue {
    case int(Int64?)
    case double(Double?)
    case string(String)
    case bool(Bool)
    case decimal(Decimal?)
    case object([String: CallbackValue])
    case list([CallbackValue])
}

/// One callback of IB's official decoder.
struct Callback {
    var name: String
    var args: [String: CallbackValue]
}

/// Turns typed responses into the callbacks the official 10.46 decoder makes for the same message, so the
/// vectors' `expect` can be checked member by member.
enum OfficialCallbacks {
    static func callbacks(for response: TWSResponse) -> [Callback] {
        switch response {
        case .nextValidID(let id): return [Callback(name: "nextValidId", args: ["orderId": int(id)])]
        case .managedAccounts(let list):
            return [Callback(name: "managedAccounts", args: ["accountsList": .string(list)])]
        case .currentTime(let time): return [Callback(name: "currentTime", args: ["time": .int(time)])]
        case .currentTimeInMillis(let time):
            return [Callback(name: "currentTimeInMillis", args: ["timeInMillis": .int(time)])]
        case .error(let e):
            var args: [String: CallbackValue] = [
                "reqId": int(e.requestID), "errorCode": int(e.code), "errorString": .string(e.message),
                "advancedOrderRejectJson": .string(e.advancedOrderRejectJSON),
            ]
            args["errorTime"] = .int(e.errorTime ?? 0)
            return [Callback(name: "error", args: args)]
        case .tickPrice(let tick):
            var out = [Callback(name: "tickPrice", args: [
                "reqId": int(tick.requestID), "tickType": int(tick.tickType.rawValue), "price": .double(tick.price),
                "attrib": .object([
                    "canAutoExecute": .bool(tick.attributes.contains(.canAutoExecute)),
                    "pastLimit": .bool(tick.attributes.contains(.pastLimit)),
                    "preOpen": .bool(tick.attributes.contains(.preOpen)),
                ]),
            ])]
            if let sizeType = tick.tickType.impliedSizeTickType {
                out.append(Callback(name: "tickSize", args: [
                    "reqId": int(tick.requestID), "tickType": int(sizeType.rawValue), "size": .decimal(tick.size),
                ]))
            }
            return out
        case .tickSize(let id, let type, let size):
            return [Callback(name: "tickSize", args: ["reqId": int(id), "tickType": int(type.rawValue),
                                                     "size": .decimal(size)])]
        case .tickString(let id, let type, let value):
            return [Callback(name: "tickString", args: ["reqId": int(id), "tickType": int(type.rawValue),
                                                       "value": .string(value)])]
        case .tickGeneric(let id, let type, let value):
            return [Callback(name: "tickGeneric", args: ["reqId": int(id), "tickType": int(type.rawValue),
                                                        "value": .double(value)])]
        case .tickRequestParameters(let id, let minTick, let exchange, let permissions):
            return [Callback(name: "tickReqParams", args: [
                "tickerId": int(id), "minTick": .double(minTick), "bboExchange": .string(exchange),
                "snapshotPermissions": int(permissions),
            ])]
        case .marketDataType(let id, let type):
            return [Callback(name: "marketDataType", args: ["reqId": int(id), "marketDataType": int(type)])]
        case .tickSnapshotEnd(let id): return [Callback(name: "tickSnapshotEnd", args: ["reqId": int(id)])]
        case .orderStatus(let s):
            return [Callback(name: "orderStatus", args: [
                "orderId": int(s.orderID), "status": .string(s.status), "filled": .decimal(s.filled),
                "remaining": .decimal(s.remaining), "avgFillPrice": .double(s.averageFillPrice),
                "permId": .int(s.permID), "parentId": int(s.parentID), "lastFillPrice": .double(s.lastFillPrice),
                "clientId": int(s.clientID), "whyHeld": .string(s.whyHeld), "mktCapPrice": .double(s.marketCapPrice),
            ])]
        case .openOrder(let o):
            return [Callback(name: "openOrder", args: [
                "orderId": int(o.order.orderID), "contract": contract(o.contract), "order": order(o.order),
                "orderState": orderState(o.orderState),
            ])]
        case .openOrderEnd: return [Callback(name: "openOrderEnd", args: [:])]
        case .executionDetails(let id, let c, let e):
            return [Callback(name: "execDetails", args: ["reqId": int(id), "contract": contract(c),
                                                        "execution": execution(e)])]
        case .executionDetailsEnd(let id): return [Callback(name: "execDetailsEnd", args: ["reqId": int(id)])]
        case .commissionReport(let r):
            return [Callback(name: "commissionAndFeesReport", args: ["commissionAndFeesReport": .object([
                "execId": .string(r.executionID), "commissionAndFees": .double(r.commission),
                "currency": .string(r.currency), "realizedPNL": .double(r.realizedPNL), "yield_": .double(r.yield),
                "yieldRedemptionDate": .int(r.yieldRedemptionDate.map(Int64.init)),
            ])])]
        case .position(let account, let c, let position, let cost):
            return [Callback(name: "position", args: ["account": .string(account), "contract": contract(c),
                                                     "position": .decimal(position), "avgCost": .double(cost)])]
        case .positionEnd: return [Callback(name: "positionEnd", args: [:])]
        case .accountValue(let key, let value, let currency, let account):
            return [Callback(name: "updateAccountValue", args: ["key": .string(key), "val": .string(value),
                                                               "currency": .string(currency),
                                                               "accountName": .string(account)])]
        case .portfolioValue(let p):
            return [Callback(name: "updatePortfolio", args: [
                "contract": contract(p.contract), "position": .decimal(p.position),
                "marketPrice": .double(p.marketPrice), "marketValue": .double(p.marketValue),
                "averageCost": .double(p.averageCost), "unrealizedPNL": .double(p.unrealizedPNL),
                "realizedPNL": .double(p.realizedPNL), "accountName": .string(p.accountName),
            ])]
        case .accountTime(let time): return [Callback(name: "updateAccountTime", args: ["timeStamp": .string(time)])]
        case .accountDownloadEnd(let account):
            return [Callback(name: "accountDownloadEnd", args: ["accountName": .string(account)])]
        case .accountSummary(let id, let account, let tag, let value, let currency):
            return [Callback(name: "accountSummary", args: [
                "reqId": int(id), "account": .string(account), "tag": .string(tag), "value": .string(value),
                "currency": .string(currency),
            ])]
        case .accountSummaryEnd(let id): return [Callback(name: "accountSummaryEnd", args: ["reqId": int(id)])]
        case .contractDetails(let id, let d):
            return [Callback(name: "contractDetails", args: ["reqId": int(id), "contractDetails": details(d)])]
        case .contractDetailsEnd(let id): return [Callback(name: "contractDetailsEnd", args: ["reqId": int(id)])]
        case .historicalData(let id, let start, let end, let bars):
            var out = bars.map { Callback(name: "historicalData", args: ["reqId": int(id), "bar": bar($0)]) }
            if let start, let end {
                out.append(Callback(name: "historicalDataEnd", args: ["reqId": int(id), "start": .string(start),
                                                                     "end": .string(end)]))
            }
            return out
        case .historicalDataEnd(let id, let start, let end):
            return [Callback(name: "historicalDataEnd", args: ["reqId": int(id), "start": .string(start),
                                                              "end": .string(end)])]
        case .historicalDataUpdate(let id, let b):
            return [Callback(name: "historicalDataUpdate", args: ["reqId": int(id), "bar": bar(b)])]
        case .realTimeBar(let id, let b):
            return [Callback(name: "realtimeBar", args: [
                "reqId": int(id), "time": .int(b.time), "open_": .double(b.open), "high": .double(b.high),
                "low": .double(b.low), "close": .double(b.close), "volume": .decimal(b.volume),
                "wap": .decimal(b.wap), "count": int(b.count),
            ])]
        case .pnl(let id, let daily, let unrealized, let realized):
            return [Callback(name: "pnl", args: ["reqId": int(id), "dailyPnL": .double(daily),
                                                "unrealizedPnL": .double(unrealized),
                                                "realizedPnL": .double(realized)])]
        case .pnlSingle(let p):
            return [Callback(name: "pnlSingle", args: [
                "reqId": int(p.requestID), "pos": .decimal(p.position), "dailyPnL": .double(p.dailyPnL),
                "unrealizedPnL": .double(p.unrealizedPnL), "realizedPnL": .double(p.realizedPnL),
                "value": .double(p.value),
            ])]
        case .completedOrdersEnd: return [Callback(name: "completedOrdersEnd", args: [:])]
        case .completedOrder(let c):
            var completedOrder = order(c.order)
            if case .object(var members) = completedOrder {
                members["filledQuantity"] = .decimal(c.filledQuantity)
                completedOrder = .object(members)
            }
            return [Callback(name: "completedOrder", args: [
                "contract": contract(c.contract), "order": completedOrder,
                "orderState": .object([
                    "status": .string(c.orderState.status), "completedTime": .string(c.completedTime),
                    "completedStatus": .string(c.completedStatus),
                ]),
            ])]
        case .accountUpdateMultiEnd(let id):
            return [Callback(name: "accountUpdateMultiEnd", args: ["reqId": int(id)])]
        case .marketRule(let id, let increments):
            // As `marketrule.jsonl` records it (its own capture script): the bands as lowEdge / increment objects.
            return [Callback(name: "marketRule", args: [
                "marketRuleId": int(id),
                "priceIncrements": .list(increments.map {
                    .object(["lowEdge": .double($0.lowEdge), "increment": .double($0.increment)])
                }),
            ])]
        }
    }

    static func int(_ value: Int) -> CallbackValue { .int(Int64(value)) }
    static func int(_ value: Int?) -> CallbackValue { .int(value.map(Int64.init)) }

    static func contract(_ c: TWSContract) -> CallbackValue {
        .object([
            "conId": int(c.contractID), "symbol": .string(c.symbol), "secType": .string(c.securityType),
            "lastTradeDateOrContractMonth": .string(c.lastTradeDateOrContractMonth),
            "lastTradeDate": .string(c.lastTradeDate), "strike": .double(c.strike), "right": .string(c.right),
            "multiplier": .string(c.multiplier), "exchange": .string(c.exchange),
            "primaryExchange": .string(c.primaryExchange), "currency": .string(c.currency),
            "localSymbol": .string(c.localSymbol), "tradingClass": .string(c.tradingClass),
            "includeExpired": .bool(c.includeExpired), "secIdType": .string(c.securityIDType),
            "secId": .string(c.securityID), "issuerId": .string(c.issuerID),
            "comboLegsDescrip": .string(c.comboLegsDescription),
        ])
    }

    static func order(_ o: TWSOrder) -> CallbackValue {
        .object([
            "orderId": int(o.orderID), "clientId": int(o.clientID), "permId": .int(o.permID),
            "action": .string(o.action), "totalQuantity": .decimal(o.totalQuantity), "orderType": .string(o.orderType),
            "lmtPrice": .double(o.limitPrice), "auxPrice": .double(o.auxPrice), "tif": .string(o.timeInForce),
            "ocaGroup": .string(o.ocaGroup), "ocaType": int(o.ocaType), "account": .string(o.account),
            "openClose": .string(o.openClose), "origin": int(o.origin), "orderRef": .string(o.orderRef),
            "transmit": .bool(o.transmit), "parentId": int(o.parentID), "displaySize": int(o.displaySize),
            "outsideRth": .bool(o.outsideRTH), "hidden": .bool(o.hidden),
            "discretionaryAmt": .double(o.discretionaryAmount), "volatilityType": int(o.volatilityType),
            "deltaNeutralOrderType": .string(o.deltaNeutralOrderType),
            "deltaNeutralOpenClose": .string(o.deltaNeutralOpenClose),
            "referencePriceType": int(o.referencePriceType), "trailStopPrice": .double(o.trailStopPrice),
            "trailingPercent": .double(o.trailingPercent), "clearingIntent": .string(o.clearingIntent),
            "adjustedOrderType": .string(o.adjustedOrderType), "cashQty": .double(o.cashQuantity),
            "usePriceMgmtAlgo": o.usePriceManagementAlgo.map { .bool($0) } ?? .int(nil),
            "triggerPrice": .double(o.triggerPrice), "exemptCode": int(o.exemptCode),
            "scaleInitLevelSize": int(o.scaleInitLevelSize), "scaleSubsLevelSize": int(o.scaleSubsLevelSize),
            "manualOrderIndicator": int(o.manualOrderIndicator),
            "smartComboRoutingParams": .list(o.smartComboRoutingParams.map {
                .object(["tag": .string($0.tag), "value": .string($0.value)])
            }),
        ])
    }

    static func orderState(_ s: TWSOrderState) -> CallbackValue {
        .object([
            "status": .string(s.status), "initMarginBefore": .string(s.initMarginBefore),
            "maintMarginBefore": .string(s.maintMarginBefore), "equityWithLoanBefore": .string(s.equityWithLoanBefore),
            "initMarginChange": .string(s.initMarginChange), "maintMarginChange": .string(s.maintMarginChange),
            "equityWithLoanChange": .string(s.equityWithLoanChange), "initMarginAfter": .string(s.initMarginAfter),
            "maintMarginAfter": .string(s.maintMarginAfter), "equityWithLoanAfter": .string(s.equityWithLoanAfter),
            "commission": .double(s.commission), "commissionCurrency": .string(s.commissionCurrency),
            "warningText": .string(s.warningText),
        ])
    }

    static func execution(_ e: TWSExecution) -> CallbackValue {
        .object([
            "orderId": int(e.orderID), "clientId": int(e.clientID), "execId": .string(e.executionID),
            "time": .string(e.time), "acctNumber": .string(e.accountNumber), "exchange": .string(e.exchange),
            "side": .string(e.side), "shares": .decimal(e.shares), "price": .double(e.price), "permId": .int(e.permID),
            "liquidation": int(e.liquidation), "cumQty": .decimal(e.cumulativeQuantity),
            "avgPrice": .double(e.averagePrice), "orderRef": .string(e.orderRef), "evRule": .string(e.evRule),
            "evMultiplier": .double(e.evMultiplier), "modelCode": .string(e.modelCode),
            "lastLiquidity": int(e.lastLiquidity), "pendingPriceRevision": .bool(e.pendingPriceRevision),
            "submitter": .string(e.submitter),
        ])
    }

    static func details(_ d: TWSContractDetails) -> CallbackValue {
        .object([
            "contract": contract(d.contract), "marketName": .string(d.marketName), "minTick": .double(d.minTick),
            "orderTypes": .string(d.orderTypes), "validExchanges": .string(d.validExchanges),
            "priceMagnifier": int(d.priceMagnifier), "underConId": int(d.underContractID),
            "longName": .string(d.longName), "contractMonth": .string(d.contractMonth), "industry": .string(d.industry),
            "category": .string(d.category), "subcategory": .string(d.subcategory), "timeZoneId": .string(d.timeZoneID),
            "tradingHours": .string(d.tradingHours), "liquidHours": .string(d.liquidHours),
            "evRule": .string(d.evRule), "evMultiplier": int(d.evMultiplier),
            "secIdList": .list(d.securityIDList.map { .object(["tag": .string($0.tag), "value": .string($0.value)]) }),
            "aggGroup": int(d.aggregationGroup), "underSymbol": .string(d.underSymbol),
            "underSecType": .string(d.underSecurityType), "marketRuleIds": .string(d.marketRuleIDs),
            "realExpirationDate": .string(d.realExpirationDate), "stockType": .string(d.stockType),
            "minSize": .decimal(d.minSize), "sizeIncrement": .decimal(d.sizeIncrement),
            "suggestedSizeIncrement": .decimal(d.suggestedSizeIncrement), "lastTradeTime": .string(d.lastTradeTime),
        ])
    }

    static func bar(_ b: TWSBar) -> CallbackValue {
        .object([
            "date": .string(b.date), "open": .double(b.open), "high": .double(b.high), "low": .double(b.low),
            "close": .double(b.close), "volume": .decimal(b.volume), "wap": .decimal(b.wap),
            "barCount": int(b.barCount),
        ])
    }
}

/// Compares a recorded `expect` value with ours; returns a description of each mismatch.
enum CallbackComparison {
    /// Recorded members that describe Python enum defaults of the official objects, not wire data.
    static let ignoredMembers: Set<String> = [
        "optExerciseOrLapseType", "fundAssetType", "fundDistributionPolicyIndicator",
    ]

    static func compare(_ expected: TWSJSON, _ actual: CallbackValue, path: String) -> [String] {
        if let text = expected.string, text.hasPrefix("UNSET_") {
            switch actual {
            case .int(nil), .double(nil), .decimal(nil): return []
            default: return ["\(path): expected unset, got \(actual)"]
            }
        }
        if let object = expected.object, let decimalText = object["decimal"]?.string {
            guard case .decimal(let value) = actual, value == Decimal(string: decimalText) else {
                return ["\(path): expected decimal \(decimalText), got \(actual)"]
            }
            return []
        }
        if let object = expected.object, let members = object["non_default"]?.object {
            guard case .object(let ours) = actual else { return ["\(path): expected an object, got \(actual)"] }
            var issues: [String] = []
            for (key, value) in members where !ignoredMembers.contains(key) {
                guard let mine = ours[key] else {
                    issues.append("\(path).\(key): not modelled")
                    continue
                }
                issues += compare(value, mine, path: "\(path).\(key)")
            }
            return issues
        }
        switch (expected, actual) {
        case (.bool(let e), .bool(let a)): return e == a ? [] : ["\(path): \(e) != \(a)"]
        case (.string(let e), .string(let a)): return e == a ? [] : ["\(path): '\(e)' != '\(a)'"]
        case (.array(let e), .list(let a)):
            guard e.count == a.count else { return ["\(path): \(e.count) elements, ours \(a.count)"] }
            return zip(e, a).enumerated().flatMap { compare($0.element.0, $0.element.1, path: "\(path)[\($0.offset)]") }
        case (_, .int(let a)):
            if let e = expected.double, a.map(Double.init) == e || (a == nil && e == Double(Int32.max)) { return [] }
            return ["\(path): \(expected) != \(String(describing: a))"]
        case (_, .double(let a)):
            if let e = expected.double, a == e || (a == nil && e == .greatestFiniteMagnitude) { return [] }
            if expected.string == "Infinity", a == .infinity { return [] }
            return ["\(path): \(expected) != \(String(describing: a))"]
        default:
            return ["\(path): \(expected) does not match \(actual)"]
        }
    }

    /// Checks the whole callback list of one decoder.
    static func check(_ expected: [TWSJSON], against ours: [Callback]) -> [String] {
        guard expected.count == ours.count else {
            return ["\(expected.count) callbacks expected, ours \(ours.count): \(ours.map(\.name))"]
        }
        var issues: [String] = []
        for (recorded, mine) in zip(expected, ours) {
            let name = recorded["callback"]?.string ?? "?"
            guard name == mine.name else {
                issues.append("callback \(name) expected, ours \(mine.name)")
                continue
            }
            for (key, value) in recorded["args"]?.object ?? [:] {
                guard let actual = mine.args[key] else {
                    issues.append("\(name).\(key): not modelled")
                    continue
                }
                issues += compare(value, actual, path: "\(name).\(key)")
            }
        }
        return issues
    }
}
