import Foundation

/// `ibtrader-bench sweep`: issue 46's research-at-scale figures from one run. Synthetic 1-minute bars (regular hours,
/// one year per symbol) are imported into a Parquet catalogue with `ibtrader data import`; the release `ibtrader
/// optimize` runs a 10 × 10 SMA-cross grid over the whole universe from the catalogue (one process: load, sweep,
/// files; its wall time, CPU time and peak RSS come from `wait4`); vectorbt (pinned, `python/setup-sweep.sh`) runs
/// the same grid on a sample of the same files (`python/sweep_vectorbt.py`); and on three sampled combinations
/// `ibtrader backtest` and vectorbt must place the same orders at the same prices.
///
/// Both engines run the strategy without costs and each symbol with more cash than it can use, so that every
/// symbol trades as it would alone: vectorbt gives each column its own cash, and `ibtrader optimize --each-symbol`
/// each symbol its own account, measured as one pooled book (`SWEEP_PORTFOLIO=1`: one portfolio sharing the cash,
/// the same rows here).
/// vectorbt's rate is its timed part only (averages, crossings, `from_signals`, final values; no file reading, no
/// Numba compilation) and runs on one core; ibtrader's is the whole process on every core, so the table also gives
/// both per CPU second.
///
/// Environment: `SWEEP_SYMBOLS` (default 500), `VECTORBT_SYMBOLS` (symbols vectorbt runs, default 10),
/// `SWEEP_CATALOGUE` (default `Benchmarks/.build/sweep-catalogue-N`, kept between runs), `SWEEP_PORTFOLIO`, `SWEEP_PYTHON` (default:
/// the venv `python/setup-sweep.sh` makes), `IBTRADER_BIN` (default `.build/release/ibtrader`).
enum SweepBenchmark {
    static let fast = (start: 5, end: 50, step: 5)
    static let slow = (start: 60, end: 195, step: 15)
    static let samples = [(10, 60), (25, 120), (50, 195)]
    /// Cash per symbol on both sides (vectorbt: per column): never binding, so that 100 shares are always bought.
    static let cashPerSymbol = 10_000_000

    struct PeerResult: Decodable {
        var vectorbt: String
        var bars: Int
        var combinations: Int
        var seconds: Double
        /// "FAST/SLOW" → symbol → [signal bar time (ns), side, quantity, price].
        var orders: [String: [String: [[OrderField]]]]
        /// "FAST/SLOW" → symbol → times (ns) of the bars where the averages are exactly equal, and of the bars after.
        var nearTies: [String: [String: [Int64]]]

        enum CodingKeys: String, CodingKey {
            case vectorbt, bars, combinations, seconds, orders
            case nearTies = "near_ties"
        }
    }

