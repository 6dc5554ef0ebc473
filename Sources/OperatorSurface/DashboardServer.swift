import Foundation
import Hummingbird
import InteractiveBrokers
import LiveSession
import Logging
import TradingEngine

/// The operator's HTTP surface of a running bot (Hummingbird), on `127.0.0.1:<dashboard.port>` by default:
///
/// - `GET /` the dashboard page (no external assets), `GET /api/status` the snapshot with the equity curve and the
///   log's counts, `GET /api/events` the same as server-sent events every second, `GET /api/log` the log's tail;
/// - for supervisors, `GET /healthz` (alive: a session is attached and its loop answered within 10 s) and
///   `GET /readyz` (alive, connected to TWS / IB Gateway and trading-phase running): 200, else 503 with the reason
///   in the body; `GET /metrics` Prometheus text;
/// - `POST /api/control/{pause|resume|kill|flatten|reload}` with `Authorization: Bearer <token>` and an optional JSON
///   body `{"reason": "…", "by": "…"}`: 401 without the token, 403 with a wrong one, 200 with the bot's reply, 409
///   when the bot refused it; `reload` reads the risk limits from the config files again (422 with the config's
///   error, naming file, line and key, when they do not load: nothing changes).
///
/// On a non-loopback address every request needs the token (`?token=` for the page and its event stream).
public struct DashboardServer: Sendable {
    public let settings: DashboardSettings
    public let link: OperatorLink
    public let log: LogTail
    /// A session that has not published for this long is reported stuck (the loop publishes every second).
    public let staleAfter: Double
    /// Reads the risk limits from the config again (`reload`; `nil`: the run cannot reload).
    public let reloadRisk: (@Sendable () throws -> RiskConfig)?
    /// `/metrics`; the runner's latencies go to it too (`LiveRunnerConfiguration.latencyObserver`).
    public let metrics = MetricsExporter()
    /// Ends the `/api/events` streams: the server's graceful shutdown waits for every open response, and an event
    /// stream never ends on its own, so the stop closes them (`DashboardService`).
    public let eventStreams = EventStreamGate()

    /// Creates the server's routes over a link.
    public init(
        settings: DashboardSettings, link: OperatorLink, log: LogTail, staleAfter: Double = 10,
        reloadRisk: (@Sendable () throws -> RiskConfig)? = nil
    ) {
        self.settings = settings
        self.link = link
        self.log = log
        self.staleAfter = staleAfter
        self.reloadRisk = reloadRisk
    }

