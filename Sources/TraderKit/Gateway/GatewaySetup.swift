import Simulation
import BundledData
import Foundation
import GatewayCore
import GatewaySimulator
import Logging
import Storage
import TraderConfig
import TradingModel

/// What `ibtrader gateway` and `ibtrader run --simulated` need to start the simulator: its data, its start time and
/// its checked options.
public enum GatewaySetup {
    /// `bundled` (= bundled:stocks-unadjusted: prices as they traded, as a broker serves them), `bundled:NAME`, a folder
    /// of `SYMBOL_1d.csv` files, a Parquet catalogue (`parquet:DIR`), or `count` synthetic symbols.
    /// - Throws: `TraderError` naming what is missing.
    public static func data(_ argument: String, synthetic count: Int?, seed: UInt64) throws(TraderError) -> MarketDataSet {
        if let count {
            guard (1...5000).contains(count) else { throw TraderError("--synthetic must be from 1 to 5000, got \(count)") }
            return MarketDataSet.synthetic(count: count, seed: seed)
        }
        if argument.hasPrefix("parquet:") { return try catalogue(String(argument.dropFirst("parquet:".count))) }
        var bundled: BundledDataSet?
        if argument == "bundled" { bundled = .stocksUnadjusted }
        if argument.hasPrefix("bundled:") {
            let name = String(argument.dropFirst("bundled:".count))
            guard let set = BundledDataSet(rawValue: name) else { throw TraderError("\(BundledDataError.unknownDataSet(name))") }
            bundled = set
        }
        do throws(MarketDataError) {
            if let bundled { return try MarketDataSet.bundled(bundled) }
            return try MarketDataSet.load(directory: URL(fileURLWithPath: argument, isDirectory: true))
        } catch {
            throw TraderError(error.description)
        }
    }

    /// A catalogue's symbols, each at the finest bar size it has (as a folder with several files of a symbol).
    static func catalogue(_ path: String) throws(TraderError) -> MarketDataSet {
        let catalogue = BarCatalogue(path: path)
        var series: [String: InstrumentSeries] = [:]
        var sizes: [String] = []
        do throws(BarCatalogueError) {
            let summaries = try catalogue.seriesSummaries()
            var finest: [Symbol: BarSize] = [:]
            for summary in summaries where summary.barSize < (finest[summary.symbol] ?? summary.barSize) || finest[summary.symbol] == nil {
                finest[summary.symbol] = summary.barSize
            }
            sizes = Set(finest.values).sorted().map(\.text)
            for (symbol, size) in finest {
                let bars = try catalogue.bars(symbol: symbol, barSize: size)
                series[symbol.rawValue] = InstrumentSeries(
                    bars: bars, resolution: TimeSpan(nanoseconds: size.nominalSeconds * Timestamp.nanosecondsPerSecond))
            }
        } catch {
            throw TraderError("--data parquet:\(path): \(error)")
        }
        guard !series.isEmpty else {
            throw TraderError("--data parquet:\(path): the catalogue holds no bars (write one with `ibtrader data import`)")
        }
        return MarketDataSet(
            series: series, names: MarketDataSet.names(in: URL(fileURLWithPath: path, isDirectory: true)),
            name: "parquet:\(path) (\(sizes.joined(separator: ", ")) bars)")
    }

