import Foundation
import GatewayCore
import GatewaySimulator
import InteractiveBrokers
import LiveSession
import Logging
import Storage
import TWSClient
import TradingEngine
import TradingModel
import Synchronization

/// Bar → order on loopback, one hop, any client: the gateway simulator (manual clock) emits one 5-second real-time
/// bar per step; the client turns it into a one-share market order; a proxy between the two (`FrameTapProxy`) stamps
/// the bar frame just before writing it to the client's socket and the placeOrder frame just after reading it. The
/// same proxy times IBTrader (`LiveRunner`, the code of `ibtrader run`, its default path) and ib_async 2.1.0 (a
/// minimal bot that sends a market order on each bar, `Benchmarks/python/ib_async_bar_bot.py`). Bars are paced
/// 25 ms apart, so the 45-messages-per-second outbound limiter never delays an order.
enum LatencyBenchmark {
    /// Who receives the bars.
    enum Client {
        /// IBTrader's bot, with the journal at this durability (`nil`: no journal).
        case ibtrader(journal: OrderJournal.Durability?)
        /// The ib_async bot, run by this Python.
        case ibAsync(python: String)

        var name: String {
            switch self {
            case .ibtrader(let journal): journal == nil ? "IBTrader, journal off" : "IBTrader, journal on"
            case .ibAsync: "ib_async"
            }
        }
    }

    /// A line on standard error, so a long run shows where it is.
    static func progress(_ text: String) { FileHandle.standardError.write(Data("latency: \(text)\n".utf8)) }

    struct Result {
        var latency: LatencyDistribution
        var bars: Int
        var missing: Int
        /// IBTrader's own stamps: the bar taken from the session's inbox → its order handed to the connection.
        var inside: LatencyDistribution?
        /// IBTrader's journal writes (each a SQLite transaction), all of the run's.
        var journalWrites: LatencyDistribution?

        /// Several runs of one client as one.
        static func pooled(_ runs: [Result]) -> Result? {
            guard let latency = LatencyDistribution.pooled(runs.map(\.latency)) else { return nil }
            return Result(
                latency: latency, bars: runs.map(\.bars).reduce(0, +), missing: runs.map(\.missing).reduce(0, +),
                inside: LatencyDistribution.pooled(runs.map(\.inside)),
                journalWrites: LatencyDistribution.pooled(runs.map(\.journalWrites)))
        }
    }

