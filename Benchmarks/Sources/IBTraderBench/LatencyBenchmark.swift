import Foundation
import GatewaySimulator
import InteractiveBrokers
import Logging
import Storage
import Synchronization
import TWSClient
import TradingEngine
import TradingModel

/// Tick-to-order latency on loopback: the gateway simulator (manual clock) emits one 5-second real-time bar per
/// step; the bot (`LiveRunner`, the same code as `ibtrader run`) turns it into a market order; a proxy between the
/// two (`FrameTapProxy`) stamps the bar frame just before writing it to the bot's socket and the placeOrder frame
/// just after reading it. The strategy stamps when it sees the bar, which splits the path into inbound (kernel,
/// frame decoding, feed, event loop) and outbound (engine, risk, broker, journal, encoding, scheduler, kernel).
/// Bars are paced ≥ 25 ms apart so the 45-messages-per-second outbound limiter never delays an order.
enum LatencyBenchmark {
    struct Result {
        var total: LatencyDistribution
        var inbound: LatencyDistribution
        var outbound: LatencyDistribution
        var bars: Int
        var missing: Int
        var wallSeconds: Double
        /// Live bars the bot handled, and how many of them on arrival (the synchronous bar path).
        var botBars = 0
        var barsOnArrival = 0
        /// Rehearsals run to keep the path warm (`keepWarm`).
        var rehearsals = 0
        /// The bot's own measure: each bar's bytes read → its order frame handed to the kernel.
        var tickToOrder = TickToOrderLatency()
        var readToOrder = TickToOrderLatency()
        var socketWait = TickToOrderLatency()
        var pollDelay = TickToOrderLatency()
        /// With bursts: the first bar of each burst (after 1.2 s of quiet) and the others (1 ms after the one before).
        var burstFirst: LatencyDistribution?
        var burstRest: LatencyDistribution?
    }

