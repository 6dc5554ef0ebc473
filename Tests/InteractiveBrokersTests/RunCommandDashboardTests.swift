import Foundation
import Storage
import Testing
import TWSTestSupport
import TradingEngine
import TradingModel

/// Issue 23's acceptance with the real program: `ibtrader run --simulated` serves its dashboard; `/metrics` parses
/// with Prometheus's parser and its order and fill counters equal the journal's; the page shows the bot's
/// positions; a control without the token is refused, one with it acts.
@Suite("ibtrader run --simulated and its dashboard")
struct RunCommandDashboardTests {
    @Test(.enabled(if: ibtraderProgramRuns, "no .build/debug/ibtrader: build first"))
    func theProgramsDashboardCountsWhatTheJournalHolds() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("run-dash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let journalPath = directory.appendingPathComponent("journal.sqlite").path
        let port = try CrashProcessHarness.freePort()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ibtraderProgramPath)
        // A bound, not a measurement: alone the first fills are in within seconds; in two full runs on 2 cores the
        // status polls were starved past a 120 s run. The test stops the program itself (SIGTERM below).
        process.arguments = ["run", "--simulated", "--duration", "300s"]
        var environment = ProcessInfo.processInfo.environment
        environment["IBTRADER_JOURNAL_PATH"] = journalPath
        environment["IBTRADER_DASHBOARD_PORT"] = "\(port)"
        process.environment = environment
        let output = ProgramOutput()
        let pipe = Pipe()
        process.standardError = pipe
        process.standardOutput = Pipe()
        pipe.fileHandleForReading.readabilityHandler = { output.append($0.availableData) }
        try process.run()
        defer { if process.isRunning { process.terminate() } }

