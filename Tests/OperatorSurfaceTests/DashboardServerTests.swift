import Foundation
import Hummingbird
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import Testing
import TradingEngine
import TradingModel

@testable import InteractiveBrokers
@testable import LiveSession
@testable import OperatorSurface

/// The dashboard's routes without a bot, served on an ephemeral loopback port and asked over real HTTP (URLSession):
/// who may read, who may steer, what a supervisor and a scraper see.
struct DashboardServerTests {
    static let token = "0123456789abcdef0123"

    static func app(
        bind: String = "127.0.0.1", link: OperatorLink = OperatorLink(),
        reloadRisk: (@Sendable () throws -> RiskConfig)? = nil
    ) -> DashboardServer {
        DashboardServer(
            settings: DashboardSettings(bind: bind, port: 0, token: token, tokenSource: "test"), link: link,
            log: LogTail { "t" }, staleAfter: 3600, reloadRisk: reloadRisk)
    }

    /// A request to the running server and its answer.
    struct Client {
        var port: Int
        struct Response {
            var status: HTTPResponse.Status
            var body: ByteBuffer
        }

        func execute(
            uri: String, method: HTTPRequest.Method, headers: HTTPFields = [:], body: ByteBuffer? = nil,
            _ check: (Response) async throws -> Void
        ) async throws {
            var request = URLRequest(url: try #require(URL(string: "http://127.0.0.1:\(port)\(uri)")), timeoutInterval: 10)
            request.httpMethod = method.rawValue
            for field in headers { request.setValue(field.value, forHTTPHeaderField: field.name.rawName) }
            request.httpBody = body.map { Data($0.readableBytesView) }
            let (data, answer) = try await URLSession.shared.data(for: request)
            let status = try #require(answer as? HTTPURLResponse).statusCode
            try await check(Response(status: HTTPResponse.Status(code: status), body: ByteBuffer(bytes: data)))
        }
    }

    /// Runs `server` on an ephemeral port for `body`, then stops it.
    static func live(_ server: DashboardServer, _ body: (Client) async throws -> Void) async throws {
        let (ports, sink) = AsyncStream.makeStream(of: Int.self)
        var quiet = Logger(label: "test")
        quiet.logLevel = .critical
        let app = server.application(logger: quiet) { port in sink.yield(port) }
        let running = Task { try await app.run() }
        defer { running.cancel() }
        var started = ports.makeAsyncIterator()
        let port = try #require(await started.next())
        try await body(Client(port: port))
    }

    /// A session that answers every control at once.
    static func answeringLink() -> OperatorLink {
        let link = OperatorLink()
        link.attach { input in
            guard case .control(let request) = input else { return }
            let limits = request.risk.map { " with maxActivePositions \($0.maxActivePositions ?? 0)" } ?? ""
            link.answer(OperatorReply(id: request.id, done: request.action != .flatten, message: "did \(request.action.rawValue)\(limits)"))
        }
        var status = SessionStatus()
        status.account = "DU1"
        status.phase = "running"
        status.connection.connected = true
        var position = SessionStatus.Position()
        position.symbol = #"ODD"NAME"#
        position.quantity = 10
        status.positions = [position]
        link.publish(status, at: .zero)
        return link
    }

    @Test func withoutASessionHealthIs503AndMetricsSayDown() async throws {
        try await Self.live(Self.app()) { client in
            try await client.execute(uri: "/readyz", method: .get) { response in
                #expect(response.status == .serviceUnavailable)
                #expect(String(buffer: response.body).contains("no session yet"))
            }
            try await client.execute(uri: "/metrics", method: .get) { response in
                #expect(String(buffer: response.body).contains("ibtrader_up 0.0\n"))
            }
            try await client.execute(uri: "/", method: .get) { response in
                #expect(response.status == .ok)
                let page = String(buffer: response.body)
                #expect(page.contains("<title>ibtrader</title>"))
                #expect(!page.contains("http://") && !page.contains("https://"), "no external assets")
            }
        }
    }

