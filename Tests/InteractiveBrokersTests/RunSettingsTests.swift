import Foundation
import Testing
import TradingEngine
import TradingModel

@testable import InteractiveBrokers
@testable import LiveSession

@testable import TraderCLI

@Suite("ibtrader run config")
struct RunSettingsTests {
    private let base = URL(fileURLWithPath: "/configs/paper", isDirectory: true)
    private let minimal = """
        connection: {port: 4002, clientId: 3}
        universe: {symbols: [AAPL, MSFT]}
        journal: {path: state/journal.sqlite}
        """

    private func message(_ text: String, environment: [String: String] = [:]) -> String {
        do {
            _ = try RunSettings.load(
                text: text, source: "/configs/paper/run.yaml", baseDirectory: base, environment: environment)
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    @Test("a valid file: values, defaults, relative paths against the file's folder")
    func validFile() throws {
        let settings = try RunSettings.load(
            text: minimal, source: "/configs/paper/run.yaml", baseDirectory: base, environment: [:])
        #expect(settings.port == 4002)
        #expect(settings.clientID == 3)
        #expect(settings.host == "127.0.0.1")
        #expect(settings.symbols == ["AAPL", "MSFT"])
        #expect(settings.journalPath == "/configs/paper/state/journal.sqlite")
        #expect(settings.cancelOnExit)
        #expect(settings.strategy == "momentum")
    }

    @Test("validation errors name the key and the file", arguments: [
        ("connection: {port: abc}\nuniverse: {symbols: [A]}", "'connection.port' must be an integer"),
        ("connection: {port: 70000}\nuniverse: {symbols: [A]}", "'connection.port' must be 1…65535"),
        ("connection: {prot: 1}\nuniverse: {symbols: [A]}", "unknown key 'connection.prot'"),
        ("universe: {symbols: []}", "'universe.symbols' must name at least one symbol"),
        ("universe: {symbols: [A]}\nstrategy: {name: magic}", "'strategy.name' 'magic' is not one of"),
        ("universe: {symbols: [A]}\norders: {cancelOnExit: maybe}", "'orders.cancelOnExit' must be true or false"),
        ("universe: {symbols: [A]}\ndata: {marketDataType: live}", "'data.marketDataType' must be one of"),
        ("universe: {symbols: [A]}\nrisk: {maxPositionPercentOfEquity: lots}", "'risk'"),
        ("universe: {symbols: [A]}\nstrategy: {parameters: {lookback: many}}", "'strategy.parameters'"),
        ("universe: {symbols: [A]}\nbroker: {x: 1}", "unknown section 'broker'"),
    ])
    func errorsNameKeyAndFile(_ text: String, _ expected: String) {
        let text = message(text)
        #expect(text.contains("/configs/paper/run.yaml"), "\(text)")
        #expect(text.contains(expected), "\(text)")
    }

    @Test("environment variables override every key by its path")
    func environmentOverrides() throws {
        let settings = try RunSettings.load(
            text: minimal, source: "/configs/paper/run.yaml", baseDirectory: base,
            environment: [
                "IBTRADER_CONNECTION_PORT": "7497", "IBTRADER_CONNECTION_CLIENT_ID": "9",
                "IBTRADER_UNIVERSE_SYMBOLS": "IBM, GOOG", "IBTRADER_ORDERS_CANCELONEXIT": "false",
                "IBTRADER_JOURNAL_PATH": "other.sqlite", "IBTRADER_RISK_MAXACTIVEPOSITIONS": "3",
                "IBTRADER_CONNECTION_ACCOUNT": "DU42",
            ])
        #expect(settings.port == 7497)
        #expect(settings.clientID == 9)
        #expect(settings.symbols == ["IBM", "GOOG"])
        #expect(!settings.cancelOnExit)
        #expect(settings.journalPath == "/configs/paper/other.sqlite")
        #expect(settings.risk.maxActivePositions == 3)
        #expect(settings.account == "DU42")
    }

    @Test("a bad environment value names the variable")
    func environmentErrorsNameTheVariable() {
        let text = message(minimal, environment: ["IBTRADER_CONNECTION_PORT": "x"])
        #expect(text.contains("IBTRADER_CONNECTION_PORT (environment)"), "\(text)")
        #expect(text.contains("'connection.port'"), "\(text)")
    }

    @Test("shapes swift-configuration would let pass are errors naming key and file", arguments: [
        ("connection: {port: {value: 1}}\nuniverse: {symbols: [A]}", "'connection.port' must be a single value"),
        ("connection: {host: [a, b]}\nuniverse: {symbols: [A]}", "'connection.host' must be a single value"),
        ("universe: {symbols: AAPL}", "'universe.symbols' must be a list of symbols"),
        ("universe: {symbols: [[A]]}", "'universe.symbols' holds a non-symbol"),
        ("", "'universe.symbols' must name at least one symbol"),
        ("- a\n- b", "the top level must be a mapping of sections"),
    ])
    func shapeErrors(_ text: String, _ expected: String) {
        let text = message(text)
        #expect(text.contains("/configs/paper/run.yaml"), "\(text)")
        #expect(text.contains(expected), "\(text)")
    }

    @Test("null values count as absent; both environment spellings of a camelCase key work")
    func nullsAndSpellings() throws {
        let settings = try RunSettings.load(
            text: "connection: {port: 4002, account: ~}\nuniverse: {symbols: [AAPL]}\nlogging: {file: null}",
            source: "/configs/paper/run.yaml", baseDirectory: base, environment: [:])
        #expect(settings.logFile == nil)
        #expect(settings.account == nil)
        #expect(settings.port == 4002)
        for name in ["IBTRADER_CONNECTION_CLIENT_ID", "IBTRADER_CONNECTION_CLIENTID"] {
            let overridden = try RunSettings.load(
                text: minimal, source: "/configs/paper/run.yaml", baseDirectory: base, environment: [name: "11"])
            #expect(overridden.clientID == 11, "\(name)")
        }
        let risk = message(
            minimal + "\nrisk: {maxPositionPercentOfEquity: 30}",
            environment: ["IBTRADER_RISK_MAX_ACTIVE_POSITIONS": "few"])
        #expect(risk.contains("IBTRADER_RISK_MAX_ACTIVE_POSITIONS (environment)"), "\(risk)")
        #expect(risk.contains("'risk'"), "\(risk)")
    }

    @Test("a file through swift-configuration's FileProvider: values, environment, paths against its folder")
    func fileProvider() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("run.yaml").path
        try (minimal + "\nrisk: {maxPositionPercentOfEquity: 25}\n").write(toFile: file, atomically: true, encoding: .utf8)
        let settings = try await RunSettings.load(file: file, environment: ["IBTRADER_CONNECTION_HOST": "10.0.0.9"])
        #expect(settings.port == 4002)
        #expect(settings.host == "10.0.0.9")
        #expect(settings.risk.maxPositionPercentOfEquity == 25)
        #expect(settings.journalPath == directory.appendingPathComponent("state/journal.sqlite").standardizedFileURL.path)
        try "connection: {port: 0}\nuniverse: {symbols: [A]}\n".write(toFile: file, atomically: true, encoding: .utf8)
        await #expect(throws: CLIError.self) { try await RunSettings.load(file: file, environment: [:]) }
        do {
            _ = try await RunSettings.load(file: file, environment: [:])
        } catch {
            #expect("\(error)".contains("\(file): 'connection.port' must be 1…65535"), "\(error)")
        }
    }

    @Test("the bundled default equals examples/momentum-paper.yaml and is valid")
    func bundledDefault() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let file = try String(
            contentsOf: root.appendingPathComponent("examples/momentum-paper.yaml"), encoding: .utf8)
        #expect(file == RunCommand.defaultConfig)
        let settings = try RunSettings.load(text: file, source: "momentum-paper.yaml", baseDirectory: base, environment: [:])
        #expect(settings.symbols == ["AAPL", "GOOG", "IBM", "MSFT"])
        guard case .momentumRotation(let config) = try settings.strategySpec() else {
            Issue.record("not momentum")
            return
        }
        #expect(config.rebalance == .everyBars(12))
        #expect(config.lookback == 12)
    }

