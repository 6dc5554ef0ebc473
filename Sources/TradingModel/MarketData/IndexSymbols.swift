/// Indices a bot may watch (a volatility gauge such as VIX) but never trade: IB's contract is `secType IND` on the
/// index's exchange, not a SMART-routed stock.
public enum IndexSymbols {
    /// The listing exchange of a well-known index, or `nil` for a symbol that is not one (a stock or an ETF such as
    /// VXX or SPY, traded and watched as a stock).
    public static func exchange(of symbol: Symbol) -> String? {
        known[symbol.rawValue.uppercased()]
    }

    /// CBOE's volatility and S&P indices, NASDAQ's and Russell's benchmarks.
    static let known: [String: String] = [
        "VIX": "CBOE", "VIX9D": "CBOE", "VIX3M": "CBOE", "VIX6M": "CBOE", "VVIX": "CBOE", "VXN": "CBOE", "RVX": "CBOE",
        "VXD": "CBOE", "SPX": "CBOE", "XSP": "CBOE", "OEX": "CBOE", "NDX": "NASDAQ", "RUT": "RUSSELL",
    ]
}