    /// The replay start of `--start`: `YYYY-MM-DD` (1970 to 2200) is that day's regular open, 09:30 New York (14:30
    /// UTC in winter, 13:30 in summer); `YYYY-MM-DD HH:MM` (or with a `T`) is a New York time, so a replay can begin
    /// in the pre-market; a trailing `Z` makes the time UTC.
    public static func start(_ text: String) throws(TraderError) -> Timestamp {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let problem = TraderError(
            "--start must be a date YYYY-MM-DD (its 09:30 New York open) or a New York time YYYY-MM-DD HH:MM "
                + "(UTC with a Z: 2023-11-13T14:30Z), got '\(text)'")
        let datePart = String(trimmed.prefix(10))
        let day: String
        do { day = try ConfigKind.date.read(.scalar(datePart, origin: .flag("--start")), "start") } catch {
            throw trimmed.count > 10 ? problem : TraderError(error.description)
        }
        let parts = day.split(separator: "-").compactMap { Int($0) }
        let dayNumber = Timestamp(year: parts[0], month: parts[1], day: parts[2]).dayNumber
        var rest = trimmed.dropFirst(10)
        guard !rest.isEmpty else { return USEquityCalendar.utc(dayNumber, minutes: 9 * 60 + 30) }
        guard let separator = rest.first, separator == " " || separator == "T" else { throw problem }
        rest = rest.dropFirst()
        let utc = rest.hasSuffix("Z")
        if utc { rest = rest.dropLast() }
        let clock = rest.split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 2, clock.allSatisfy({ $0.count == 2 && $0.allSatisfy { ("0"..."9").contains($0) } }),
            let hour = Int(clock[0]), let minute = Int(clock[1]), (0..<24).contains(hour), (0..<60).contains(minute)
        else { throw problem }
        let minutes = hour * 60 + minute
        return utc
            ? Timestamp(nanoseconds: dayNumber * Timestamp.nanosecondsPerDay) + .minutes(Int64(minutes))
            : USEquityCalendar.utc(dayNumber, minutes: minutes)
    }

    /// Checks a replay start (`--start`) against the data: a start at or after the data's last bar has nothing to
    /// replay (the feed would be silent and every session closed), so it is refused with the span the data covers.
    /// - Throws: `TraderError` naming the flag, the start and the data's first and last bar.
    public static func check(start time: Timestamp, within data: MarketDataSet) throws(TraderError) {
        let series = data.instruments.map(\.series)
        guard let first = series.compactMap(\.firstTime).min(), let last = series.compactMap(\.lastTime).max(),
            time >= last
        else { return }
        func day(_ t: Timestamp) -> String { String(t.description.prefix(10)) }
        throw TraderError(
            "--start \(time) is after the data's last bar (\(last)): \(data.name) covers \(day(first)) to "
                + "\(day(last)); give a start inside it, or leave --start out for the data's own")
    }

