import Foundation
import InteractiveBrokers
import Logging
import Storage
import TWSClient
import TWSProtocol
import TWSTestSupport
import TWSTranscript
import TradingModel
import VirtualTime

/// Runs the manual commands' ticket sessions (what `ibtrader order|modify|cancel` run) against a recorded session:
/// the transcript's steps are played as the gateway, the start-up reads a bare-client transcript does not name are
/// answered by the player's ambient responder, all on one `VirtualLoop`.
enum RecordedCommands {
    /// Zones a recording's connection time names, read independently of the product's own zone table (so that a
    /// wrong entry there cannot be matched by the same wrong entry here): Windows names as CLDR's windowsZones.xml
    /// maps them.
    static let zones: [String: String] = [
        "Central European Standard Time": "Europe/Warsaw", "W. Europe Standard Time": "Europe/Berlin",
        "Central Standard Time": "America/Chicago", "Eastern Standard Time": "America/New_York",
        "GMT Standard Time": "Europe/London", "US/Eastern": "America/New_York", "CET": "Europe/Paris",
    ]

    /// Execution times as TWS writes them: local time in the login zone, followed by the zone's name as the
    /// connection time gives it.
    static let timeText: @Sendable (Date, String) -> String = { date, connectionTime in
        let words = connectionTime.split(separator: " ")
        guard words.count > 2 else { return TranscriptTimes.utcText(date) }
        let name = words[2...].joined(separator: " ")
        guard let zone = zones[name].flatMap(TimeZone.init(identifier:)) else { return TranscriptTimes.utcText(date) }
        return TranscriptTimes.zoned(date, zone: zone, name: name)
    }

    /// AAPL as the grounded captures show it (conId, local symbol, trading class), for sessions that never name it.
    static let aapl: TWSContract = {
        var contract = TWSContract(contractID: 265598, symbol: "AAPL", securityType: "STK", exchange: "SMART", currency: "USD")
        contract.localSymbol = "AAPL"
        contract.tradingClass = "NMS"
        return contract
    }()

    /// A quiet paper account of 100,000 USD that knows AAPL, with a quote near `price`.
    static func ambient(price: Double = 13.25) -> TranscriptAmbient {
        TranscriptAmbient(contracts: ["AAPL": aapl], quote: (price - 0.05, price + 0.05, price))
    }

    /// A transcript of `Tests/Fixtures/transcripts/<folder>`.
    static func transcript(_ name: String, folder: String = "ibkr-go") throws -> TWSTranscript {
        try TWSTranscript.load(path: TranscriptFiles.directory.deletingLastPathComponent()
            .appendingPathComponent(folder).appendingPathComponent(name).path)
    }

    /// Runs `body` with a transport playing `transcript` (leniently: every field of a client step compared, the rest
    /// answered ambiently) on a fresh loop; returns what `body` returned and the player's report.
    static func run<Result: Sendable>(
        _ transcript: TWSTranscript, ambient: TranscriptAmbient = RecordedCommands.ambient(),
        timeLimit: Duration = .seconds(3600),
        _ body: @Sendable (TranscriptTransport, VirtualLoop) async throws -> Result
    ) async throws -> (Result, TranscriptTransport.Report) {
        try await VirtualLoop.run(timeLimit: timeLimit) { loop in
            let transport = TranscriptTransport(
                transcript: transcript, options: .init(ambient: ambient, timeText: timeText, disconnectGrace: .seconds(2)),
                clock: loop.clock)
            let result = try await body(transport, loop)
            return (result, transport.report)
        }
    }

    /// One command's connection (a leg of the transcript) with client id `clientID`.
    static func connect<Result: Sendable>(
        _ transport: TranscriptTransport, _ loop: VirtualLoop, clientID: Int = 1,
        _ body: (TWSConnection, TWSSessionInfo) async throws -> Result
    ) async throws -> Result {
        var configuration = TWSConnectionConfiguration(clientID: clientID)
        configuration.readyTimeout = .seconds(30)
        var logger = Logger(label: "recorded")
        logger.logLevel = .critical
        return try await TWSConnection.connect(
            configuration, environment: TWSConnectionEnvironment(transport: transport, clock: loop.clock, logger: logger), body)
    }

    /// The manual commands' settings on the loop's clock, journaled to `journal`.
    static func settings(_ journal: OrderJournal?, _ loop: VirtualLoop, timeout: Duration = .seconds(10)) -> ManualSettings {
        let start = Timestamp(seconds: 1_776_270_000)
        let clock = loop.clock
        var settings = ManualSettings(clock: { start + TimeSpan(clock.elapsed) })
        settings.journal = journal
        settings.timeout = timeout
        settings.sleeper = loop.clock
        return settings
    }

    /// A scratch journal for one test.
    static func withJournal<T>(_ body: (OrderJournal) async throws -> T) async throws -> T {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ibtrader-recorded-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: url) }
        return try await body(try OrderJournal(path: url.appendingPathComponent("journal.sqlite").path))
    }
}
