import Foundation
import TWSProtocol

extension TWSArbitrary {
    /// A random request valid at `version` (every case of `TWSRequest` is reachable).
    public mutating func request(serverVersion v: Int) -> TWSRequest {
        switch int(0...31) {
        case 0: return .startAPI(clientID: int(), optionalCapabilities: text())
        case 1: return .requestIDs(count: int())
        case 2: return .currentTime
        case 3: return v >= TWSServerVersion.currentTimeInMillis ? .currentTimeInMillis : .managedAccounts
        case 4: return .managedAccounts
        case 5:
            var contract = requestContract()
            contract.includeExpired = chance()
            contract.securityIDType = text()
            contract.securityID = text()
            if v >= TWSServerVersion.bondIssuerID { contract.issuerID = text() }
            return .contractDetails(requestID: int(), contract: contract)
        case 6:
            var contract = requestContract()
            if chance(0.3) {
                contract.securityType = "BAG"
                contract.comboLegs = shortComboLegs()
            }
            contract.deltaNeutralContract = deltaNeutralContract()
            return .marketData(TWSMarketDataRequest(requestID: int(), contract: contract, genericTickList: text(),
                                                    snapshot: chance(), regulatorySnapshot: chance(),
                                                    options: tagValues()))
        case 7: return .cancelMarketData(requestID: int())
        case 8: return .marketDataType(int(1...4))
        case 9:
            return .realTimeBars(TWSRealTimeBarsRequest(requestID: int(), contract: requestContract(), barSize: 5,
                                                        whatToShow: pick(["TRADES", "MIDPOINT"]), useRTH: chance(),
                                                        options: tagValues()))
        case 10: return .cancelRealTimeBars(requestID: int())
        case 11:
            var contract = requestContract()
            contract.includeExpired = chance()
            if chance(0.3) {
                contract.securityType = "BAG"
                contract.comboLegs = shortComboLegs()
            }
            return .historicalData(TWSHistoricalDataRequest(
                requestID: int(), contract: contract, endDateTime: text(), durationString: text(),
                barSizeSetting: text(), whatToShow: text(), useRTH: chance(), formatDate: int(1...2),
                keepUpToDate: chance(), chartOptions: tagValues()))
        case 12: return .cancelHistoricalData(requestID: int())
        case 13, 14, 15: return placeOrder(serverVersion: v)
        case 16:
            var cancel = TWSOrderCancel(manualOrderCancelTime: text())
            if v >= TWSServerVersion.cmeTaggingFields {
                cancel.extOperator = text()
                cancel.manualOrderIndicator = optionalInt()
            }
            return .cancelOrder(orderID: int(), cancel)
        case 17: return pick([.openOrders, .allOpenOrders, .positions, .cancelPositions])
        case 18: return .autoOpenOrders(autoBind: chance())
        case 19: return .accountUpdates(subscribe: chance(), accountCode: text())
        case 20: return .accountSummary(requestID: int(), group: text(), tags: text())
        case 21: return .cancelAccountSummary(requestID: int())
        case 22:
            var filter = TWSExecutionFilter()
            filter.clientID = int()
            filter.accountCode = text()
            filter.time = text()
            filter.symbol = text()
            filter.securityType = text()
            filter.exchange = text()
            filter.side = text()
            if v >= TWSServerVersion.parametrizedDaysOfExecutions {
                filter.lastNDays = optionalInt()
                filter.specificDates = (0..<int(0...3)).map { _ in int(20_000_101...20_991_231) }
            }
            return .executions(requestID: int(), filter: filter)
        case 23: return .pnl(requestID: int(), account: text(), modelCode: text())
        case 24: return .cancelPnL(requestID: int())
        case 25: return .pnlSingle(requestID: int(), account: text(), modelCode: text(), contractID: int())
        case 26: return .cancelPnLSingle(requestID: int())
        case 27:
            var cancel = TWSOrderCancel()
            if v >= TWSServerVersion.cmeTaggingFields {
                cancel.extOperator = text()
                cancel.manualOrderIndicator = optionalInt()
            }
            return .globalCancel(cancel)
        case 28: return .completedOrders(apiOnly: chance())
        case 29: return .marketRule(marketRuleID: int(0...100_000))
        default:
            return .accountUpdatesMulti(requestID: int(), account: text(), modelCode: text(), ledgerAndNLV: chance())
        }
    }

