import ArgumentParser
import Foundation
import GatewayCore
import Logging
import TraderKit
import TradingModel

/// `ibtrader gateway`: a local TWS-protocol paper-trading gateway over historical or synthetic data.
struct GatewayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gateway",
        abstract: "Run a simulated IB Gateway (TWS API protocol) over historical or synthetic data.",
        discussion: """
            Any TWS API client (ibtrader connect/contract/quote/history, ib_async, the official client) can connect. \
            Orders fill through the same matching engine as backtests, on a replay clock that starts with at least \
            a year of history behind it. See docs/gateway-simulator.md.
            """
    )

    @Option(name: .long, help: "Address to listen on.") var bind: String = "127.0.0.1"
    @Option(name: .long, help: "Port to listen on (0 = any free port).") var port: Int = 7497
    @Option(
        name: .long,
        help: "A folder of SYMBOL_1d.csv files, 'bundled' (= bundled:stocks-unadjusted, prices as traded), bundled:NAME or parquet:DIR (a catalogue).")
    var data: String = "bundled"
    @Option(name: .long, help: "Serve N synthetic random-walk symbols instead of --data.") var synthetic: Int?
    @Option(name: .long, help: "Seed of --synthetic.") var seed: UInt64 = 42
    @Option(name: .long, help: "Replay speed: data seconds per wall second (0 = frozen; advance with a fault script).")
    var speed: Double = 1
    @Option(name: .long, help: "Replay start: YYYY-MM-DD (its 09:30 New York open), or a New York time YYYY-MM-DD HH:MM (a trailing Z: UTC).") var start: String?
    @Option(name: .long, help: "The paper account code; several, comma-separated, for a login that manages more than one (orders must then name theirs, as at IB).")
    var account: String = "DU1234567"
    @Option(name: .long, help: "Starting cash, in --currency.") var cash: Double = 1_000_000
    @Option(name: .long, help: "The account's base currency: its figures in it, other currencies at the served pairs' prices (EUR needs EUR.USD in --data).") var currency = "USD"
    @Option(name: .long, help: "The zone the login writes its connection, execution and completed times in, named as given: an IANA name (Europe/Paris), abbreviation (CET), Windows name (\"Central European Standard Time\", as a Windows-hosted TWS writes), or NAME=ZONE for any NAME with ZONE's rules.") var loginZone = "UTC"
    @Option(name: .long, help: "A fault script: one command per line, optionally 'at SECONDS command'.")
    var faults: String?
    @Option(name: .long, help: "Accept fault commands, one per line, on this loopback port.") var adminPort: Int?
    @Option(name: .long, help: "Log level (trace, debug, info, notice, warning, error).") var logLevel: String = "info"
    @Flag(name: .long, help: "Print the symbols of the data set and exit.") var list = false
    @Option(name: .long, help: "Serve a recorded gateway session (a transcript file) instead of simulating: each connection plays its next leg (docs/recorded-sessions.md).") var transcript: String?
    @Flag(name: .long, help: "With --transcript: answer only the recording's requests, not a command's start-up reads.") var strict = false

    func validate() throws {
        try GatewaySetup.check(
            port: port, adminPort: adminPort, speed: speed, cash: cash, start: start, account: account, logLevel: logLevel, loginZone: loginZone)
    }

    func run() async throws {
        if let transcript {
            return try await GatewaySetup.replay(transcript, bind: bind, port: port, strict: strict, logLevel: logLevel)
        }
        let dataSet = try GatewaySetup.data(data, synthetic: synthetic, seed: seed)
        if list {
            print(GatewaySetup.listing(dataSet))
            return
        }
        if let warning = GatewaySetup.exposureWarning(bind: bind) { Terminal.printError(warning) }
        let (simulator, line) = try GatewaySetup.simulator(
            data: dataSet, bind: bind, port: port, account: account, cash: cash, currency: currency, start: start,
            speed: speed, faults: faults, logLevel: logLevel, loginZone: loginZone)
        try await GatewaySetup.serve(simulator, adminPort: adminPort) { bound, now in
            // Written at once (not buffered): scripts wait for this line to learn the port.
            FileHandle.standardOutput.write(Data((line(bound, now) + "\n").utf8))
        }
    }
}