    @Test("durations and speeds")
    func durationAndSpeed() throws {
        #expect(try RunCommand.parseDuration("60s") == .seconds(60))
        #expect(try RunCommand.parseDuration("5m") == .seconds(300))
        #expect(try RunCommand.parseDuration("1.5h") == .seconds(5400))
        #expect(throws: (any Error).self) { try RunCommand.parseDuration("soon") }
        #expect(try RunCommand.parseSpeed("max") > 1000)
        #expect(throws: (any Error).self) { try RunCommand.parseSpeed("-1") }
    }
}

@Suite("orders.timeout")
struct OrderTimeoutDefaultTests {
    struct Buyer: Strategy {
        var timeout: TimeSpan?
        mutating func handle(_ event: StrategyEvent, in context: some StrategyContext) -> [StrategyAction] {
            guard case .bar(let id, _) = event else { return [] }
            var request = OrderRequest(instrument: id, side: .buy, quantity: Quantity(1))
            request.timeout = timeout
            return [.submit(request)]
        }
    }

    /// The commands after the order was accepted and `after` passed without data.
    private func commandsAfter<S: Strategy>(_ strategy: S, _ after: TimeSpan) -> (OrderID?, [EngineCommand]) {
        var engine = EngineCore(universe: Universe(symbols: ["A"]), strategy: strategy)
        let t = Timestamp(seconds: 1_000)
        let bar = Bar(timestamp: t, open: Price(10), high: Price(10), low: Price(10), close: Price(10), volume: Quantity(100))
        guard case .submit(let order)? = engine.handle(.bar(InstrumentID(0), bar)).first else { return (nil, []) }
        _ = engine.handle(.execution(.accepted(order.id, at: t)))
        return (order.id, engine.handle(.clock(t + after)))
    }