    /// A random response valid at `version` (every case of `TWSResponse` is reachable).
    public mutating func response(serverVersion v: Int) -> TWSResponse {
        switch int(0...36) {
        case 0: return .nextValidID(orderID: int(1...1_000_000))  // TWSValueRange.orderIDs
        case 1: return .managedAccounts(accountsList: text())
        case 2: return .currentTime(Int64(int()))
        case 3: return v >= TWSServerVersion.currentTimeInMillis ? .currentTimeInMillis(Int64(int())) : .positionEnd
        case 4:
            var error = TWSErrorMessage(
                requestID: int(-1...100_000), code: int(100...20_000), message: text(maxLength: 40),
                advancedOrderRejectJSON: chance() ? "" : "{\"k\":\"\(listSafeText())\"}")
            if v >= TWSServerVersion.errorTime { error.errorTime = Int64(int(0...Int(Int32.max))) * 1_000 }
            return .error(error)
        case 5:
            return .tickPrice(TWSTickPrice(requestID: int(), tickType: TWSTickType(rawValue: int(0...100)),
                                           price: double(), size: optionalDecimal(),
                                           attributes: TWSTickAttributes(rawValue: int(0...7))))
        case 6:
            return .tickSize(requestID: int(), tickType: TWSTickType(rawValue: int(0...100)), size: optionalDecimal())
        case 7: return .tickString(requestID: int(), tickType: TWSTickType(rawValue: int(0...100)), value: text())
        case 8: return .tickGeneric(requestID: int(), tickType: TWSTickType(rawValue: int(0...100)), value: double())
        case 9:
            return .tickRequestParameters(requestID: int(), minTick: double(), bboExchange: text(),
                                          snapshotPermissions: int())
        case 10: return .marketDataType(requestID: int(), marketDataType: int(1...4))
        case 11: return .tickSnapshotEnd(requestID: int())
        case 12:
            return .orderStatus(TWSOrderStatus(
                orderID: int(), status: text(), filled: optionalDecimal(), remaining: optionalDecimal(),
                averageFillPrice: double(), permID: Int64(int()) * 3_000, parentID: int(), lastFillPrice: double(),
                clientID: int(), whyHeld: text(), marketCapPrice: double()))
        case 13, 14: return .openOrder(openOrder(serverVersion: v))
        case 15: return .openOrderEnd
        case 16: return executionDetails(serverVersion: v)
        case 17: return .executionDetailsEnd(requestID: int())
        case 18:
            return .commissionReport(TWSCommissionReport(
                executionID: text(), commission: double(), currency: text(), realizedPNL: optionalDouble(),
                yield: optionalDouble(), yieldRedemptionDate: optionalInt()))
        case 19:
            return .position(account: text(), contract: responseContract(primaryExchange: false),
                             position: optionalDecimal(), averageCost: double())
        case 20: return .accountValue(key: text(), value: text(), currency: text(), accountName: text())
        case 21:
            return .portfolioValue(TWSPortfolioValue(
                contract: responseContract(primaryExchange: true), position: optionalDecimal(), marketPrice: double(),
                marketValue: double(), averageCost: double(), unrealizedPNL: double(), realizedPNL: double(),
                accountName: text()))
        case 22: return .accountTime(text())
        case 23: return .accountDownloadEnd(accountName: text())
        case 24:
            return .accountSummary(requestID: int(), account: text(), tag: text(), value: text(), currency: text())
        case 25: return .accountSummaryEnd(requestID: int())
        case 26: return .contractDetails(requestID: int(), details: contractDetails(serverVersion: v))
        case 27: return .contractDetailsEnd(requestID: int())
        case 28:
            let dated = v < TWSServerVersion.historicalDataEnd
            return .historicalData(requestID: int(), startDate: dated ? text() : nil, endDate: dated ? text() : nil,
                                   bars: (0..<int(0...4)).map { _ in bar() })
        case 29:
            return v >= TWSServerVersion.historicalDataEnd
                ? .historicalDataEnd(requestID: int(), startDate: text(), endDate: text()) : .openOrderEnd
        case 30: return .historicalDataUpdate(requestID: int(), bar: bar())
        case 31:
            return .realTimeBar(requestID: int(), bar: TWSRealTimeBar(
                time: Int64(int(0...2_000_000_000)), open: double(), high: double(), low: double(), close: double(),
                volume: optionalDecimal(), wap: optionalDecimal(), count: int()))
        case 32:
            return .pnl(requestID: int(), dailyPnL: optionalDouble(), unrealizedPnL: optionalDouble(),
                        realizedPnL: optionalDouble())
        case 33:
            return .pnlSingle(TWSPnLSingle(requestID: int(), position: optionalDecimal(), dailyPnL: optionalDouble(),
                                           unrealizedPnL: optionalDouble(), realizedPnL: optionalDouble(),
                                           value: optionalDouble()))
        case 34: return .completedOrdersEnd
        case 35:
            // Bands of a market rule: edges and increments as TWS writes them (finite, not negative).
            return .marketRule(marketRuleID: int(0...100_000), increments: (0..<int(0...4)).map { _ in
                TWSPriceIncrement(lowEdge: Double(int(0...1_000_000)) / 100, increment: Double(int(1...10_000)) / 10_000)
            })
        default: return .accountUpdateMultiEnd(requestID: int())
        }
    }

