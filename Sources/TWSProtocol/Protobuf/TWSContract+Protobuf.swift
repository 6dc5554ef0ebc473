import Foundation

/// The protobuf `Contract` (fields 1–21) as requests carry it, with the official client's presence rules: `conId`
/// always, `strike` unless unset, `multiplier` as a double, strings only when not empty, `includeExpired` only when
/// true, the combo legs (with their per-leg prices from the order) and the delta-neutral contract when there are any.
extension TWSContract {
    /// Writes the request contract's fields. `legPrices` are placeOrder's per-leg prices.
    func writeProtobuf(into w: inout TWSProtobufWriter, legPrices: [Double?] = []) {
        w.int32(1, contractID)
        w.string(2, symbol)
        w.string(3, securityType)
        w.string(4, lastTradeDateOrContractMonth)
        w.double(5, strike)
        w.string(6, right)
        if !multiplier.isEmpty, let value = Double(multiplier) { w.double(7, value) }
        w.string(8, exchange)
        w.string(9, primaryExchange)
        w.string(10, currency)
        w.string(11, localSymbol)
        w.string(12, tradingClass)
        w.string(13, securityIDType)
        w.string(14, securityID)
        w.string(16, issuerID)
        if let neutral = deltaNeutralContract {
            w.message(17) { inner in
                inner.int32(1, neutral.contractID)
                inner.double(2, neutral.delta)
                inner.double(3, neutral.price)
            }
        }
        w.boolIfTrue(18, includeExpired)
        w.string(19, comboLegsDescription)
        for (index, leg) in comboLegs.enumerated() {
            w.message(20) { inner in
                inner.int32(1, leg.contractID)
                inner.int32(2, leg.ratio)
                inner.string(3, leg.action)
                inner.string(4, leg.exchange)
                inner.int32(5, leg.openClose)
                inner.int32(6, leg.shortSaleSlot)
                inner.string(7, leg.designatedLocation)
                inner.int32(8, leg.exemptCode)
                inner.double(9, index < legPrices.count ? legPrices[index] : nil)
            }
        }
    }

    /// Throws when the multiplier is not a number (protobuf carries it as a double; the official client fails on
    /// it too).
    func checkProtobufMultiplier(_ message: String) throws(TWSEncodingError) {
        if !multiplier.isEmpty && Double(multiplier) == nil {
            throw .unrepresentable(message: message, field: "multiplier", value: multiplier)
        }
    }

    /// Reads a protobuf `Contract` (requests and responses alike). `legPrices` receives the per-leg prices.
    static func readProtobuf(
        _ reader: inout TWSProtobufReader,
        legPrices: inout [Double?]
    ) throws(TWSDecodingError) -> TWSContract {
        var contract = TWSContract()
        while let field = try reader.next() {
            switch field.number {
            case 1: contract.contractID = try field.int32()
            case 2: contract.symbol = try field.string()
            case 3: contract.securityType = try field.string()
            case 4: contract.lastTradeDateOrContractMonth = try field.string()
            case 5: contract.strike = Self.strike(try field.double())
            case 6: contract.right = try field.string()
            case 7: contract.multiplier = Self.multiplierText(try field.double())
            case 8: contract.exchange = try field.string()
            case 9: contract.primaryExchange = try field.string()
            case 10: contract.currency = try field.string()
            case 11: contract.localSymbol = try field.string()
            case 12: contract.tradingClass = try field.string()
            case 13: contract.securityIDType = try field.string()
            case 14: contract.securityID = try field.string()
            case 16: contract.issuerID = try field.string()
            case 17:
                contract.deltaNeutralContract = try field.message("DeltaNeutralContract") {
                    (inner: inout TWSProtobufReader) throws(TWSDecodingError) in
                    var neutral = TWSDeltaNeutralContract(contractID: 0, delta: 0, price: 0)
                    while let item = try inner.next() {
                        switch item.number {
                        case 1: neutral.contractID = try item.int32()
                        case 2: neutral.delta = try item.double()
                        case 3: neutral.price = try item.double()
                        default: break
                        }
                    }
                    return neutral
                }
            case 18: contract.includeExpired = try field.bool()
            case 19: contract.comboLegsDescription = try field.string()
            case 20:
                let (leg, price) = try field.message("ComboLeg") {
                    (inner: inout TWSProtobufReader) throws(TWSDecodingError) in try Self.readComboLeg(&inner)
                }
                contract.comboLegs.append(leg)
                legPrices.append(price)
            case 21: contract.lastTradeDate = try field.string()
            default: break
            }
        }
        return contract
    }

    /// Reads a protobuf `Contract` without per-leg prices.
    static func readProtobuf(_ reader: inout TWSProtobufReader) throws(TWSDecodingError) -> TWSContract {
        var prices: [Double?] = []
        return try readProtobuf(&reader, legPrices: &prices)
    }

    private static func readComboLeg(
        _ reader: inout TWSProtobufReader
    ) throws(TWSDecodingError) -> (TWSComboLeg, Double?) {
        var leg = TWSComboLeg(contractID: 0, ratio: 0, action: "", exchange: "")
        var price: Double?
        while let field = try reader.next() {
            switch field.number {
            case 1: leg.contractID = try field.int32()
            case 2: leg.ratio = try field.int32()
            case 3: leg.action = try field.string()
            case 4: leg.exchange = try field.string()
            case 5: leg.openClose = try field.int32()
            case 6: leg.shortSaleSlot = try field.int32()
            case 7: leg.designatedLocation = try field.string()
            case 8: leg.exemptCode = try field.int32()
            case 9: price = try field.double()
            default: break
            }
        }
        return (leg, price)
    }

    /// A strike as our contracts hold it: IB's unset double (and 0 in requests) is no strike.
    static func strike(_ value: Double) -> Double? {
        value == TWSSentinel.double ? nil : value
    }

    /// A protobuf multiplier (a double) as the text protocol's string: `100`, `0.1`, or empty for 0.
    static func multiplierText(_ value: Double) -> String {
        if value == 0 || !value.isFinite { return "" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    /// Writes the contract of a response (the fields a server fills: every non-empty one, `multiplier` as a double).
    func writeProtobufResponse(into w: inout TWSProtobufWriter) {
        w.int32(1, contractID)
        w.string(2, symbol)
        w.string(3, securityType)
        w.string(4, lastTradeDateOrContractMonth)
        w.double(5, strike)
        w.string(6, right)
        if !multiplier.isEmpty, let value = Double(multiplier) { w.double(7, value) }
        w.string(8, exchange)
        w.string(9, primaryExchange)
        w.string(10, currency)
        w.string(11, localSymbol)
        w.string(12, tradingClass)
        w.string(13, securityIDType)
        w.string(14, securityID)
        w.string(16, issuerID)
        w.string(19, comboLegsDescription)
        w.string(21, lastTradeDate)
    }
}