        // Trading: the first rebalance's fills are in.
        let traded = try await eventually(within: .seconds(280)) {
            guard process.isRunning else { return true }
            let status = try? await DashboardRunnerTests.http(port, "/api/status")
            let fills = ((status?.json?["status"] as? [String: Any])?["fills"] as? [Any])?.count ?? 0
            return fills >= 2
        }
        try #require(traded && process.isRunning, "ibtrader did not trade: \(output.all)")
        // One clock on the page (issue 83): the status says the broker is the simulator, and the log's lines carry
        // the data's time (the bundled day's session, 2011-01-18), not this machine's.
        let body = try await DashboardRunnerTests.http(port, "/api/status").json
        #expect(body?["simulated"] as? Bool == true)
        let dataTime = ((body?["status"] as? [String: Any])?["dataTime"] as? String) ?? ""
        let lines = try JSONSerialization.jsonObject(with: Data(try await DashboardRunnerTests.http(port, "/api/log").text.utf8)) as? [[String: Any]] ?? []
        let times = Set(lines.compactMap { $0["time"] as? String })
        #expect(!times.isEmpty && times.allSatisfy { $0 == "--:--:--" || ("14:30:00"..."21:00:00").contains($0) }, "\(times), data time \(dataTime)")
        #expect(try await DashboardRunnerTests.http(port, "/api/control/kill", method: "POST").status == 401)
        let token = try String(contentsOfFile: directory.appendingPathComponent("dashboard.token").path, encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        // The kill switch: no new order from here, so the counters and the journal can be compared at rest.
        let killed = try await DashboardRunnerTests.http(
            port, "/api/control/kill", method: "POST", token: token, body: #"{"reason": "compare the counters"}"#)
        #expect(killed.status == 200, "\(killed.text)")
        var samples: [String: Double] = [:]
        let settled = try await eventually(within: .seconds(30)) {
            let status = try await DashboardRunnerTests.http(port, "/api/status").json?["status"] as? [String: Any]
            // At rest: only the protection of open positions (stops, take-profits) still works.
            let working = (status?["orders"] as? [[String: Any]]) ?? [["orderRef": "?"]]
            guard working.allSatisfy({ ProtectiveOrders.isProtective(ClientOrderID(($0["orderRef"] as? String) ?? "")) })
            else { return false }
            samples = try await DashboardRunnerTests.parseWithPrometheus(try await DashboardRunnerTests.http(port, "/metrics").text, in: directory)
            // A protective order sent on a fill that came in meanwhile (protection goes out under the kill switch)
            // is counted on the next look: at rest means the counters and the journal agree.
            guard !samples.isEmpty else { return true }
            let journal = try OrderJournal(path: journalPath, createIfMissing: false)
            let (orders, fills) = (try journal.orders().count, try journal.fills().count)
            // `orders_total` counts cancels and modifications too (a working entry the kill switch cancels, when
            // the machine is slow enough for one to be working then), which the journal keeps as order states, not
            // as intents: at least the intents.
            // The kill switch's gauge is published with the next operator snapshot, not with the control's answer.
            return samples["ibtrader_orders_total{}"] ?? 0 >= Double(orders) && samples["ibtrader_fills_total{}"] == Double(fills)
                && samples["ibtrader_kill_switch{}"] == 1
        }
        #expect(settled, "the counters and the journal never agreed: \(samples)")
        let journal = try OrderJournal(path: journalPath)
        if !samples.isEmpty {
            #expect(samples["ibtrader_fills_total{}"] == Double(try journal.fills().count), "fills: \(samples) vs the journal")
            let intents = try journal.orders().count
            #expect(samples["ibtrader_orders_total{}"] ?? 0 >= Double(intents), "orders: \(samples["ibtrader_orders_total{}"] ?? 0) vs the journal's \(intents) intents")
            #expect(samples["ibtrader_kill_switch{}"] == 1)
            // The runner's latencies reach the histograms (LiveRunService wires them): one per order a bar led to (a
            // protective stop is sent on its entry's fill, with no bar behind it), a write per step.
            let fromBars = try journal.orders().filter { !ProtectiveOrders.isProtective($0.intent.orderRef) }
            #expect(samples["ibtrader_bar_to_order_seconds_count{}"] == Double(fromBars.count))
            #expect(samples["ibtrader_journal_write_seconds_count{}"] ?? 0 > 0)
        }
        // The page lists the positions the bot reports.
        if let chromium = chromiumForTests("the dashboard page check") {
            let status = try await DashboardRunnerTests.http(port, "/api/status").json?["status"] as? [String: Any]
            let positions = (status?["positions"] as? [[String: Any]]) ?? []
            #expect(!positions.isEmpty)
            // Up to three tries: under the full suite's load headless Chromium has printed an empty DOM once.
            var page = ""
            for attempt in 0..<3 where page.isEmpty {
                let browser = Process()
                browser.executableURL = URL(fileURLWithPath: chromium)
                browser.arguments = [
                    "--headless", "--no-sandbox", "--disable-gpu",
                    "--user-data-dir=\(directory.appendingPathComponent("profile-\(attempt)").path)",
                    "--virtual-time-budget=3000", "--dump-dom", "http://127.0.0.1:\(port)/?once",
                ]
                let dom = Pipe()
                browser.standardOutput = dom
                browser.standardError = FileHandle.nullDevice
                try browser.run()
                page = String(decoding: await dom.fileHandleForReading.readAll(), as: UTF8.self)
                await browser.exited()
            }
            for position in positions {
                let symbol = position["symbol"] as? String ?? "?"
                let quantity = (position["quantity"] as? NSNumber)?.intValue ?? 0
                #expect(page.contains("<tr><td>\(symbol)</td><td class=\"n\">\(quantity)</td>"), "\(symbol) \(quantity) on the page")
            }
        }
        kill(process.processIdentifier, SIGTERM)
        #expect(try await eventually(within: .seconds(60)) { !process.isRunning })
        #expect(process.terminationStatus == 0, "\(output.all)")
    }
}