    mutating func bar() -> TWSBar {
        TWSBar(date: text(), open: double(), high: double(), low: double(), close: double(), volume: optionalDecimal(),
               wap: optionalDecimal(), barCount: int())
    }

    mutating func executionDetails(serverVersion v: Int) -> TWSResponse {
        var e = TWSExecution(executionID: text())
        e.orderID = int()
        e.clientID = int()
        e.time = text()
        e.accountNumber = text()
        e.exchange = text()
        e.side = pick(["BOT", "SLD"])
        e.shares = optionalDecimal()
        e.price = double()
        e.permID = Int64(int()) * 5_000
        e.liquidation = int(0...1)
        e.cumulativeQuantity = optionalDecimal()
        e.averagePrice = double()
        e.orderRef = text()
        e.evRule = text()
        e.evMultiplier = optionalDouble()
        e.modelCode = text()
        e.lastLiquidity = int(0...3)
        if v >= TWSServerVersion.pendingPriceRevision { e.pendingPriceRevision = chance() }
        if v >= TWSServerVersion.submitter { e.submitter = text() }
        return .executionDetails(requestID: int(-1...10_000), contract: responseContract(primaryExchange: false),
                                 execution: e)
    }

    mutating func contractDetails(serverVersion v: Int) -> TWSContractDetails {
        var contract = TWSContract(contractID: int(0...900_000_000), symbol: text(),
                                   securityType: pick(["STK", "FUT", "OPT", "FUND"]), exchange: text(),
                                   primaryExchange: text(), currency: text(maxLength: 3))
        contract.lastTradeDateOrContractMonth = digits()
        if v >= TWSServerVersion.lastTradeDate { contract.lastTradeDate = digits() }
        contract.strike = chance() ? nil : double()
        contract.right = pick(["", "C", "P"])
        contract.localSymbol = text()
        contract.tradingClass = text()
        contract.multiplier = multiplier()
        var d = TWSContractDetails(contract: contract)
        if !contract.lastTradeDateOrContractMonth.isEmpty && chance() { d.lastTradeTime = "08:30" }
        d.marketName = text()
        d.minTick = double()
        d.orderTypes = text()
        d.validExchanges = text()
        d.priceMagnifier = int()
        d.underContractID = int()
        d.longName = text()
        d.contractMonth = text()
        d.industry = text()
        d.category = text()
        d.subcategory = text()
        d.timeZoneID = text()
        d.tradingHours = text()
        d.liquidHours = text()
        d.evRule = text()
        d.evMultiplier = optionalInt()
        d.securityIDList = tagValues()
        d.aggregationGroup = optionalInt()
        d.underSymbol = text()
        d.underSecurityType = text()
        d.marketRuleIDs = text()
        d.realExpirationDate = text()
        d.stockType = text()
        d.minSize = optionalDecimal()
        d.sizeIncrement = optionalDecimal()
        d.suggestedSizeIncrement = optionalDecimal()
        if v >= 179 && contract.securityType == "FUND" { d.fundFields = (0..<17).map { _ in text() } }
        if v >= TWSServerVersion.ineligibilityReasons { d.ineligibilityReasons = tagValues() }
        return d
    }
}