    /// Checks `ibtrader gateway`'s options.
    /// - Throws: `TraderError` naming the first flag out of range.
    public static func check(
        port: Int, adminPort: Int?, speed: Double, cash: Double, start: String?, account: String, logLevel: String,
        loginZone: String = "UTC"
    ) throws(TraderError) {
        _ = try self.loginZone(loginZone)
        _ = try self.port(port, flag: "--port", allowsAny: true)
        if let adminPort { _ = try self.port(adminPort, flag: "--admin-port", allowsAny: false) }
        guard speed.isFinite, speed >= 0, speed <= 1_000_000 else {
            throw TraderError("--speed must be from 0 to 1000000, got \(speed)")
        }
        guard cash.isFinite, cash > 0, cash <= 10_000_000_000 else {
            throw TraderError("--cash must be above 0 and at most 10000000000, got \(cash)")
        }
        if let start { _ = try self.start(start) }
        _ = try accounts(account)
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw TraderError("--log-level must be trace, debug, info, notice, warning, error or critical, got '\(logLevel)'")
        }
    }

    /// `ibtrader gateway`'s simulator from its checked options, and its start-up line given the bound port and the
    /// replay clock's start.
    /// - Throws: `TraderError` for a bad start date, account list or fault script.
    public static func simulator(
        data: MarketDataSet, bind: String, port: Int, account: String, cash: Double, currency: String = "USD",
        start: String?, speed: Double, faults: String?, logLevel: String, loginZone: String = "UTC"
    ) throws(TraderError) -> (GatewaySimulator, @Sendable (Int, Timestamp) -> String) {
        let startTime = try start.map { text throws(TraderError) in try self.start(text) }
        if let startTime { try check(start: startTime, within: data) }
        let script = try faults.map { path throws(TraderError) in try faultScript(path) }
        var logger = Logger(label: "ibtrader.gateway")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        var gateway = GatewayConfiguration(accounts: try accounts(account), startingCash: cash)
        gateway.baseCurrency = try baseCurrency(currency, flag: "--currency", data: data)
        gateway.loginZone = try self.loginZone(loginZone)
        let simulator = GatewaySimulator(configuration: GatewaySimulatorConfiguration(
            host: bind, port: port, data: data, gateway: gateway, start: startTime,
            clock: speed > 0 ? .speed(speed) : .manual, faults: script), logger: logger)
        let (name, count) = (data.name, data.instruments.count)
        let versions = "v\(gateway.minimumVersion)-\(gateway.maximumVersion): text to 200, protobuf from 201"
        let base = gateway.baseCurrency == "USD" ? "" : " in \(gateway.baseCurrency)"
        let zone = gateway.loginZone == .utc ? "" : ", login zone \(gateway.loginZone.name)"
        return (simulator, { bound, now in
            "ibtrader gateway listening on \(bind):\(bound) (TWS API \(versions)), serving \(name), \(count) symbol\(count == 1 ? "" : "s"), "
                + "replay clock at \(now) x\(speed), account \(account)"
                + base + zone
        })
    }

    /// `--login-zone`: the zone the simulated login writes its times in, and their name (`TWSLoginZone`).
    /// - Throws: `TraderError` naming the flag and the forms it takes.
    public static func loginZone(_ text: String) throws(TraderError) -> TWSLoginZone {
        do { return try TWSLoginZone(parsing: text) } catch { throw TraderError("--login-zone: \(error)") }
    }

    /// The simulated accounts' base currency: a three-letter code, and other than USD only where a served pair prices
    /// it in dollars (its figures convert through it).
    /// - Throws: `TraderError` naming the flag, what it got and the pairs that would do.
    public static func baseCurrency(_ text: String, flag: String, data: MarketDataSet) throws(TraderError) -> String {
        let code = text.uppercased()
        guard code.count == 3, code.allSatisfy({ $0.isASCII && $0.isLetter }) else {
            throw TraderError("\(flag) takes a three-letter currency code (USD, EUR, GBP, …), got '\(text)'")
        }
        guard code != "USD" else { return code }
        let pairs = data.instruments.compactMap { instrument -> CurrencyPair? in
            if case .forex(let pair) = instrument.kind { pair } else { nil }
        }
        guard pairs.contains(where: { ($0.base == code && $0.quote == "USD") || ($0.base == "USD" && $0.quote == code) })
        else {
            let served = pairs.map { "\($0.base).\($0.quote)" }
            let needed = CurrencyPair.conventional(code, "USD").map { "\($0.base).\($0.quote)" } ?? "\(code).USD"
            throw TraderError(
                "\(flag) \(code): the account's figures convert through a pair that prices \(code) in dollars "
                    + "(\(needed)), and \(data.name) "
                    + (served.isEmpty ? "serves no currency pair" : "serves \(served.joined(separator: ", "))"))
        }
        return code
    }

    /// The fault script in a file (`--faults`).
    /// - Throws: `TraderError` naming the file and the line at fault.
    public static func faultScript(_ path: String) throws(TraderError) -> FaultScript {
        let text = try TextFiles.read(path)
        do { return try FaultScript(text: text) } catch { throw TraderError("\(path): \(error)") }
    }

    /// A listening port: 1 to 65535, or 0 for any free port when `allowsAny`.
    public static func port(_ value: Int, flag: String, allowsAny: Bool) throws(TraderError) -> Int {
        guard (allowsAny ? 0 : 1)...65_535 ~= value else {
            throw TraderError("\(flag) must be from \(allowsAny ? "0 (any free port)" : "1") to 65535, got \(value)")
        }
        return value
    }

    /// `--account`'s codes: letters and digits, comma-separated, each once (several for a login that manages more
    /// than one account).
    public static func accounts(_ text: String) throws(TraderError) -> [String] {
        let codes = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        for code in codes where code.isEmpty || !code.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) {
            throw TraderError("--account takes account codes of letters and digits, comma-separated "
                + "(e.g. DU1234567 or DU111,DU222), got '\(text)'")
        }
        guard Set(codes).count == codes.count else { throw TraderError("--account names an account twice: '\(text)'") }
        return codes
    }

    /// A warning for a listener that other machines can reach (the simulator has no authentication).
    public static func exposureWarning(bind: String) -> String? {
        guard !["127.0.0.1", "::1", "localhost"].contains(bind) else { return nil }
        return "warning: listening on \(bind) lets any machine that reaches it trade this simulated account; "
            + "use --bind 127.0.0.1 unless that is intended"
    }

    /// The data of `ibtrader run --simulated`: the four stocks' 1-minute bars (a day replayed as daily bars would move
    /// along a random bridge, and the demo would rotate on that noise).
    public static let demoData = "bundled:stocks-1min"

    /// Where `ibtrader run --simulated` starts: 2011-01-18 15:30 UTC, an hour into the session, so the example's 1-hour
    /// warm-up is that morning's bars. The four moved apart that day (open to close AAPL +3.4 %, the first session
    /// after its CEO's medical leave was announced; GOOG +2.2 %, MSFT +1.8 %, IBM +0.6 %), so the ranking has real
    /// moves to follow.
    public static let demoStart = Timestamp(year: 2011, month: 1, day: 18, secondOfDay: 15 * 3600 + 30 * 60)

    /// The in-process simulator of `ibtrader run --simulated`: `demoData` from `demoStart` on a free loopback port.
    /// - Parameters:
    ///   - buyingPower: the account's rule at the fill (`TraderConfiguration.fundsRule`: the run's configuration).
    ///   - cash: the account's starting cash (the bot's capital, `strategy.cash`, so that its fills meet the buying
    ///     power a backtest's meet; `nil`: the simulator's million).
    public static func simulated(
        account: String, speed: Double, buyingPower: FundsAtFill.Rule? = nil, cash: Double? = nil
    ) throws(TraderError) -> GatewaySimulator {
        let data = try self.data(demoData, synthetic: nil, seed: 0)
        var logger = Logger(label: "ibtrader.gateway")
        logger.logLevel = .warning
        var gateway = GatewayConfiguration(accounts: [account])
        if let cash { gateway.startingCash = cash }
        gateway.simulation.buyingPower = buyingPower
        return GatewaySimulator(
            configuration: GatewaySimulatorConfiguration(
                host: "127.0.0.1", port: 0, data: data, gateway: gateway, start: demoStart, clock: .speed(speed)),
            logger: logger)
    }
}

