import ArgumentParser
import BundledData
import Foundation
import GatewaySimulator
import Logging
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

    @Option(name: .long, help: "Address to listen on.")
    var bind: String = "127.0.0.1"

    @Option(name: .long, help: "Port to listen on (0 = any free port).")
    var port: Int = 7497

    @Option(name: .long, help: "A folder of SYMBOL_1d.csv files, 'bundled' (= bundled:stocks-unadjusted, prices as traded) or bundled:NAME.")
    var data: String = "bundled"

    @Option(name: .long, help: "Serve N synthetic random-walk symbols instead of --data.")
    var synthetic: Int?

    @Option(name: .long, help: "Seed of --synthetic.")
    var seed: UInt64 = 42

    @Option(name: .long, help: "Replay speed: data seconds per wall second (0 = frozen; advance with a fault script).")
    var speed: Double = 1

    @Option(name: .long, help: "Replay start date (YYYY-MM-DD, session open 14:30 UTC).")
    var start: String?

    @Option(name: .long, help: "The paper account code.")
    var account: String = "DU1234567"

    @Option(name: .long, help: "Starting cash.")
    var cash: Double = 1_000_000

    @Option(name: .long, help: "A fault script: one command per line, optionally 'at SECONDS command'.")
    var faults: String?

    @Option(name: .long, help: "Accept fault commands, one per line, on this loopback port.")
    var adminPort: Int?

    @Option(name: .long, help: "Log level (trace, debug, info, notice, warning, error).")
    var logLevel: String = "info"

    @Flag(name: .long, help: "Print the symbols of the data set and exit.")
    var list = false

    func run() async throws {
        let dataSet = try loadData()
        if list {
            print("\(dataSet.name): \(dataSet.instruments.count) symbols")
            for instrument in dataSet.instruments {
                let first = instrument.series.firstTime.map { String($0.description.prefix(10)) } ?? "-"
                let last = instrument.series.lastTime.map { String($0.description.prefix(10)) } ?? "-"
                print("\(instrument.symbol)\t\(instrument.primaryExchange)\t\(first)..\(last)\t\(instrument.longName)")
            }
            return
        }
        guard speed.isFinite, speed >= 0, speed <= 1_000_000 else {
            throw ValidationError("--speed must be between 0 and 1000000")
        }
        var startTime: Timestamp?
        if let start {
            let digits = start.replacingOccurrences(of: "-", with: "")
            guard digits.count == 8, let y = Int(digits.prefix(4)), let m = Int(digits.dropFirst(4).prefix(2)),
                let d = Int(digits.suffix(2)), (1...12).contains(m), (1...31).contains(d)
            else { throw ValidationError("--start must be YYYY-MM-DD") }
            startTime = Timestamp(year: y, month: m, day: d, secondOfDay: 14 * 3600 + 30 * 60)
        }
        var script: FaultScript?
        if let faults {
            let text = try String(contentsOfFile: faults, encoding: .utf8)
            do { script = try FaultScript(text: text) } catch { throw ValidationError("\(faults): \(error)") }
        }
        var logger = Logger(label: "ibtrader.gateway")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        let gateway = GatewayConfiguration(accountCode: account, startingCash: cash)
        let simulator = GatewaySimulator(configuration: GatewaySimulatorConfiguration(
            host: bind, port: port, data: dataSet, gateway: gateway, start: startTime,
            clock: speed > 0 ? .speed(speed) : .manual, faults: script), logger: logger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await simulator.run() }
            if let adminPort { group.addTask { try await simulator.runAdmin(port: adminPort) } }
            let bound = await simulator.listeningPort()
            let now = await simulator.now()
            let line = "ibtrader gateway listening on \(bind):\(bound) (TWS API v157-200), serving \(dataSet.name), "
                + "\(dataSet.instruments.count) symbols, replay clock at \(now) x\(speed), account \(account)\n"
            FileHandle.standardOutput.write(Data(line.utf8))
            try await group.next()
        }
    }

    private func loadData() throws -> MarketDataSet {
        if let synthetic { return MarketDataSet.synthetic(count: synthetic, seed: seed) }
        do {
            if data == "bundled" { return try MarketDataSet.bundled(.stocksUnadjusted) }
            if data.hasPrefix("bundled:") {
                let name = String(data.dropFirst("bundled:".count))
                guard let set = BundledDataSet(rawValue: name) else {
                    throw ValidationError("\(BundledDataError.unknownDataSet(name))")
                }
                return try MarketDataSet.bundled(set)
            }
            return try MarketDataSet.load(directory: URL(fileURLWithPath: data, isDirectory: true))
        } catch let error as MarketDataError {
            throw ValidationError(error.description)
        }
    }
}
