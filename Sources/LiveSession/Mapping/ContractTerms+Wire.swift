import TWSProtocol
import TradingModel

// A TWS contract's terms as the listings show them (`ibtrader positions`, `orders`, `journal`, the dashboard), and the
// way back to the instrument the bot would trade.
extension ContractTerms {
    /// The terms of a contract as TWS sent it (a position's, an open order's, an execution's): its security type,
    /// expiry, strike (unset or 0: none), right (`PUT`/`CALL` read as `P`/`C`; TWS's `?` and `0` for none),
    /// multiplier, local symbol and currency.
    public init(_ contract: TWSContract) {
        let strike = contract.strike.flatMap { $0 > 0 && $0 < 1e15 ? Price(checkedApproximately: $0) : nil }
        let right: String = switch contract.right.uppercased() {
        case "P", "PUT": "P"
        case "C", "CALL": "C"
        default: ""
        }
        self.init(
            symbol: contract.symbol, securityType: contract.securityType.isEmpty ? "STK" : contract.securityType.uppercased(),
            expiry: contract.lastTradeDateOrContractMonth, strike: strike, right: right, multiplier: contract.multiplier,
            localSymbol: contract.localSymbol, currency: contract.currency)
    }

    /// The name the bot's universe gives the instrument (`AAPL`, `ES 2026-12`, `EUR.USD`), for a stock, a contract
    /// month of a root IBTrader knows the terms of, or a currency pair IDEALPRO trades; `nil` for anything else (an
    /// option, an index, an unknown root): the tools do not trade it.
    public var instrumentName: Symbol? {
        switch type {
        case "STK":
            return Symbol(symbol.uppercased())
        case "FUT":
            guard let spec = FutureSpec.known[symbol.uppercased()], let month = ContractMonth(expiry.prefix(6)),
                spec.months.contains(month.month)
            else { return nil }
            return Symbol(FutureContract(spec: spec, month: month).description)
        case "CASH":
            return CurrencyPair(base: symbol, quote: currency).map { Symbol($0.description) }
        default:
            return nil
        }
    }

    /// The terms worth keeping beside a symbol: `nil` for a plain stock, whose symbol says all (the journal leaves
    /// its column empty, the status its field).
    public var unlessStock: ContractTerms? { isStock ? nil : self }
}
