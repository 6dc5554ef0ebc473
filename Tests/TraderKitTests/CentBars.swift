import Foundation
import Testing
import TraderConfig
import TraderKit
import TradingModel

/// Bars in whole cents made by integer arithmetic only, so that a short Python script reproduces them exactly and
/// numpy can check the figures computed from them (the script is `CentBars.python`, quoted where its numbers are
/// used).
///
/// Symbol k's close moves each bar by `beta_k × f_t + e_{k,t} + drift_k` cents (at least 500 cents), where `f` is a
/// common factor and `e_k` the symbol's own noise, both from Park–Miller generators (x ← 48271·x mod 2³¹−1):
/// `f_t = x mod 201 − 100` from seed 12345, `e_{k,t} = x mod 101 − 50` from seed 1000 + k. Bars are on weekdays
/// from 2023-01-02; intraday runs have `barsPerDay` bars 30 minutes apart from 14:30 UTC.
struct CentBars {
    /// How one symbol moves with the common factor, and its drift in cents a bar.
    struct Spec {
        var beta: Int
        var drift: Int = 0
    }

    var specs: [Spec]
    /// Trading days.
    var days: Int
    /// Bars each day (1: daily bars at midnight UTC).
    var barsPerDay = 1
    /// Bars left out, by symbol index: the bar indexes (day × barsPerDay + bar) that are missing from its file.
    var missing: [Int: Set<Int>] = [:]

    /// The script that reproduces the daily closes (`market`) and the numbers the tests quote from numpy.
    static let python = """
        import datetime
        M, A = 2147483647, 48271
        def lcg(seed):
            x = seed
            while True:
                x = x * A % M
                yield x
        def market(specs, days, start=datetime.date(2023, 1, 2), missing={}):
            dates, d = [], start
            while len(dates) < days:
                if d.weekday() < 5: dates.append(d)
                d += datetime.timedelta(days=1)
            f = lcg(12345); fac = [next(f) % 201 - 100 for _ in range(days)]
            out = []
            for k, (beta, drift) in enumerate(specs):
                e = lcg(1000 + k); c = 5000 + 2000 * k; rows = []
                for t in range(days):
                    eps = next(e) % 101 - 50
                    if t > 0: c = max(500, c + beta * fac[t] + eps + drift)
                    if t in missing.get(k, ()): continue
                    rows.append((dates[t], c))
                out.append(rows)
            return out
        """

    /// The weekdays from 2023-01-02 (a Monday), `days` of them.
    var dates: [Timestamp] {
        var result: [Timestamp] = []
        var day = Timestamp(year: 2023, month: 1, day: 2)
        while result.count < days {
            // Day 0 of the Unix epoch was a Thursday: (dayNumber + 3) mod 7 is 0 on Mondays.
            if (day.dayNumber + 3) % 7 < 5 { result.append(day) }
            day = day + .days(1)
        }
        return result
    }

    /// Each symbol's bars: time and close in cents (the bar's open is the previous close).
    func closes() -> [[(time: Timestamp, cents: Int)]] {
        let bars = days * barsPerDay
        var times: [Timestamp] = []
        for day in dates {
            for k in 0..<barsPerDay {
                let offset = Int64(14 * 3600 + 1800 + k * 1800)
                times.append(barsPerDay == 1 ? day : day + TimeSpan.seconds(offset))
            }
        }
        let factor = Self.generator(seed: 12345)
        let common = (0..<bars).map { _ in Int(factor() % 201) - 100 }
        return specs.enumerated().map { k, spec in
            let noise = Self.generator(seed: 1000 + UInt64(k))
            var cents = 5000 + 2000 * k
            var rows: [(time: Timestamp, cents: Int)] = []
            for t in 0..<bars {
                let epsilon = Int(noise() % 101) - 50
                if t > 0 { cents = max(500, cents + spec.beta * common[t] + epsilon + spec.drift) }
                if missing[k]?.contains(t) == true { continue }
                rows.append((times[t], cents))
            }
            return rows
        }
    }

    /// Park–Miller's minimal standard generator.
    static func generator(seed: UInt64) -> () -> UInt64 {
        var x = seed
        return {
            x = x * 48_271 % 2_147_483_647
            return x
        }
    }

    /// `12.34` for 1234 cents.
    static func price(_ cents: Int) -> String { "\(cents / 100)." + (cents % 100 < 10 ? "0" : "") + "\(cents % 100)" }

    /// `2023-01-02` for daily bars, `2023-01-02 14:30:00` for intraday ones.
    func timeText(_ time: Timestamp) -> String {
        let text = time.description
        return barsPerDay == 1 ? String(text.prefix(10)) : String(text.prefix(10)) + " " + String(text.dropFirst(11).prefix(8))
    }

    /// Writes `SYMBOL.csv` (`date,open,high,low,close,volume`) for each name into `folder`.
    func write(to folder: String, names: [String]) throws {
        for (k, rows) in closes().enumerated() {
            var text = "date,open,high,low,close,volume\n"
            var previous = rows.first?.cents ?? 0
            for row in rows {
                let (open, close) = (Self.price(previous), Self.price(row.cents))
                let (high, low) = (Self.price(max(previous, row.cents)), Self.price(min(previous, row.cents)))
                text += "\(timeText(row.time)),\(open),\(high),\(low),\(close),\(100_000 + 1_000 * k)\n"
                previous = row.cents
            }
            try text.write(toFile: folder + "/\(names[k]).csv", atomically: true, encoding: .utf8)
        }
    }
}

/// A backtest of `ibtrader backtest --set KEY=VALUE …` written to `folder/out`, as `backtest --out` writes it.
struct WrittenBacktest {
    var run: BacktestJob.Run
    var out: String

    init(_ sets: [String: String], folder: String) async throws {
        let flags = sets.sorted { $0.key < $1.key }.map {
            ConfigOverride(path: $0.key, value: $0.value, flag: "--set \($0.key)")
        }
        let configuration = try ConfigLoader.load(ConfigSources(files: [], flags: flags)).settings
        run = try BacktestJob(configuration).run(progress: ProgressBar(quiet: true))
        out = folder + "/out"
        try await run.summary.write(to: out, engineSeconds: run.engineSeconds)
    }

    /// The terminal summary.
    var table: String { run.summary.table(engineSeconds: run.engineSeconds, runSeconds: run.runSeconds) }

    /// A file of the output, as text.
    func text(_ name: String) throws -> String { try String(contentsOfFile: out + "/" + name, encoding: .utf8) }

    /// summary.json, parsed.
    func summary() throws -> [String: Any] { try Self.summary(at: out + "/summary.json") }

    /// A summary.json, parsed.
    static func summary(at path: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }
}

/// Pearson's r by the one-pass textbook formula (n·Σxy − Σx·Σy over the root of the two variances' products), not
/// the two-pass form `Correlation.pearson` uses.
func onePassPearson(_ x: [Double], _ y: [Double]) -> Double {
    let n = Double(x.count)
    let (sx, sy) = (x.reduce(0, +), y.reduce(0, +))
    let sxy = zip(x, y).reduce(0) { $0 + $1.0 * $1.1 }
    let (sxx, syy) = (x.reduce(0) { $0 + $1 * $1 }, y.reduce(0) { $0 + $1 * $1 })
    return (n * sxy - sx * sy) / ((n * sxx - sx * sx) * (n * syy - sy * sy)).squareRoot()
}