    static func run(samples: Int, warmup: Int, client: Client) async throws -> Result {
        let data = minuteData(minutes: (samples + warmup) * 5 / 60 + 180)
        let quiet: Logger = {
            var logger = Logger(label: "bench.latency")
            // BENCH_LATENCY_LOG=notice (or info, debug) shows the bot's and the simulator's log on standard error.
            logger.logLevel = ProcessInfo.processInfo.environment["BENCH_LATENCY_LOG"].flatMap(Logger.Level.init(rawValue:)) ?? .error
            return logger
        }()
        let start = (data.instruments[0].series.firstTime ?? Timestamp(seconds: 0)) + .seconds(3600)
        let simulator = GatewaySimulator(
            configuration: GatewaySimulatorConfiguration(
                host: "127.0.0.1", port: 0, data: data, start: start, clock: .manual),
            logger: quiet)
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("latency-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let inside = StampBox()
        return try await withThrowingTaskGroup(of: Result?.self, returning: Result.self) { group in
            group.addTask {
                try await simulator.run()
                return nil
            }
            let proxy = try FrameTapProxy(upstreamPort: await simulator.listeningPort())
            proxy.start()
            let (stop, stopper) = AsyncStream.makeStream(of: String.self)
            var python: Process?
            switch client {
            case .ibtrader(let durability):
                var connection = TWSConnectionConfiguration(host: "127.0.0.1", port: proxy.port, clientID: 5)
                connection.readyTimeout = .seconds(20)
                // BENCH_LATENCY_MAX_VERSION=200: the text protocol instead of protobuf (226), to compare the two.
                if let text = ProcessInfo.processInfo.environment["BENCH_LATENCY_MAX_VERSION"], let maximum = Int(text) {
                    connection.versions = connection.versions.lowerBound...maximum
                }
                var configuration = LiveRunnerConfiguration(connection: connection, symbols: ["LAT"])
                configuration.session.warmupDuration = ""
                configuration.session.commissionWait = .seconds(3600)
                configuration.session.summaryInterval = .seconds(3600)
                if let durability {
                    // As `ibtrader run` opens it: manual checkpoints, on the runner's 1-second tick.
                    configuration.journal = try OrderJournal(
                        path: scratch.appendingPathComponent("journal.sqlite").path, durability: durability,
                        checkpoints: .manual)
                }
                configuration.latencyObserver = { kind, seconds in
                    switch kind {
                    case .barToOrder: inside.values.withLock { $0.append(Int64(seconds * 1e9)) }
                    case .journalWrite: inside.writes.withLock { $0.append(Int64(seconds * 1e9)) }
                    }
                }
                let runConfiguration = configuration
                group.addTask {
                    _ = try await LiveRunner.run(
                        strategy: EveryBarTrader(), configuration: runConfiguration, logger: quiet, stop: stop)
                    return nil
                }
            case .ibAsync(let interpreter):
                let process = Process()
                process.executableURL = URL(fileURLWithPath: interpreter)
                let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                    .deletingLastPathComponent().appendingPathComponent("python/ib_async_bar_bot.py")
                process.arguments = [script.path, "\(proxy.port)"]
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                try process.run()
                python = process
            }
            defer {
                python?.terminate()
                python?.waitUntilExit()
            }
            group.addTask {
                defer { stopper.yield("benchmark done") }
                while await simulator.state().activeSubscriptions.realTimeBars < 1 {
                    try await Task.sleep(for: .milliseconds(10))
                }
                progress("\(client.name): subscribed, sending \(warmup + samples) bars")
                var reads = proxy.orderReads.makeAsyncIterator()
                var total: [Int64] = []
                var missing = 0
                let clock = ContinuousClock()
                for step in 0..<(warmup + samples) {
                    let paced = clock.now.advanced(by: .milliseconds(25))
                    await simulator.advance(by: .seconds(5))
                    guard let read = await reads.next() else { break }
                    if step >= warmup {
                        if read.bar == 0 || read.order < read.bar {
                            missing += 1
                        } else {
                            total.append(Int64(read.order - read.bar))
                        }
                    }
                    try await clock.sleep(until: paced)
                }
                let stamps = inside.values.withLock { Array($0.dropFirst(warmup)) }
                let writes = inside.writes.withLock { $0 }
                return Result(
                    latency: LatencyDistribution(nanoseconds: total), bars: warmup + samples, missing: missing,
                    inside: stamps.isEmpty ? nil : LatencyDistribution(nanoseconds: stamps),
                    journalWrites: writes.isEmpty ? nil : LatencyDistribution(nanoseconds: writes))
            }
            // The driver's result, then the bot's end; the simulator runs until cancelled.
            var result: Result?
            while result == nil, let value = try await group.next() {
                if let value { result = value }
            }
            progress("\(client.name): \(result?.bars ?? 0) bars sent, stopping")
            python?.terminate()
            group.cancelAll()
            guard let result else { throw SocketError("latency run produced no result") }
            return result
        }
    }

    /// One instrument with one-minute bars from 13:30 UTC (every 5-second step has a bar): a seeded
    /// random walk around 100 with a large volume, so a one-share order always fills at once.
    static func minuteData(minutes: Int) -> MarketDataSet {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Double {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
        }
        var bars: [Bar] = []
        var price = 100.0
        // 2023-11-15 13:30 UTC: the replay starts an hour later, at the regular session's open (09:30 New York), and
        // its 2,100 steps of 5 s end well before the close. Since the simulator serves useRTH bars from regular hours
        // only (issue 44), a replay at night sent the bot (useRTH, as `ibtrader run` asks) no bar, and its rows waited.
        let first = Timestamp(seconds: 1_700_055_000)
        for k in 0..<minutes {
            let open = price
            price = max(1, price * (1 + (next() - 0.5) * 0.002))
            let high = max(open, price) * (1 + next() * 0.0005)
            let low = min(open, price) * (1 - next() * 0.0005)
            bars.append(
                Bar(
                    timestamp: first + .seconds(Int64(k) * 60), open: Price(approximately: open),
                    high: Price(approximately: high), low: Price(approximately: low),
                    close: Price(approximately: price), volume: Quantity(1_000_000)))
        }
        return MarketDataSet(series: ["LAT": InstrumentSeries(bars: bars, resolution: .minutes(1))], name: "latency")
    }
}

/// The bot's own bar → order stamps, shared with its latency observer.
final class StampBox: Sendable {
    let values = Mutex<[Int64]>([])
    let writes = Mutex<[Int64]>([])
}
