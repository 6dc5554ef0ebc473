import TWSProtocol
import TradingModel

/// The TWS contract of every instrument of the universe, and the way back from a contract to the instrument.
///
/// Executions, positions and open orders name a contract; the book resolves it by contract id first (qualified
/// contracts), then by symbol, security type and currency.
///
/// ```swift
/// let book = ContractBook(universe: universe)              // SMART-routed USD stocks
/// let contract = try book.contract(for: InstrumentID(0))
/// let id = try book.instrument(for: execution.contract)
/// ```
public struct ContractBook: Sendable, Hashable, Codable {
    /// Contracts in instrument order: `contracts[id.index]`.
    public private(set) var contracts: [TWSContract]
    private var byContractID: [Int: InstrumentID] = [:]
    private var bySymbol: [String: InstrumentID] = [:]
    /// Continuous futures (`ES continuous`) by root and currency: every contract month of the root is the instrument
    /// (the month it trades now, the one it rolls out of, a position left in an older one). Optional: books saved in
    /// session logs before rolls have none.
    private var rolledRoots: [String: InstrumentID]?
    /// The qualified contracts of the months a continuous future traded, by root, currency and month.
    private var monthContracts: [String: TWSContract]?

    /// Creates a book from explicit contracts, in instrument order.
    public init(contracts: [TWSContract]) {
        self.contracts = []
        for contract in contracts { add(contract) }
        for (k, contract) in contracts.enumerated() where contract.securityType == "CONTFUT" {
            rolledRoots = rolledRoots ?? [:]
            rolledRoots?[Self.rootKey(contract)] = InstrumentID(index: k)
        }
    }

    /// Creates a book for a universe: stocks SMART-routed (symbol and currency from each instrument), a well-known
    /// index (`IndexSymbols`: VIX, SPX, …, a volatility gauge) `IND` on its own exchange, a future `FUT` on its
    /// product's exchange with its contract month and multiplier, a currency pair `CASH` on IDEALPRO (symbol the base
    /// currency, currency the quote).
    public init(universe: Universe, exchange: String = "SMART") {
        self.init(contracts: universe.instruments.map { Self.contract(for: $0, stockExchange: exchange) })
    }

    /// The unqualified contract of a futures contract month or a currency pair named as a person writes it
    /// (`ES 2026-12`, `ESZ6`, `EUR.USD`); `nil` for a stock's name or one that names nothing.
    public static func contract(named name: String) -> TWSContract? {
        let kind = InstrumentKind(symbol: Symbol(name))
        if case .stock = kind { return nil }
        return contract(for: Instrument(id: InstrumentID(index: 0), symbol: Symbol(name)), stockExchange: "SMART")
    }

    /// The unqualified contract IB knows an instrument by.
    static func contract(for instrument: Instrument, stockExchange: String) -> TWSContract {
        switch instrument.kind {
        case .stock:
            let index = IndexSymbols.exchange(of: instrument.symbol)
            return TWSContract(
                symbol: instrument.symbol.rawValue, securityType: index == nil ? "STK" : "IND",
                exchange: index ?? stockExchange, currency: instrument.currency)
        case let .future(future):
            // Without a month, IB's continuous contract: market data only (a rolled position trades the months).
            var contract = TWSContract(
                symbol: future.spec.root, securityType: future.month == nil ? "CONTFUT" : "FUT",
                exchange: future.spec.exchange, currency: future.spec.currency)
            contract.lastTradeDateOrContractMonth = future.month?.wireText ?? ""
            contract.multiplier = "\(future.spec.multiplier)"
            return contract
        case let .forex(pair):
            return TWSContract(symbol: pair.base, securityType: "CASH", exchange: "IDEALPRO", currency: pair.quote)
        }
    }

    /// Appends a contract as the next instrument.
    /// - Returns: its instrument id.
    @discardableResult
    public mutating func add(_ contract: TWSContract) -> InstrumentID {
        let id = InstrumentID(index: contracts.count)
        contracts.append(contract)
        if contract.contractID != 0 { byContractID[contract.contractID] = id }
        bySymbol[Self.key(contract)] = id
        return id
    }

