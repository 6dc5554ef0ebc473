import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import GatewayCore
import GatewaySimulator
import JournalModel
import Logging
import OperatorSurface
import SimulatedVenue
import Storage
import Synchronization
import Testing
import TWSTestSupport
import TradingEngine
import TradingModel

@testable import InteractiveBrokers
@testable import LiveSession

/// Buys 10 of every instrument it is flat in and sells what it holds, on every bar.
private struct EveryBar: Strategy {
    mutating func handle(_ event: StrategyEvent, in context: some StrategyContext) -> [StrategyAction] {
        guard case .bar(let id, _) = event, !context.hasOpenOrders(for: id) else { return [] }
        let held = context.position(for: id).quantity
        return [.submit(.market(id, held.isZero ? .buy : .sell, held.isZero ? Quantity(10) : held))]
    }
}

/// Issue 23: a running bot watched and steered over HTTP, against the gateway simulator. The dashboard's health,
/// metrics (parsed by Prometheus's own parser when IBTRADER_PYTHON is set) and status follow the session; a control
/// needs the token, is journaled, and does what it says at the broker.
@Suite("Dashboard against a running bot")
struct DashboardRunnerTests {
    static let token = "test-token-0123456789abcdef"

    struct HTTPAnswer: Sendable {
        var status: Int
        var text: String
        var json: [String: Any]? { try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] }
    }

    static func http(_ port: Int, _ path: String, method: String = "GET", token: String? = nil, body: String? = nil) async throws -> HTTPAnswer {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!, timeoutInterval: 10)
        request.httpMethod = method
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        request.httpBody = body.map { Data($0.utf8) }
        let (data, response) = try await URLSession.shared.data(for: request)
        return HTTPAnswer(status: (response as? HTTPURLResponse)?.statusCode ?? 0, text: String(decoding: data, as: UTF8.self))
    }

    // One of the kept real-socket tests (issue 41): the dashboard over real HTTP (URLSession, headless Chromium) and
    // operator actions journaled at the wall clock beside the data time, so the bot, the simulator and the waits run
    // on the wall clock here (short polls for what the other threads have done).
    @Test("health, metrics and status follow the session; pause, flatten and resume need the token and act at the broker")
    func watchAndSteer() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let journal = try OrderJournal(path: directory.appendingPathComponent("journal.sqlite").path)
        let link = OperatorLink(sampleEvery: .zero)
        let tail = LogTail { "00:00:00" }
        try await withSessionSimulator { simulator, simulatorPort in
            let server = DashboardServer(
                settings: DashboardSettings(port: 0, token: Self.token, tokenSource: "test"), link: link, log: tail)
            var configuration = runnerConfiguration(simulatorPort, journal: journal)
            configuration.operatorLink = link
            let metrics = server.metrics
            configuration.latencyObserver = { metrics.observe($0, seconds: $1) }  // as LiveRunService does
            let runConfiguration = configuration
            let (ports, portSink) = AsyncStream.makeStream(of: Int.self)
            let (stop, stopper) = AsyncStream.makeStream(of: String.self)
            var logger = quietLogger()
            logger.logLevel = .critical
            let serverLogger = logger
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    try await server.application(logger: serverLogger) { portSink.yield($0) }.run()
                }
                var iterator = ports.makeAsyncIterator()
                let port = try #require(await iterator.next())
                #expect(try await Self.http(port, "/readyz").status == 503, "no session yet")
                group.addTask {
                    _ = try await LiveRunner.run(strategy: EveryBar(), configuration: runConfiguration, logger: quietLogger(), stop: stop)
                }
                // A kept real-socket test (the dashboard's HTTP server, Chromium): the bot subscribes in wall time.
                while await simulator.state().activeSubscriptions.realTimeBars < 3 { try await Task.sleep(for: .milliseconds(5)) }
                // One bar: the strategy buys every instrument; the page is looked at once the book is settled.
                await simulator.advance(by: .seconds(5))
                try await Self.waitFor {
                    let held = await simulator.state().account.holdings.values.filter { $0.quantity != .zero }.count
                    return held > 0 && link.status?.positions.count == held && link.status?.orders.isEmpty == true
                }
                // Fills with their commissions (the simulator's), orders' TWS ids, the connection's history.
                let snapshot = try #require(link.status)
                let commissions = await simulator.state().account.commissions
                #expect(snapshot.fills.count == snapshot.positions.count && snapshot.fills.allSatisfy { !$0.commissionPending })
                #expect(abs(snapshot.fills.compactMap(\.commission).reduce(0, +) - commissions) < 1e-9)
                #expect(snapshot.connection.history.first?.event.hasPrefix("connected (server version") == true)
                let health = try await Self.http(port, "/readyz")
                #expect(health.status == 200, "\(health.text)")
                #expect(health.json?["status"] as? String == "ok")
                let metrics = try await Self.http(port, "/metrics")
                #expect(metrics.text.contains("ibtrader_up 1.0\n"))
                #expect(metrics.text.contains("ibtrader_trading_state{state=\"active\"} 1.0\n"))
                let samples = try await Self.parseWithPrometheus(metrics.text, in: directory)
                if !samples.isEmpty {
                    // One order per instrument, each timed from its bar; the journal wrote and was timed.
                    let held = await simulator.state().account.holdings.values.filter { $0.quantity != .zero }.count
                    #expect(samples["ibtrader_bar_to_order_seconds_count{}"] == Double(held), "\(samples.filter { $0.key.contains("bar_to") })")
                    #expect(samples["ibtrader_bar_to_order_seconds_bucket{le=\"+Inf\"}"] == Double(held))
                    #expect(samples["ibtrader_journal_write_seconds_count{}"] ?? 0 > 0)
                    // The strategy takes no quotes and the test does not watch halts: bars only, no reqMktData line.
                    #expect(samples["ibtrader_market_data_lines{}"] == 0 && samples["ibtrader_realtime_bar_streams{}"] == 3)
                    #expect(samples["ibtrader_outbound_rate_limit{}"] ?? 0 > 0 && samples["ibtrader_outbound_queue_messages{}"] != nil)
                    #expect(samples["ibtrader_historical_requests_window_limit{}"] == 60)
                    // The broker's commissions, once the bot has booked each fill's commission report (a report can
                    // still be on its way when the page is first read on a loaded machine).
                    let commissions = await simulator.state().account.commissions
                    let booked = samples["ibtrader_commissions_total{}"] ?? -1
                    if abs(booked - commissions) >= 1e-9 {
                        try await Self.waitFor {
                            let text = try await Self.http(port, "/metrics").text
                            return text.contains("ibtrader_commissions_total \(commissions)\n")
                        }
                    }
                    #expect(booked == commissions || booked < commissions, "the bot never books more than the broker charged: \(booked) > \(commissions)")
                }
                try await Self.pageShowsTheSimulatorsPositions(port: port, simulator: simulator, in: directory)

                // Controls need the token; reads on loopback do not.
                #expect(try await Self.http(port, "/api/control/pause", method: "POST").status == 401)
                #expect(try await Self.http(port, "/api/control/pause", method: "POST", token: "wrong-token-0123456789").status == 403)
                #expect(try await Self.http(port, "/api/control/liquidate", method: "POST", token: Self.token).status == 404)
                let paused = try await Self.http(
                    port, "/api/control/pause", method: "POST", token: Self.token, body: #"{"reason": "news at 14:00", "by": "test"}"#)
                #expect(paused.status == 200)
                #expect(paused.json?["message"] as? String == "entries paused; exits and working orders go on")
                // Paused: the exits go out, no new buys; the book empties at the simulator.
                for _ in 0..<4 {
                    await simulator.advance(by: .seconds(5))
                    try await Task.sleep(for: .milliseconds(50))
                }
                try await Self.waitFor { await simulator.state().account.holdings.values.allSatisfy { $0.quantity == .zero } }
                let status = try await Self.http(port, "/api/status")
                let trading = (status.json?["status"] as? [String: Any])?["trading"] as? [String: Any]
                #expect(trading?["state"] as? String == "entries paused")
                #expect(try await Self.http(port, "/metrics").text.contains("ibtrader_trading_state{state=\"entries paused\"} 1.0\n"))

                // Resume: it buys again; flatten: everything closed at the broker, and nothing new goes out.
                #expect(try await Self.http(port, "/api/control/resume", method: "POST", token: Self.token).status == 200)
                await simulator.advance(by: .seconds(5))
                try await Self.waitFor { await simulator.state().account.holdings.values.contains { $0.quantity != .zero } }
                let flatten = try await Self.http(port, "/api/control/flatten", method: "POST", token: Self.token, body: #"{"reason": "done"}"#)
                #expect(flatten.status == 200, "\(flatten.text)")
                try await Self.waitFor { await simulator.state().account.holdings.values.allSatisfy { $0.quantity == .zero } }
                let commissionsBefore = await simulator.state().account.commissions
                for _ in 0..<3 {
                    await simulator.advance(by: .seconds(5))
                    try await Task.sleep(for: .milliseconds(50))  // the bot takes each bar over its socket in wall time
                }
                #expect(await simulator.state().account.commissions == commissionsBefore, "no fill: the kill switch stays after a flatten")
                #expect(link.status?.trading.killSwitch == true)

                stopper.yield("test done")
                try await Self.waitFor { !link.isAttached }
                let late = try await Self.http(port, "/api/control/pause", method: "POST", token: Self.token)
                #expect(late.status == 409, "no session: \(late.text)")
                let ended = try await Self.http(port, "/healthz")
                #expect(ended.status == 503 && ended.text.contains("the session ended"), "\(ended.text)")
                group.cancelAll()
            }
        }
        // Issue 45: operator actions are journaled at the wall clock, with the data time (the simulator's 2011) beside.
        let events = try journal.events(kind: .control)
        let controls = events.map { $0.message.components(separatedBy: " [data time ").first ?? "" }
        #expect(controls == ["pause by test (news at 14:00)", "resume by dashboard", "flatten by dashboard (done)"])
        let wall = Date().timeIntervalSince1970
        for event in events {
            #expect(abs(Double(event.time.nanoseconds) / 1e9 - wall) < 600, "\(event.time) is the wall clock")
            #expect(event.message.contains(" [data time 20"), "\(event.message)")
        }
    }

    /// Headless Chromium renders the page (`?once`: one snapshot) and its positions table lists the simulator's
    /// holdings, symbol and quantity; a screenshot is taken. Skipped without `chromium` (scripts/test.sh installs it).
    static func pageShowsTheSimulatorsPositions(port: Int, simulator: GatewaySimulator, in directory: URL) async throws {
        guard let chromium = chromiumForTests("the dashboard page check") else { return }
        func browse(_ arguments: [String]) async throws -> String {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: chromium)
            process.arguments = [
                "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=1400,1300",
                "--user-data-dir=\(directory.appendingPathComponent("profile").path)", "--virtual-time-budget=3000",
            ] + arguments + ["http://127.0.0.1:\(port)/?once"]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            let data = await output.fileHandleForReading.readAll()
            await process.exited()
            return String(decoding: data, as: UTF8.self)
        }
        let dom = try await browse(["--dump-dom"])
        let holdings = await simulator.state().account.holdings.filter { $0.value.quantity != .zero }
        #expect(!holdings.isEmpty)
        for (id, holding) in holdings {
            let symbol = simulatorData.instrument(id).symbol
            #expect(dom.contains("<tr><td>\(symbol)</td><td class=\"n\">\(holding.quantity)</td>"), "\(symbol) \(holding.quantity) on the page")
        }
        // Issue 45: the broker's quantity beside the bot's, from its last look (the start's snapshot: flat, and the
        // bot has traded since), with the look's time.
        #expect(dom.contains(#"<th class="n">Bot</th><th class="n">Broker</th>"#))
        #expect(dom.contains(#"<td class="n"><span class="mute" title="the bot's quantity changed since the broker's last look">0 *</span></td>"#))
        #expect(dom.contains("Broker: what the broker held at its last look, "))
        #expect(dom.contains(#"<span id="trading" class="badge state-active">active</span>"#))
        #expect(dom.contains("<h2>Fills</h2>") && dom.contains("<th class=\"n\">Commission</th>"))
        #expect(dom.contains("<tr><td>History</td><td>") && dom.contains("connected (server version"))
        #expect(dom.contains("<tr><td>Market-data lines</td><td>0 quote lines, 3 real-time bar streams</td></tr>"), "IB budgets shown")
        #expect(dom.contains("<tr><td>Bar → order</td><td>median ≤ "), "the bar → order latency shown")
        #expect(dom.contains("<tr><td>Market data</td><td><span class=\"\">bars only</span>: SYN000, SYN001, SYN002</td></tr>"), "each symbol's market-data type shown")
        let shot = directory.appendingPathComponent("dashboard.png")
        _ = try await browse(["--screenshot=\(shot.path)"])
        if let keep = ProcessInfo.processInfo.environment["IBTRADER_KEEP_SCREENSHOT"] {
            try? FileManager.default.removeItem(atPath: keep)
            try FileManager.default.copyItem(at: shot, to: URL(fileURLWithPath: keep))
        }
        // What the page shows: the header's paper and active badges (their CSS backgrounds) in the top 60 rows, and
        // the equity chart's line drawn across the left card below them.
        let (paper, active, equityLine) = ("#e8f1ff@0,0,1400,60", "#e6f4ea@0,0,1400,60", "#3b82f6@0,60,700,600")
        let badges = try await ScreenshotColors(png: shot, colors: [paper, active], tolerance: 3)
        #expect(badges.width == 1400)
        for badge in [paper, active] {
            #expect(badges.colors[badge]?.count ?? 0 > 300, "the \(badge) badge: \(badges.colors[badge]?.count ?? 0) pixels")
        }
        let line = try #require(try await ScreenshotColors(png: shot, colors: [equityLine], tolerance: 60).colors[equityLine])
        #expect(line.count > 500 && line.width > 500, "the equity line: \(line.count) pixels, \(line.width) px wide")
    }

    /// Polls `condition` for up to 30 s (a loaded machine runs the whole suite beside it).
    static func waitFor(_ condition: @Sendable () async throws -> Bool) async throws {
        for _ in 0..<3000 {
            if try await condition() { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        Issue.record("condition not met within 30 s")
    }

    /// Prometheus's own text parser (prometheus_client, set up by scripts/setup-python.sh) reads every family.
    /// - Returns: every sample as Prometheus read it, by `name{label="value",…}` (labels sorted); empty without Python.
    @discardableResult
    static func parseWithPrometheus(_ text: String, in directory: URL) async throws -> [String: Double] {
        guard let python = ProcessInfo.processInfo.environment["IBTRADER_PYTHON"], !python.isEmpty else { return [:] }
        let file = directory.appendingPathComponent("metrics.txt")
        try text.write(to: file, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [
            "-c",
            "import sys, json; from prometheus_client.parser import text_string_to_metric_families as p; "
                + "fs = list(p(open(sys.argv[1]).read())); "
                + "print(json.dumps({'families': len(fs), 'samples': {s.name + '{' + ','.join(f'{k}=\"{v}\"' for k, v in sorted(s.labels.items())) + '}': s.value for f in fs for s in f.samples}}))",
            file.path,
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = await output.fileHandleForReading.readAll()
        await process.exited()
        let printed = String(decoding: data, as: UTF8.self)
        #expect(process.terminationStatus == 0, "prometheus_client refused /metrics: \(printed)")
        let parsed = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        #expect(parsed?["families"] as? Int ?? 0 >= 20, "\(printed)")
        return (parsed?["samples"] as? [String: Any] ?? [:]).compactMapValues { ($0 as? NSNumber)?.doubleValue }
    }
}

/// Issue 23's alert acceptance: a gateway restart under a running bot is one "lost" and one "restored" alert.
@Suite("Alerts from a running bot")
struct RunningBotAlertTests {
    final class Sent: Sendable {
        let alerts = Mutex<[OperatorAlert]>([])
        var all: [OperatorAlert] { alerts.withLock { $0 } }
    }

    @Test("a gateway restart is one lost and one restored alert, then the stop")
    func gatewayRestartIsTwoAlerts() async throws {
        let sent = Sent()
        let recorder = AlertChannel(name: "recorder") { (alert: OperatorAlert, _: String) -> [AlertChannel.Delivery] in
            sent.alerts.withLock { $0.append(alert) }
            return []
        }
        var logger = quietLogger()
        logger.logLevel = .critical
        let center = AlertCenter(channels: [recorder], bot: "test", minimum: .warning, cooldown: .seconds(300), logger: logger)
        let link = OperatorLink()
        link.forwardAlerts { center.post($0) }
        let centerTask = Task { try await center.run() }
        // In process and in virtual time: the restart, the reconnect and the stop are the venue's; the alerts go
        // through the real center, which `finish` drains before the checks.
        let (reconnects, reconnected) = AsyncStream.makeStream(of: Void.self)
        try await withSessionVenue { venue in
            var configuration = runnerConfiguration(venue, journal: nil)
            configuration.session.reconnectDelay = .milliseconds(200)
            configuration.operatorLink = link
            configuration.observer = { if case .reconnected = $0 { reconnected.yield() } }
            let runConfiguration = configuration
            let (stop, stopper) = AsyncStream.makeStream(of: String.self)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    _ = try await LiveRunner.run(strategy: EveryBarForAlerts(), configuration: runConfiguration, logger: quietLogger(), stop: stop)
                }
                await venue.waitForBarSubscriptions(3)
                await venue.advance(by: .seconds(5))
                try await venue.sleep(for: .milliseconds(100))
                await venue.apply(.restart(seconds: 0))
                var iterator = reconnects.makeAsyncIterator()
                _ = await iterator.next()
                for _ in 0..<3 {
                    await venue.advance(by: .seconds(5))
                    try await venue.sleep(for: .milliseconds(50))
                }
                stopper.yield("test done")
                try await group.waitForAll()
            }
        }
        center.finish()
        try await centerTask.value
        let connection = sent.all.filter { $0.kind == "connection" }
        #expect(connection.count == 2, "\(sent.all.map(\.text))")
        #expect(connection.first?.text.hasPrefix("lost the connection to TWS / IB Gateway") == true)
        #expect(connection.last?.resolves == true)
        #expect(connection.last?.text.hasPrefix("reconnected to TWS / IB Gateway") == true, "\(connection.map(\.text))")
        #expect(sent.all.last?.kind == "stopped", "\(sent.all.map(\.text))")
    }
}

private struct EveryBarForAlerts: Strategy {
    mutating func handle(_ event: StrategyEvent, in context: some StrategyContext) -> [StrategyAction] { [] }
}