    /// The application, ready to run (the tests run it on an ephemeral port).
    public func application(
        logger: Logger, onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        Application(
            router: router(),
            configuration: .init(address: .hostname(settings.bind, port: settings.port), serverName: "ibtrader"),
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? 0) },
            logger: logger)
    }

    func router() -> Router<BasicRequestContext> {
        let router = Router()
        let server = self
        router.get("/") { request, _ in
            try server.authorizeRead(request)
            return Self.response(DashboardPage.html, type: "text/html; charset=utf-8")
        }
        router.get("/healthz") { _, _ in server.health(ready: false) }
        router.get("/readyz") { _, _ in server.health(ready: true) }
        router.get("/metrics") { request, _ in
            try server.authorizeRead(request)
            let text = server.metrics.render(
                server.link.status, log: server.log.counts, fresh: (server.link.secondsSinceUpdate ?? .infinity) <= server.staleAfter)
            return Self.response(text, type: "text/plain; version=0.0.4; charset=utf-8")
        }
        router.get("/api/status") { request, _ in
            try server.authorizeRead(request)
            return Self.response(try server.statusJSON(), type: "application/json")
        }
        router.get("/api/log") { request, _ in
            try server.authorizeRead(request)
            return Self.response(try Self.json(server.log.lines), type: "application/json")
        }
        router.get("/api/events") { request, _ in
            try server.authorizeRead(request)
            var headers = HTTPFields()
            headers[.contentType] = "text/event-stream"
            headers[.cacheControl] = "no-store"
            return Response(status: .ok, headers: headers, body: ResponseBody { writer in
                while !Task.isCancelled, !server.eventStreams.isClosed, server.link.isAttached || server.link.status != nil {
                    let json = try server.statusJSON()
                    try await writer.write(ByteBuffer(string: "data: \(json)\n\n"))
                    await server.eventStreams.wait(upTo: .seconds(1))
                }
                try await writer.finish(nil)
            })
        }
        router.post("/api/control/{action}") { request, context in
            try server.authorizeControl(request)
            guard let name = context.parameters.get("action"), let action = OperatorAction(rawValue: name) else {
                throw HTTPError(.notFound, message: "unknown control; use pause, resume, kill, flatten or reload")
            }
            let body = try await request.body.collect(upTo: 16_384)
            let details: ControlBody
            do {
                details = body.readableBytes == 0 ? ControlBody() : try JSONDecoder().decode(ControlBody.self, from: Data(buffer: body))
            } catch {
                throw HTTPError(.badRequest, message: #"the body is JSON like {"reason": "…", "by": "…"} or empty"#)
            }
            var risk: RiskConfig?
            if action == .reload {
                guard let reload = server.reloadRisk else {
                    throw HTTPError(.conflict, message: "this run cannot reload its risk limits")
                }
                do { risk = try reload() } catch {
                    throw HTTPError(.unprocessableContent, message: "risk limits not reloaded (nothing changed): \(error)")
                }
            }
            let reply = await server.link.send(action, by: details.by ?? "dashboard", reason: details.reason ?? "", risk: risk)
            var response = Self.response(try Self.json(reply), type: "application/json")
            if !reply.done { response.status = .conflict }
            return response
        }
        return router
    }

    /// What `/healthz` (`ready`: `/readyz`) answers.
    func health(ready: Bool) -> Response {
        let stale = link.secondsSinceUpdate
        var problem: String?
        if let status = link.status, link.isAttached {
            if let stale, stale > staleAfter {
                problem = "the session's loop has not answered for \(Int(stale)) s"
            } else if !ready {
                problem = nil
            } else if !status.connection.connected {
                problem = "not connected to TWS / IB Gateway (\(status.phase))"
            } else if status.phase != "running" {
                problem = "session \(status.phase)"
            }
        } else {
            problem = link.status == nil ? "no session yet" : "the session ended"
        }
        let body = HealthBody(
            status: problem == nil ? "ok" : "unavailable", reason: problem, phase: link.status?.phase,
            trading: link.status?.trading.state)
        var response = Self.response((try? Self.json(body)) ?? "{}", type: "application/json")
        if problem != nil { response.status = .serviceUnavailable }
        return response
    }

    func statusJSON() throws -> String {
        try Self.json(StatusBody(status: link.status, equity: link.equityCurve, log: log.counts, simulated: settings.simulatedBroker))
    }

    private func authorizeRead(_ request: Request) throws {
        guard !settings.isLoopback else { return }
        try authorize(request)
    }

    private func authorizeControl(_ request: Request) throws { try authorize(request) }

    private func authorize(_ request: Request) throws {
        let header = request.headers[.authorization]
        let presented = header.flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil }
            ?? request.uri.queryParameters.get("token")
        guard let presented, !presented.isEmpty else {
            throw HTTPError(.unauthorized, message: "this needs the dashboard token: Authorization: Bearer <token>")
        }
        guard Self.constantTimeEqual(presented, settings.token) else {
            throw HTTPError(.forbidden, message: "wrong dashboard token")
        }
    }

    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for i in x.indices { difference |= x[i] ^ y[i] }
        return difference == 0
    }

    static func response(_ text: String, type: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = type
        headers[.cacheControl] = "no-store"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}

/// `/api/status`'s body.
struct StatusBody: Encodable {
    var status: SessionStatus?
    var equity: [OperatorLink.EquityPoint]
    var log: LogTail.Counts
    /// The broker is the built-in simulator: the page shows the data's clock only.
    var simulated: Bool
}

struct HealthBody: Encodable {
    var status: String
    var reason: String?
    var phase: String?
    var trading: String?
}

/// A control's optional body.
struct ControlBody: Decodable {
    var reason: String?
    var by: String?
}