    @Test("orders without a timeout get the configured one; the engine cancels them when it runs out")
    func defaultTimeout() {
        let (id, commands) = commandsAfter(OrderTimeoutDefault(Buyer(), timeout: .seconds(30)), .seconds(31))
        #expect(id != nil)
        #expect(commands == id.map { [.cancel($0)] })
        let (_, early) = commandsAfter(OrderTimeoutDefault(Buyer(), timeout: .seconds(30)), .seconds(29))
        #expect(early.isEmpty)
        let (own, ownCommands) = commandsAfter(OrderTimeoutDefault(Buyer(timeout: .seconds(5)), timeout: .seconds(30)), .seconds(6))
        #expect(ownCommands == own.map { [.cancel($0)] })
        let (_, none) = commandsAfter(Buyer(), .seconds(3600))
        #expect(none.isEmpty)
    }

    struct QuoteWatcher: Strategy {
        static var handlesBarsClosed: Bool { false }
        var usesQuotes: Bool { true }
        mutating func handle(_ event: StrategyEvent, in context: some StrategyContext) -> [StrategyAction] { [] }
    }

    @Test("the wrapper says what the wrapped strategy says: quotes, barsClosed")
    func forwardsTheStrategysNeeds() {
        typealias Wrapped = OrderTimeoutDefault<QuoteWatcher>
        #expect(Wrapped(QuoteWatcher(), timeout: .seconds(30)).usesQuotes)
        #expect(!Wrapped.handlesBarsClosed)
        #expect(!OrderTimeoutDefault<Buyer>(Buyer(), timeout: .seconds(30)).usesQuotes)
        #expect(OrderTimeoutDefault<Buyer>.handlesBarsClosed)
    }
}

@Suite("run log file")
struct FileLogHandlerTests {
    @Test("lines are appended; at the size limit the file moves to .1 and a new one starts")
    func rotates() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("log-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("run.log").path
        let handler = try FileLogHandler(path: path, label: "test", maxBytes: 300)
        for k in 0..<10 {
            handler.sink.write("2026-01-01T00:00:00Z info test: line \(k) of the run log\n")
        }
        let current = try String(contentsOfFile: path, encoding: .utf8)
        let previous = try String(contentsOfFile: path + ".1", encoding: .utf8)
        #expect(current.contains("line 9 of the run log"))
        #expect(previous.contains("info test: line"))
        #expect(current.utf8.count < 300)
    }
}