    @Test("the status carries each row's contract (a future's month, multiplier, local symbol); the page shows it")
    func positionsCarryTheirContract() async throws {
        let link = OperatorLink()
        var status = SessionStatus()
        var future = SessionStatus.Position()
        (future.symbol, future.quantity) = ("ES continuous", 1)
        future.contract = ContractTerms(
            symbol: "ES", securityType: "FUT", expiry: "20131220", multiplier: "50", localSymbol: "ESZ3", currency: "USD")
        var stock = SessionStatus.Position()
        (stock.symbol, stock.quantity) = ("AAPL", 10)
        status.positions = [future, stock]
        link.publish(status, at: .zero)
        try await Self.live(Self.app(link: link)) { client in
            try await client.execute(uri: "/api/status?token=\(Self.token)", method: .get) { response in
                let body = try #require(try JSONSerialization.jsonObject(with: Data(String(buffer: response.body).utf8)) as? [String: Any])
                let rows = try #require((body["status"] as? [String: Any] ?? body)["positions"] as? [[String: Any]], "\(body)")
                let contract = try #require(rows.first?["contract"] as? [String: Any])
                #expect(contract["description"] as? String == "ES 201312 (FUT ×50, ESZ3)")
                #expect(contract["securityType"] as? String == "FUT" && contract["localSymbol"] as? String == "ESZ3")
                #expect(contract["expiry"] as? String == "20131220" && contract["multiplier"] as? String == "50")
                #expect(rows.last?["contract"] == nil, "a stock's symbol says all")
            }
            try await client.execute(uri: "/?token=\(Self.token)", method: .get) { response in
                let page = String(buffer: response.body)
                #expect(page.contains("x.contract.description") && page.contains("s.positions.map(p => row([inst(p)"))
            }
        }
    }