extension GatewaySetup {
    /// `ibtrader gateway --list`: one line per symbol with its exchange, date range and name.
    public static func listing(_ data: MarketDataSet) -> String {
        var lines = ["\(data.name): \(data.instruments.count) symbol\(data.instruments.count == 1 ? "" : "s")"]
        for instrument in data.instruments {
            let first = instrument.series.firstTime.map { String($0.description.prefix(10)) } ?? "-"
            let last = instrument.series.lastTime.map { String($0.description.prefix(10)) } ?? "-"
            lines.append("\(instrument.symbol)\t\(instrument.primaryExchange)\t\(first)..\(last)\t\(instrument.longName)")
        }
        return lines.joined(separator: "\n")
    }

    /// Serves until the simulator (or its admin port) stops; `announce` is told the bound port and replay time.
    public static func serve(
        _ simulator: GatewaySimulator, adminPort: Int?, announce: @Sendable (Int, Timestamp) -> Void
    ) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await simulator.run() }
            if let adminPort { group.addTask { try await simulator.runAdmin(port: adminPort) } }
            announce(await simulator.listeningPort(), await simulator.now())
            try await group.next()
        }
    }
}

extension GatewaySetup {
    /// Runs `body` with the in-process simulator of `run --simulated` listening on a free loopback port (its port
    /// passed in), and stops the simulator when `body` returns.
    public static func withSimulated(
        account: String, speed: Double, buyingPower: FundsAtFill.Rule? = nil, cash: Double? = nil, logger: Logger,
        _ body: @Sendable (Int) async throws -> Void
    ) async throws {
        let simulator = try simulated(account: account, speed: speed, buyingPower: buyingPower, cash: cash)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await simulator.run() }
            let port = await simulator.listeningPort()
            logger.notice("simulator listening on 127.0.0.1:\(port), replay x\(speed), \(demoData) from \(demoStart)")
            try await body(port)
            group.cancelAll()
        }
    }
}