    /// Replaces an instrument's contract by its qualified form (from contractDetails), keeping the id.
    public mutating func qualify(_ id: InstrumentID, as contract: TWSContract) {
        guard id.index >= 0, id.index < contracts.count else { return }
        contracts[id.index] = contract
        if contract.contractID != 0 { byContractID[contract.contractID] = id }
        bySymbol[Self.key(contract)] = id
        if isContinuous(id), contract.securityType == "FUT" {
            monthContracts = monthContracts ?? [:]
            monthContracts?[Self.key(contract)] = contract
        }
    }

    /// Whether the instrument is a continuous future, traded one contract month at a time.
    public func isContinuous(_ id: InstrumentID) -> Bool {
        rolledRoots?.values.contains(id) ?? false
    }

    /// The contract month a continuous future trades now (`nil` for any other instrument, or before one is set).
    public func month(of id: InstrumentID) -> ContractMonth? {
        guard isContinuous(id), id.index >= 0, id.index < contracts.count, contracts[id.index].securityType == "FUT"
        else { return nil }
        return ContractMonth(contracts[id.index].lastTradeDateOrContractMonth.prefix(6))
    }

    /// Makes `month` the contract a continuous future trades and streams (its qualified form when known, else the
    /// month asked for by root, exchange and multiplier, which IB qualifies itself).
    public mutating func trade(_ id: InstrumentID, month: ContractMonth) {
        guard isContinuous(id), let contract = monthContract(id, month) else { return }
        contracts[id.index] = contract
        if contract.contractID != 0 { byContractID[contract.contractID] = id }
        bySymbol[Self.key(contract)] = id
    }

    /// The contract of a continuous future's month: a roll's legs trade the month left and the month entered.
    /// - Throws: `IBMappingError.unknownInstrument` when the id is outside the book or not a continuous future.
    public func contract(for id: InstrumentID, month: ContractMonth) throws(IBMappingError) -> TWSContract {
        guard let contract = monthContract(id, month) else { throw .unknownInstrument(id) }
        return contract
    }

    private func monthContract(_ id: InstrumentID, _ month: ContractMonth) -> TWSContract? {
        guard isContinuous(id), id.index >= 0, id.index < contracts.count else { return nil }
        var contract = contracts[id.index]
        contract.securityType = "FUT"
        contract.lastTradeDateOrContractMonth = month.wireText
        if let known = monthContracts?[Self.key(contract)] { return known }
        contract.contractID = 0
        contract.localSymbol = ""
        contract.tradingClass = ""
        return contract
    }

    /// The contract of an instrument.
    /// - Throws: `IBMappingError.unknownInstrument` when the id is outside the book.
    public func contract(for id: InstrumentID) throws(IBMappingError) -> TWSContract {
        guard id.index >= 0, id.index < contracts.count else { throw .unknownInstrument(id) }
        return contracts[id.index]
    }

    /// The instrument a contract names.
    /// - Throws: `IBMappingError.unknownContract` when neither its contract id nor its symbol is in the book.
    public func instrument(for contract: TWSContract) throws(IBMappingError) -> InstrumentID {
        if contract.contractID != 0, let id = byContractID[contract.contractID] { return id }
        if let id = bySymbol[Self.key(contract)] { return id }
        if contract.securityType.uppercased() == "FUT", let id = rolledRoots?[Self.rootKey(contract)] { return id }
        throw .unknownContract(symbol: contract.symbol, contractID: contract.contractID)
    }

    /// A future's root and currency: what every month of a continuous future shares.
    private static func rootKey(_ contract: TWSContract) -> String {
        "\(contract.symbol.uppercased())|\(contract.currency.isEmpty ? "USD" : contract.currency.uppercased())"
    }

    /// Symbol, security type (STK when empty), currency (USD when empty) and, for a future, its contract month (IB
    /// reports `20261218` where the request said `202612`): what a contract is without routing.
    private static func key(_ contract: TWSContract) -> String {
        let type = contract.securityType.isEmpty ? "STK" : contract.securityType.uppercased()
        let currency = contract.currency.isEmpty ? "USD" : contract.currency.uppercased()
        let month = type == "FUT" ? "|" + contract.lastTradeDateOrContractMonth.prefix(6) : ""
        return "\(contract.symbol.uppercased())|\(type)|\(currency)\(month)"
    }
}