    @Test func controlsNeedTheTokenAndAnswerWithTheSessionsReply() async throws {
        try await Self.live(Self.app(link: Self.answeringLink())) { client in
            try await client.execute(uri: "/api/control/pause", method: .post) { #expect($0.status == .unauthorized) }
            try await client.execute(uri: "/api/control/pause", method: .post, headers: [.authorization: "Bearer nope"]) {
                #expect($0.status == .forbidden)
            }
            let bearer: HTTPFields = [.authorization: "Bearer \(Self.token)"]
            try await client.execute(uri: "/api/control/sell-everything", method: .post, headers: bearer) {
                #expect($0.status == .notFound)
            }
            try await client.execute(uri: "/api/control/kill", method: .post, headers: bearer, body: ByteBuffer(string: #"{"reason":"r"}"#)) {
                #expect($0.status == .ok)
                #expect(String(buffer: $0.body).contains(#""message":"did kill""#))
            }
            try await client.execute(uri: "/api/control/flatten", method: .post, headers: bearer) { #expect($0.status == .conflict) }
            try await client.execute(uri: "/api/control/kill", method: .post, headers: bearer, body: ByteBuffer(string: "{")) {
                #expect($0.status == .badRequest, "a malformed body is refused, not a crash")
            }
            try await client.execute(uri: "/readyz", method: .get) { #expect($0.status == .ok) }
            try await client.execute(uri: "/healthz", method: .get) { #expect($0.status == .ok) }
            try await client.execute(uri: "/metrics", method: .get) { response in
                #expect(String(buffer: response.body).contains(#"ibtrader_position_quantity{symbol="ODD\"NAME"} 10"#))
            }
        }
    }

    struct BadConfig: Error, CustomStringConvertible {
        var description: String { "bot.yaml:12:3: risk.maxActivePositions: must be an integer from 1 to 10000, got 'two'" }
    }

    /// `reload` brings the limits the config has now; a config that does not load is refused with its error and
    /// nothing reaches the bot; a run without config sources cannot reload.
    @Test func reloadCarriesTheConfigsRiskLimitsOrItsError() async throws {
        let bearer: HTTPFields = [.authorization: "Bearer \(Self.token)"]
        var limits = RiskConfig()
        limits.maxActivePositions = 2
        let fixed = limits
        try await Self.live(Self.app(link: Self.answeringLink(), reloadRisk: { fixed })) { client in
            try await client.execute(uri: "/api/control/reload", method: .post, headers: bearer) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains(#""message":"did reload with maxActivePositions 2""#))
            }
        }
        try await Self.live(Self.app(link: Self.answeringLink(), reloadRisk: { throw BadConfig() })) { client in
            try await client.execute(uri: "/api/control/reload", method: .post, headers: bearer) { response in
                #expect(response.status == .unprocessableContent)
                #expect(String(buffer: response.body).contains("bot.yaml:12:3: risk.maxActivePositions: must be an integer"))
            }
        }
        try await Self.live(Self.app(link: Self.answeringLink())) { client in
            try await client.execute(uri: "/api/control/reload", method: .post, headers: bearer) { #expect($0.status == .conflict) }
        }
    }

    @Test func offLoopbackEveryReadNeedsTheTokenToo() async throws {
        try await Self.live(Self.app(bind: "0.0.0.0", link: Self.answeringLink())) { client in
            for path in ["/", "/api/status", "/metrics", "/api/log", "/api/events"] {
                try await client.execute(uri: path, method: .get) { #expect($0.status == .unauthorized, "\(path)") }
            }
            try await client.execute(uri: "/api/status?token=\(Self.token)", method: .get) { #expect($0.status == .ok) }
            try await client.execute(uri: "/readyz", method: .get) { #expect($0.status == .ok, "a supervisor needs no token") }
        }
    }

    /// Issue 83: the simulated demo's page mixed 2011 (fills, data time) with today (round trip, restarts, farms,
    /// log lines). Against the simulator the status says so and the page keeps to the data's clock.
    @Test func againstTheSimulatorThePageKeepsToTheDataClock() async throws {
        var settings = DashboardSettings(port: 0, token: Self.token, tokenSource: "test")
        settings.simulatedBroker = true
        let simulated = DashboardServer(settings: settings, link: Self.answeringLink(), log: LogTail { "t" })
        try await Self.live(simulated) { client in
            try await client.execute(uri: "/api/status", method: .get) { response in
                #expect(String(buffer: response.body).contains(#""simulated":true"#))
            }
            try await client.execute(uri: "/", method: .get) { response in
                let page = String(buffer: response.body)
                #expect(page.contains("simulator: data time") && page.contains("the simulator has no nightly reset"))
                #expect(page.contains(#"(sim ? "" : " at " + esc(c.roundTripAt))"#), "no machine time beside the round trip")
            }
        }
        try await Self.live(Self.app(link: Self.answeringLink())) { client in
            try await client.execute(uri: "/api/status", method: .get) { response in
                #expect(String(buffer: response.body).contains(#""simulated":false"#))
            }
        }
    }

    @Test func theTokenFileIsMadeOnceReadableByItsOwnerOnly() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tok-\(UUID().uuidString)/dashboard.token").path
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let first = try DashboardTokenFile.load(path)
        #expect(first.generated && first.token.count == 64)
        let permissions = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(permissions == 0o600)
        let again = try DashboardTokenFile.load(path)
        #expect(!again.generated && again.token == first.token)
        try "short".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: DashboardTokenError.self) { try DashboardTokenFile.load(path) }
    }

    @Test func theLogTailKeepsTheLastLinesAndCountsWarnings() {
        let tail = LogTail(capacity: 2) { "t" }
        tail.append(level: .info, "a")
        tail.append(level: .warning, "b")
        tail.append(level: .critical, "ALERT: c")
        #expect(tail.lines.map(\.message) == ["b", "ALERT: c"])
        #expect(tail.counts.warnings == 1 && tail.counts.critical == 1)
    }
}