    /// - Parameter journal: the order journal's durability (`nil`: no journal).
    /// - Parameter sessionThread: the bot on its own thread (`LiveRunnerConfiguration.usesSessionThread`, the default)
    ///   or on the shared pools.
    /// - Parameter barsOnArrival: the synchronous bar path (`LiveRunnerConfiguration.handlesBarsOnArrival`, the
    ///   default) or every bar through the runner's input stream.
    /// - Parameter busyPoll: the session thread busy-polls (`LiveRunnerConfiguration.busyPolls`, `latency.busyPoll`).
    /// - Parameter keepWarm: rehearse the path after 1 ms of quiet (`keepWarmInterval`, `latency.keepWarm`).
    /// - Parameter burst: `0`: bars 25 ms apart; `N`: bursts of N bars 1 ms apart, 1.2 s between bursts, which shows
    ///   the same path with its code and data still in the caches (all but each burst's first bar).
    static func run(
        samples: Int, warmup: Int, journal: OrderJournal.Durability?, sessionThread: Bool = true,
        barsOnArrival: Bool = true, busyPoll: Bool = false, keepWarm: Bool = false, burst: Int = 0
    ) async throws -> Result {
        let data = minuteData(minutes: (samples + warmup) * 5 / 60 + 180)
        let quiet: Logger = {
            var logger = Logger(label: "bench.latency")
            logger.logLevel = .warning
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
        let recorder = BarSeenRecorder()
        return try await withThrowingTaskGroup(of: Result?.self, returning: Result.self) { group in
            group.addTask {
                try await simulator.run()
                return nil
            }
            let proxy = try FrameTapProxy(upstreamPort: await simulator.listeningPort())
            proxy.start()
            var connection = TWSConnectionConfiguration(host: "127.0.0.1", port: proxy.port, clientID: 5)
            connection.readyTimeout = .seconds(20)
            if burst > 0 {
                // The whole burst's orders leave at once; the limiter's one-second ceiling (49) still holds.
                connection.rateLimit = OutboundRateLimit(burst: burst + 2)
            }
            var configuration = LiveRunnerConfiguration(connection: connection, symbols: ["LAT"])
            configuration.warmupDuration = ""
            configuration.commissionWait = .seconds(3600)
            configuration.summaryInterval = .seconds(3600)
            configuration.usesSessionThread = sessionThread
            configuration.handlesBarsOnArrival = barsOnArrival
            configuration.busyPolls = busyPoll
            // BENCH_LATENCY_BUSY_CPU=N pins the busy thread (`latency.busyPollCPU`); run the bench under
            // `taskset -c` with the other CPUs to keep everything else off it.
            configuration.busyPollCPU = ProcessInfo.processInfo.environment["BENCH_LATENCY_BUSY_CPU"].flatMap {
                Int($0)
            }
            if keepWarm {
                // BENCH_LATENCY_KEEP_WARM_US=N: rehearse after N µs of quiet instead of 1 ms.
                let micros = Int(ProcessInfo.processInfo.environment["BENCH_LATENCY_KEEP_WARM_US"] ?? "") ?? 1_000
                configuration.keepWarmInterval = .microseconds(max(micros, 10))
            }
            if let journal {
                // As `ibtrader run` opens it: manual checkpoints, every second on the journal's checkpoint thread.
                configuration.journal = try OrderJournal(
                    path: scratch.appendingPathComponent("journal.sqlite").path, durability: journal,
                    checkpoints: .manual)
            }
            let (stop, stopper) = AsyncStream.makeStream(of: String.self)
            let runConfiguration = configuration
            let summary = Mutex<LiveRunSummary?>(nil)
            group.addTask {
                let result = try await LiveRunner.run(
                    strategy: EveryBarTrader(recorder: recorder), configuration: runConfiguration, logger: quiet,
                    stop: stop)
                summary.withLock { $0 = result }
                return nil
            }
            group.addTask {
                defer { stopper.yield("benchmark done") }
                while await simulator.state().activeSubscriptions.realTimeBars < 1 {
                    try await Task.sleep(for: .milliseconds(10))
                }
                var reads = proxy.orderReads.makeAsyncIterator()
                var total: [Int64] = [], inbound: [Int64] = [], outbound: [Int64] = []
                var missing = 0
                var warm: [Int64] = [], cold: [Int64] = []
                let clock = ContinuousClock()
                let began = clock.now
                for step in 0..<(warmup + samples) {
                    let gap: Duration =
                        burst == 0
                        ? .milliseconds(25) : step % burst == burst - 1 ? .milliseconds(1200) : .milliseconds(1)
                    let paced = clock.now.advanced(by: gap)
                    await simulator.advance(by: .seconds(5))
                    guard let read = await reads.next() else { break }
                    let seen = recorder.latest
                    if step >= warmup {
                        if read.bar == 0 || seen < read.bar || read.order < seen {
                            missing += 1
                        } else {
                            total.append(Int64(read.order - read.bar))
                            inbound.append(Int64(seen - read.bar))
                            outbound.append(Int64(read.order - seen))
                            if burst > 0 {
                                if step % burst == 0 {
                                    cold.append(Int64(read.order - read.bar))
                                } else {
                                    warm.append(Int64(read.order - read.bar))
                                }
                            }
                        }
                    }
                    try await clock.sleep(until: paced)
                }
                let wall = clock.now - began
                return Result(
                    total: LatencyDistribution(nanoseconds: total), inbound: LatencyDistribution(nanoseconds: inbound),
                    outbound: LatencyDistribution(nanoseconds: outbound), bars: warmup + samples, missing: missing,
                    wallSeconds: Double(wall.components.seconds) + Double(wall.components.attoseconds) * 1e-18,
                    burstFirst: burst > 0 ? LatencyDistribution(nanoseconds: cold) : nil,
                    burstRest: burst > 0 ? LatencyDistribution(nanoseconds: warm) : nil)
            }
            // The driver's result, then the runner's end (it stops on the stop stream); the simulator runs until
            // cancelled.
            var result: Result?
            var finished = 0
            while finished < 2, let value = try await group.next() {
                finished += 1
                if let value { result = value }
            }
            group.cancelAll()
            guard var result else { throw SocketError("latency run produced no result") }
            if let run = summary.withLock({ $0 }) {
                result.botBars = run.bars
                result.barsOnArrival = run.barsOnArrival
                result.rehearsals = run.rehearsals
                result.tickToOrder = run.tickToOrder
                result.readToOrder = run.readToOrder
                result.socketWait = run.socketWait
                result.pollDelay = run.pollDelay
            }
            return result
        }
    }

    /// One instrument with one-minute bars trading around the clock (every 5-second step has a bar): a seeded
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
        let first = Timestamp(seconds: 1_700_006_400)  // 2023-11-15 00:00 UTC
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
