import Foundation
import NIOCore
import Testing
import TWSProtocol

/// completedOrder (101), checked against a field list laid out by hand in the order of the official client's
/// `processCompletedOrderMsg` (ibapi 10.x, with the message version unset so every `version >= n` branch is taken)
/// and ib_async 2.1's `completedOrder` (up to v178).
@Suite struct TWSCompletedOrderTests {
    /// The fields after the message id, named like the official decoder's calls; the version gates as there.
    static func fields(serverVersion v: Int, orderRef: String = "IBT:1700000000:O-3") -> [(String, String)] {
        var f: [(String, String)] = [
            ("conId", "265598"), ("symbol", "AAPL"), ("secType", "STK"), ("lastTradeDate", ""), ("strike", "0.0"),
            ("right", ""), ("multiplier", ""), ("exchange", "SMART"), ("currency", "USD"), ("localSymbol", "AAPL"),
            ("tradingClass", "NMS"), ("action", "BUY"), ("totalQuantity", "100"), ("orderType", "LMT"),
            ("lmtPrice", "150.25"), ("auxPrice", ""), ("tif", "DAY"), ("ocaGroup", ""), ("account", "DU1234567"),
            ("openClose", ""), ("origin", "0"), ("orderRef", orderRef), ("permId", "1234567890"),
            ("outsideRth", "0"), ("hidden", "0"), ("discretionaryAmt", "0"), ("goodAfterTime", ""),
            ("faGroup", ""), ("faMethod", ""), ("faPercentage", ""),
        ]
        if v < 177 { f.append(("faProfile", "")) }
        f += [
            ("modelCode", ""), ("goodTillDate", ""), ("rule80A", ""), ("percentOffset", ""), ("settlingFirm", ""),
            ("shortSaleSlot", "0"), ("designatedLocation", ""), ("exemptCode", "-1"), ("startingPrice", ""),
            ("stockRefPrice", ""), ("delta", ""), ("stockRangeLower", ""), ("stockRangeUpper", ""),
            ("displaySize", "2147483647"), ("sweepToFill", "0"), ("allOrNone", "0"), ("minQty", ""),
            ("ocaType", "0"), ("triggerMethod", "0"), ("volatility", ""), ("volatilityType", ""),
            ("deltaNeutralOrderType", ""), ("deltaNeutralAuxPrice", ""), ("continuousUpdate", "0"),
            ("referencePriceType", ""), ("trailStopPrice", ""), ("trailingPercent", ""), ("comboLegsDescrip", ""),
            ("comboLegsCount", "0"), ("orderComboLegsCount", "0"), ("smartComboRoutingParamsCount", "0"),
            ("scaleInitLevelSize", "2147483647"), ("scaleSubsLevelSize", "2147483647"), ("scalePriceIncrement", ""),
            ("hedgeType", ""), ("clearingAccount", ""), ("clearingIntent", ""), ("notHeld", "0"),
            ("deltaNeutralContractPresent", "0"), ("algoStrategy", ""), ("solicited", "0"),
            ("status", "Filled"), ("randomizeSize", "0"), ("randomizePrice", "0"), ("conditionsCount", "0"),
            ("trailStopPrice", ""), ("lmtPriceOffset", ""), ("cashQty", ""), ("dontUseAutoPriceForHedge", "1"),
            ("isOmsContainer", "0"), ("autoCancelDate", ""), ("filledQuantity", "100"), ("refFuturesConId", ""),
            ("autoCancelParent", "0"), ("shareholder", ""), ("imbalanceOnly", "0"), ("routeMarketableToBbo", "0"),
            ("parentPermId", ""), ("completedTime", "20240105 15:30:01 America/New_York"),
            ("completedStatus", "Filled Size: 100"), ("minTradeQty", ""), ("minCompeteSize", ""),
            ("competeAgainstBestOffset", ""), ("midOffsetAtWhole", ""), ("midOffsetAtHalf", ""),
        ]
        if v >= 183 { f.append(("customerAccount", "")) }
        if v >= 184 { f.append(("professionalCustomer", "0")) }
        if v >= 198 { f.append(("submitter", "")) }
        return f
    }

