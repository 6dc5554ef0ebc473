import TradingModel

extension SyntheticMarketConfig {
    /// The generator behind `--data synthetic:N[:SEED]`: N symbols (`SYN000`…) of 500 daily bars on the trading days
    /// from 2020-01-02 (no weekends, no holidays; dates only, so reports read as daily), geometric Brownian motion as
    /// `SyntheticMarket` documents, seed SEED (42 when omitted). Same argument, same bars.
    /// - Parameter argument: the `--data` value.
    /// - Returns: `nil` when the argument does not start with `synthetic:`.
    /// - Throws: a sentence saying what is allowed, when it does but is malformed.
    public static func fromDataArgument(_ argument: String) throws(SyntheticArgumentError) -> SyntheticMarketConfig? {
        guard argument.hasPrefix("synthetic:") else { return nil }
        let parts = argument.dropFirst("synthetic:".count).split(separator: ":", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let count = Int(parts[0]), (1...2_000).contains(count) else {
            throw SyntheticArgumentError(argument: argument)
        }
        var config = SyntheticMarketConfig(
            symbols: count, start: Timestamp(year: 2020, month: 1, day: 2, secondOfDay: 0))
        config.tradingDaysOnly = true
        if parts.count == 2 {
            guard let seed = UInt64(parts[1]) else { throw SyntheticArgumentError(argument: argument) }
            config.seed = seed
        }
        return config
    }
}

/// A malformed `synthetic:` data argument.
public struct SyntheticArgumentError: Error, CustomStringConvertible, Equatable {
    /// The argument as given.
    public var argument: String
    public var description: String {
        "'\(argument)' is not synthetic:N or synthetic:N:SEED (N symbols, 1 to 2000; SEED a whole number ≥ 0)"
    }
}