    enum OrderField: Decodable, Equatable {
        case integer(Int64)
        case number(Double)
        case text(String)
        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let value = try? container.decode(Int64.self) {
                self = .integer(value)
            } else if let value = try? container.decode(Double.self) {
                self = .number(value)
            } else {
                self = .text(try container.decode(String.self))
            }
        }
    }

    /// One order as both sides are compared: the signal bar's time, side, quantity and price in cents.
    struct Order: Hashable {
        var time: Int64
        var side: String
        var quantity: Int
        var cents: Int64
    }

    static func table(root: URL) throws -> BenchTable {
        let environment = ProcessInfo.processInfo.environment
        let symbols = max(1, Int(environment["SWEEP_SYMBOLS"] ?? "") ?? 500)
        let peerSymbols = min(symbols, max(1, Int(environment["VECTORBT_SYMBOLS"] ?? "") ?? 10))
        let binary = environment["IBTRADER_BIN"] ?? root.path + "/.build/release/ibtrader"
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw BenchError("no \(binary) (swift build -c release --product ibtrader, or set IBTRADER_BIN)")
        }
        let build = root.path + "/Benchmarks/.build"
        let catalogue = environment["SWEEP_CATALOGUE"] ?? build + "/sweep-catalogue-\(symbols)"
        let python = try environment["SWEEP_PYTHON"]
            ?? PeerComparisonBenchmark.setUpPython(script: root.path + "/Benchmarks/python/setup-sweep.sh", build: build)
        let scratch = build + "/sweep-bench-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        var table = BenchTable()

        // The catalogue, once: a marker names the source it holds, so a different size is imported afresh.
        let source = "synthetic:\(symbols):42:1min"
        let marker = catalogue + "/.sweep-benchmark-source"
        if (try? String(contentsOfFile: marker, encoding: .utf8)) != source {
            try? FileManager.default.removeItem(atPath: catalogue)
            progress("importing \(source) into \(catalogue)…")
            let imported = try ChildProcess.run([binary, "data", "import", source, "--catalogue", catalogue])
            try source.write(toFile: marker, atomically: true, encoding: .utf8)
            table.add("data import \(source) (s)", String(format: "%.1f", imported.wallSeconds),
                      "\(symbols) symbol-years of regular-hours minute bars → Parquet catalogue; peak RSS "
                          + String(format: "%.0f MB", megabytes(imported.usage)))
        }
        let universe = (0..<symbols).map { "SYN" + String(String(1000 + $0).dropFirst()) }
        let grid = [
            "--parameter", "fastPeriod=\(fast.start):\(fast.end):\(fast.step)",
            "--parameter", "slowPeriod=\(slow.start):\(slow.end):\(slow.step)",
        ]
        let common = [
            "--data", "parquet:" + catalogue, "--bar-size", "1 min", "--strategy", "sma-cross", "--sizing", "fixed:100",
            "--commission", "none", "--benchmark", "none",
        ]

        // Each symbol alone with its own cash, pooled (`--each-symbol`): what vectorbt computes, its columns each with
        // their own cash. SWEEP_PORTFOLIO=1 runs one portfolio of every symbol sharing the cash instead (the same
        // rows with fixed sizing and ample cash, tested in EachSymbolSweepTests).
        let portfolio = environment["SWEEP_PORTFOLIO"] == "1"
        let mode = portfolio
            ? ["--cash", String(symbols * cashPerSymbol)] : ["--each-symbol", "--cash", String(cashPerSymbol)]
        progress("ibtrader optimize\(portfolio ? "" : " --each-symbol"): \(symbols) symbols × 100 combinations…")
        let ours = try ChildProcess.run([binary, "optimize"] + common + grid + mode + ["--out", scratch + "/sweep"])
        let rows = try String(contentsOfFile: scratch + "/sweep/results.csv", encoding: .utf8)
            .split(separator: "\n").count - 1
        guard rows == 100 else { throw BenchError("ibtrader optimize wrote \(rows) rows, not 100") }

        progress("vectorbt: \(peerSymbols) symbols × 100 combinations…")
        let sample = samples.map { "\($0.0)/\($0.1)" }.joined(separator: ",")
        let peerOut = scratch + "/vectorbt.json"
        _ = try ChildProcess.run(
            [
                python, root.path + "/Benchmarks/python/sweep_vectorbt.py", "--catalogue", catalogue,
                "--symbols", universe.prefix(peerSymbols).joined(separator: ","),
                "--fast", "\(fast.start):\(fast.end):\(fast.step)", "--slow", "\(slow.start):\(slow.end):\(slow.step)",
                "--sample", sample,
            ], stdout: peerOut)
        let peer = try JSONDecoder().decode(PeerResult.self, from: Data(contentsOf: URL(fileURLWithPath: peerOut)))

        // The same orders on the sampled combinations, for the symbols vectorbt ran.
        var compared = 0, matched = 0, atTies = 0
        for (fastPeriod, slowPeriod) in samples {
            let out = scratch + "/backtest-\(fastPeriod)-\(slowPeriod)"
            _ = try ChildProcess.run(
                [binary, "backtest"] + common + [
                    "--symbols", universe.prefix(peerSymbols).joined(separator: ","),
                    "--fast-period", String(fastPeriod), "--slow-period", String(slowPeriod),
                    "--cash", String(peerSymbols * cashPerSymbol), "--out", out, "--quiet",
                ])
            let mine = try ordersCSV(out + "/orders.csv")
            for symbol in universe.prefix(peerSymbols) {
                let key = "\(fastPeriod)/\(slowPeriod)"
                let theirs = Set((peer.orders[key]?[symbol] ?? []).compactMap(order))
                let ownOrders = Set(mine[symbol] ?? [])
                let ties = Set(peer.nearTies[key]?[symbol] ?? [])
                compared += max(theirs.count, ownOrders.count)
                matched += theirs.intersection(ownOrders).count
                // An order only one side placed is explained when its signal bar is a tie of the two averages or
                // the bar after one.
                let different = theirs.symmetricDifference(ownOrders)
                atTies += different.filter { ties.contains($0.time) }.count
                for order in different where !ties.contains(order.time) {
                    progress("\(symbol) \(key): \(theirs.contains(order) ? "only vectorbt" : "only ibtrader") \(order)")
                }
            }
        }

        let barCombinations = Double(symbols) * 98_280 * 100
        let peerRate = Double(peer.bars * peer.combinations) / peer.seconds
        let ourRate = barCombinations / ours.wallSeconds
        let ourCPURate = barCombinations / ours.cpuSeconds
        let rss = megabytes(ours.usage)
        table.add("sweep: ibtrader optimize, whole process (s)", String(format: "%.1f", ours.wallSeconds),
                  "\(symbols) symbol-years of 1-min bars (\(formatRate(Double(symbols) * 98_280)) bars) × 100 SMA-cross "
                      + "combinations from the Parquet catalogue, "
                      + (portfolio ? "one portfolio per combination, " : "each symbol alone (--each-symbol), ")
                      + "\(ProcessInfo.processInfo.activeProcessorCount) cores; "
                      + (ours.wallSeconds < 180 ? "under" : "OVER") + " the 3-minute goal; "
                      + String(format: "%.0f CPU s", ours.cpuSeconds))
        table.add("  peak RSS (MB)", String(format: "%.0f", rss), (rss < 4096 ? "under" : "OVER") + " the 4 GB goal (wait4 ru_maxrss)")
        table.add("  bar-combinations per second", formatRate(ourRate), "whole process (load, sweep, files), wall clock")
        table.add("  bar-combinations per CPU second", formatRate(ourCPURate), "whole process, user + system time")
        table.add("vectorbt \(peer.vectorbt), same grid (bar-combinations/s)", formatRate(peerRate),
                  "\(peerSymbols) of the symbols, timed part only, one core (per CPU second ≈ per wall second)")
        table.add("  ibtrader ÷ vectorbt, wall clock", String(format: "%.2f×", ourRate / peerRate),
                  "ibtrader on every core, vectorbt on one")
        table.add("  ibtrader ÷ vectorbt, per CPU second", String(format: "%.2f×", ourCPURate / peerRate),
                  "ibtrader's whole process against vectorbt's timed part")
        table.add("  same orders on sampled combinations", "\(matched) of \(compared)",
                  "ibtrader backtest vs vectorbt, \(peerSymbols) symbols × \(samples.count) combinations (\(sample)): "
                      + "signal bar, side, quantity, price")
        table.add("  orders placed by one side only", "\(atTies) at ties",
                  "each at a bar where the two averages are exactly equal, or the bar after (either may round ahead); "
                      + "any other difference is listed on stderr")
        return table
    }

    /// `orders.csv` of a backtest by symbol: filled orders, in file order.
    static func ordersCSV(_ path: String) throws -> [String: [Order]] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let formatter = ISO8601DateFormatter()
        var orders: [String: [Order]] = [:]
        for line in text.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard fields.count > 10, fields[8] == "filled", let date = formatter.date(from: fields[1]),
                let quantity = Int(fields[5]), let price = Double(fields[10])
            else { continue }
            orders[fields[2], default: []].append(Order(
                time: Int64(date.timeIntervalSince1970) * 1_000_000_000, side: fields[3], quantity: quantity,
                cents: Int64((price * 100).rounded())))
        }
        return orders
    }

    /// One of vectorbt's orders, or `nil` when it is not `[time, side, quantity, price]`.
    static func order(_ fields: [OrderField]) -> Order? {
        guard fields.count == 4, case .integer(let time) = fields[0], case .text(let side) = fields[1],
            case .integer(let quantity) = fields[2]
        else { return nil }
        let price: Double
        switch fields[3] {
        case .number(let value): price = value
        case .integer(let value): price = Double(value)
        case .text: return nil
        }
        return Order(time: time, side: side, quantity: Int(quantity), cents: Int64((price * 100).rounded()))
    }

    static func megabytes(_ usage: rusage) -> Double { Double(usage.ru_maxrss) / 1024 }

    static func progress(_ text: String) { FileHandle.standardError.write(Data("sweep: \(text)\n".utf8)) }
}
