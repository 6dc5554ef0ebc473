import TradingModel

extension SyntheticMarketConfig {
    /// The generator behind `--data synthetic:N[:SEED[:BAR]]`: N symbols (`SYN000`…) of 500 daily bars on the trading
    /// days from 2020-01-02 (no weekends, no holidays; dates only, so reports read as daily), geometric Brownian
    /// motion as `SyntheticMarket` documents, seed SEED (42 when omitted). BAR `1min` or `5min` gives a symbol-year
    /// of regular-session bars instead: 252 × 390 (or × 78) bars from 2020-01-02 through 2020's sessions (early
    /// closes shorter), the unit of research at scale. Same argument, same bars.
    /// - Parameter argument: the `--data` value.
    /// - Returns: `nil` when the argument does not start with `synthetic:`.
    /// - Throws: a sentence saying what is allowed, when it does but is malformed.
    public static func fromDataArgument(_ argument: String) throws(SyntheticArgumentError) -> SyntheticMarketConfig? {
        guard argument.hasPrefix("synthetic:") else { return nil }
        let parts = argument.dropFirst("synthetic:".count).split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count), let count = Int(parts[0]), (1...2_000).contains(count) else {
            throw SyntheticArgumentError(argument: argument)
        }
        var config = SyntheticMarketConfig(
            symbols: count, start: Timestamp(year: 2020, month: 1, day: 2, secondOfDay: 0))
        config.tradingDaysOnly = true
        if parts.count >= 2 {
            guard let seed = UInt64(parts[1]) else { throw SyntheticArgumentError(argument: argument) }
            config.seed = seed
        }
        if parts.count == 3 {
            let minutes: Int64
            switch parts[2] {
            case "1min": minutes = 1
            case "5min": minutes = 5
            case "1d", "1day": return config
            default: throw SyntheticArgumentError(argument: argument)
            }
            let perSession = 390 / Int(minutes)
            config.barInterval = .minutes(minutes)
            config.bars = 252 * perSession
            config.barsPerYear = Double(252 * perSession)
        }
        return config
    }
}

/// A malformed `synthetic:` data argument.
public struct SyntheticArgumentError: Error, CustomStringConvertible, Equatable {
    /// The argument as given.
    public var argument: String
    public var description: String {
        "'\(argument)' is not synthetic:N, synthetic:N:SEED or synthetic:N:SEED:BAR (N symbols, 1 to 2000; SEED a whole "
            + "number ≥ 0; BAR 1min, 5min or 1day)"
    }
}
