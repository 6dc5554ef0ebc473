/// The contract layouts shared by several messages.
extension TWSContract {
    // MARK: - Requests (client style)

    /// Writes the 12 contract fields of requests: conId … tradingClass, with `primaryExchange`.
    func writeRequestFields(into writer: inout TWSFieldWriter) {
        writer.write(contractID)
        writer.write(symbol)
        writer.write(securityType)
        writer.write(lastTradeDateOrContractMonth)
        writer.writeOptional(strike, unset: .empty)
        writer.write(right)
        writer.write(multiplier)
        writer.write(exchange)
        writer.write(primaryExchange)
        writer.write(currency)
        writer.write(localSymbol)
        writer.write(tradingClass)
    }

    /// Reads the 12 contract fields of requests. A strike of 0 is unset (ib_async writes `0.0`).
    static func readRequestFields(from reader: inout TWSFieldReader) throws(TWSDecodingError) -> TWSContract {
        var contract = TWSContract()
        contract.contractID = try reader.readInt("conId")
        contract.symbol = try reader.readString("symbol")
        contract.securityType = try reader.readString("secType")
        contract.lastTradeDateOrContractMonth = try reader.readString("lastTradeDateOrContractMonth")
        let strike = try reader.readOptionalDouble("strike")
        contract.strike = strike == 0 ? nil : strike
        contract.right = try reader.readString("right")
        contract.multiplier = try reader.readString("multiplier")
        contract.exchange = try reader.readString("exchange")
        contract.primaryExchange = try reader.readString("primaryExchange")
        contract.currency = try reader.readString("currency")
        contract.localSymbol = try reader.readString("localSymbol")
        contract.tradingClass = try reader.readString("tradingClass")
        return contract
    }

    /// Whether the contract is a combo.
    var isBag: Bool { securityType == "BAG" }

    /// Writes reqMktData/reqHistoricalData's short combo legs (only for `BAG`).
    func writeShortComboLegs(into writer: inout TWSFieldWriter) {
        guard isBag else { return }
        writer.write(comboLegs.count)
        for leg in comboLegs {
            writer.write(leg.contractID)
            writer.write(leg.ratio)
            writer.write(leg.action)
            writer.write(leg.exchange)
        }
    }

    /// Reads the short combo legs (only for `BAG`).
    mutating func readShortComboLegs(from reader: inout TWSFieldReader) throws(TWSDecodingError) {
        guard isBag else { return }
        let count = try reader.readCount("comboLegsCount")
        for _ in 0..<count {
            let conID = try reader.readInt("leg.conId")
            let ratio = try reader.readInt("leg.ratio")
            let action = try reader.readString("leg.action")
            let exchange = try reader.readString("leg.exchange")
            comboLegs.append(TWSComboLeg(contractID: conID, ratio: ratio, action: action, exchange: exchange))
        }
    }

    /// Writes the delta-neutral flag and, when present, its three fields.
    func writeDeltaNeutral(into writer: inout TWSFieldWriter) {
        if let deltaNeutralContract {
            writer.write(true)
            writer.write(deltaNeutralContract.contractID)
            writer.write(deltaNeutralContract.delta)
            writer.write(deltaNeutralContract.price)
        } else {
            writer.write(false)
        }
    }

    /// Reads the delta-neutral flag and its fields.
    mutating func readDeltaNeutral(from reader: inout TWSFieldReader) throws(TWSDecodingError) {
        guard try reader.readBool("deltaNeutralContractPresent") else { return }
        let conID = try reader.readInt("dnc.conId")
        let delta = try reader.readDouble("dnc.delta")
        let price = try reader.readDouble("dnc.price")
        deltaNeutralContract = TWSDeltaNeutralContract(contractID: conID, delta: delta, price: price)
    }

    // MARK: - Responses (server style)

    /// Which exchange field a response carries after `multiplier`.
    enum ResponseExchangeField {
        case exchange
        case primaryExchange
    }

    /// Writes the 11 contract fields of position/execDetails/openOrder/updatePortfolio.
    func writeResponseFields(into writer: inout TWSFieldWriter, exchangeField: ResponseExchangeField) {
        writer.write(contractID)
        writer.write(symbol)
        writer.write(securityType)
        writer.write(lastTradeDateOrContractMonth)
        writer.writeOptional(strike, unset: .empty)
        writer.write(right)
        writer.write(multiplier)
        writer.write(exchangeField == .exchange ? exchange : primaryExchange)
        writer.write(currency)
        writer.write(localSymbol)
        writer.write(tradingClass)
    }

    /// Reads the 11 contract fields of position/execDetails/openOrder/updatePortfolio.
    static func readResponseFields(
        from reader: inout TWSFieldReader,
        exchangeField: ResponseExchangeField
    ) throws(TWSDecodingError) -> TWSContract {
        var contract = TWSContract()
        contract.contractID = try reader.readInt("conId")
        contract.symbol = try reader.readString("symbol")
        contract.securityType = try reader.readString("secType")
        contract.lastTradeDateOrContractMonth = try reader.readString("lastTradeDateOrContractMonth")
        contract.strike = try reader.readOptionalDouble("strike")
        contract.right = try reader.readString("right")
        contract.multiplier = try reader.readString("multiplier")
        switch exchangeField {
        case .exchange: contract.exchange = try reader.readString("exchange")
        case .primaryExchange: contract.primaryExchange = try reader.readString("primaryExchange")
        }
        contract.currency = try reader.readString("currency")
        contract.localSymbol = try reader.readString("localSymbol")
        contract.tradingClass = try reader.readString("tradingClass")
        return contract
    }
}