    static func payload(_ fields: [String]) -> ByteBuffer {
        ByteBuffer(string: (["101"] + fields).map { $0 + "\0" }.joined())
    }

    @Test(arguments: [176, 178, 200])
    func decodesTheOfficialFieldOrderAndReencodesIt(serverVersion: Int) throws {
        let named = Self.fields(serverVersion: serverVersion)
        let decoded = try TWSResponse.decode(payload: Self.payload(named.map(\.1)), serverVersion: serverVersion)
        guard case .completedOrder(let completed) = decoded else {
            Issue.record("expected completedOrder, got \(decoded)")
            return
        }
        #expect(decoded.messageName == "completedOrder")
        #expect(completed.contract.symbol == "AAPL" && completed.contract.contractID == 265598)
        #expect(completed.order.orderRef == "IBT:1700000000:O-3")
        #expect(completed.order.permID == 1_234_567_890)
        #expect(completed.order.action == "BUY" && completed.order.totalQuantity == 100)
        #expect(completed.order.limitPrice == 150.25 && completed.order.auxPrice == nil)
        #expect(completed.order.displaySize == nil)
        #expect(completed.order.dontUseAutoPriceForHedge)
        #expect(completed.orderState.status == "Filled")
        #expect(completed.filledQuantity == 100)
        #expect(completed.completedTime == "20240105 15:30:01 America/New_York")
        #expect(completed.completedStatus == "Filled Size: 100")
        #expect(completed.parentPermID == nil)
        // The simulator side writes the same fields back.
        let ours = TWSFrame.fields(of: try decoded.encodePayload(serverVersion: serverVersion))
        #expect(ours == ["101"] + named.map(\.1))
    }

    @Test func aFieldMissingOrLeftOverIsAnError() {
        var fields = Self.fields(serverVersion: 200).map(\.1)
        fields.removeLast()
        #expect(throws: TWSDecodingError.self) {
            _ = try TWSResponse.decode(payload: Self.payload(fields), serverVersion: 200)
        }
        // The v200 layout read as v178 leaves customerAccount, professionalCustomer and submitter over.
        #expect(throws: TWSDecodingError.self) {
            _ = try TWSResponse.decode(payload: Self.payload(Self.fields(serverVersion: 200).map(\.1)), serverVersion: 178)
        }
    }

    @Test func orderConditionsAreRefusedNotMisread() throws {
        var named = Self.fields(serverVersion: 200)
        let k = try #require(named.firstIndex { $0.0 == "conditionsCount" })
        named[k].1 = "1"
        #expect(throws: TWSDecodingError.self) {
            _ = try TWSResponse.decode(payload: Self.payload(named.map(\.1)), serverVersion: 200)
        }
    }

    @Test func theDeltaNeutralBranchReadsFourFieldsWithoutOpenOrderAttributes() throws {
        var named = Self.fields(serverVersion: 200)
        let k = try #require(named.firstIndex { $0.0 == "deltaNeutralOrderType" })
        named[k].1 = "LMT"
        named.insert(contentsOf: [("dnConId", "12"), ("dnShortSale", "1"), ("dnShortSaleSlot", "2"), ("dnLoc", "X")],
                     at: k + 2)
        let decoded = try TWSResponse.decode(payload: Self.payload(named.map(\.1)), serverVersion: 200)
        guard case .completedOrder(let completed) = decoded else {
            Issue.record("expected completedOrder")
            return
        }
        #expect(completed.order.deltaNeutralContractID == 12 && completed.order.deltaNeutralShortSale)
        #expect(completed.order.deltaNeutralDesignatedLocation == "X")
        #expect(TWSFrame.fields(of: try decoded.encodePayload(serverVersion: 200)) == ["101"] + named.map(\.1))
    }
}
