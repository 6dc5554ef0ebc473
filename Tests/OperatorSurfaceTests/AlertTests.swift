import Foundation
import Hummingbird
import Logging
import Synchronization
import Testing
import TradingModel

@testable import LiveSession
@testable import OperatorSurface

/// Alerts (issue 23): which go out (one per storm, resolutions only of what was sent), what each channel's request
/// looks like at a local receiver, and that a dead channel neither blocks the poster nor the other channels.
struct AlertTests {
    static let t0 = Timestamp(seconds: 1_700_000_000)

    static func alert(_ kind: String, _ severity: OperatorAlert.Severity = .critical, resolves: Bool = false, text: String = "x") -> OperatorAlert {
        OperatorAlert(kind: kind, severity: severity, text: text, time: "t", resolves: resolves)
    }

    @Test func aStormIsOneAlertThenOnePerCooldownWithTheCount() {
        var coalescer = AlertCoalescer(minimum: .warning, cooldown: .seconds(300))
        #expect(coalescer.admit(Self.alert("connectivity", text: "lost"), at: Self.t0).count == 1)
        for k in 1...50 { #expect(coalescer.admit(Self.alert("connectivity"), at: Self.t0 + .seconds(Int64(k))).isEmpty) }
        #expect(coalescer.admit(Self.alert("farm"), at: Self.t0 + .seconds(2)).count == 1, "another kind is not held")
        let later = coalescer.admit(Self.alert("connectivity", text: "lost again"), at: Self.t0 + .seconds(301))
        #expect(later.map(\.text) == ["lost again (and 50 more of this kind since the last message)"])
        #expect(coalescer.admit(Self.alert("loop", .info), at: Self.t0).isEmpty, "below the minimum")
    }

    @Test func aResolutionGoesOutOnlyForAnOpenAlertAndCarriesWhatWasHeld() {
        var coalescer = AlertCoalescer(minimum: .warning, cooldown: .seconds(300))
        #expect(coalescer.admit(Self.alert("positions", .info, resolves: true), at: Self.t0).isEmpty, "nothing to resolve")
        _ = coalescer.admit(Self.alert("connection", .warning), at: Self.t0)
        _ = coalescer.admit(Self.alert("connection", .warning), at: Self.t0 + .seconds(1))
        let restored = coalescer.admit(Self.alert("connection", .info, resolves: true, text: "reconnected"), at: Self.t0 + .seconds(5))
        #expect(restored.map(\.text) == ["reconnected (1 more alerts of this kind were held back meanwhile)"])
        #expect(coalescer.admit(Self.alert("connection", .info, resolves: true), at: Self.t0 + .seconds(6)).isEmpty)
        // Flapping: another loss and recovery within the cooldown are held, and summed up when it ends.
        #expect(coalescer.admit(Self.alert("connection", .warning), at: Self.t0 + .seconds(7)).isEmpty)
        #expect(coalescer.admit(Self.alert("connection", .info, resolves: true, text: "back"), at: Self.t0 + .seconds(8)).isEmpty)
        #expect(coalescer.flush(at: Self.t0 + .seconds(300)).map(\.text) == ["2 more connection alerts; the last: back"])
        #expect(coalescer.admit(Self.alert("connection", .warning), at: Self.t0 + .seconds(601)).count == 1, "a later outage is news")
    }

    @Test func heldAlertsComeOutWhenTheCooldownEnds() {
        var coalescer = AlertCoalescer(minimum: .warning, cooldown: .seconds(60))
        _ = coalescer.admit(Self.alert("farm", text: "a"), at: Self.t0)
        _ = coalescer.admit(Self.alert("farm", text: "b"), at: Self.t0 + .seconds(10))
        #expect(coalescer.flush(at: Self.t0 + .seconds(59)).isEmpty)
        #expect(coalescer.flush(at: Self.t0 + .seconds(60)).map(\.text) == ["1 more farm alerts; the last: b"])
        #expect(coalescer.flush(at: Self.t0 + .seconds(200)).isEmpty)
    }

    @Test func theStopSendsWhatTheCooldownHeld() {
        var coalescer = AlertCoalescer(minimum: .warning, cooldown: .seconds(300), alwaysSent: ["fill"])
        for k in 1...4 {
            _ = coalescer.admit(Self.alert("fill", .info, text: "fill \(k)"), at: Self.t0 + .seconds(Int64(k)))
        }
        for k in 0..<7 { _ = coalescer.admit(Self.alert("farm", text: "farm \(k)"), at: Self.t0 + .seconds(Int64(k))) }
        let out = coalescer.flushAll().map(\.text)
        #expect(out == [
            "6 more farm alerts held back by the cooldown; the last: farm 6",
            "fill 2 (held back by the cooldown, sent at the stop)", "fill 3 (held back by the cooldown, sent at the stop)",
            "fill 4 (held back by the cooldown, sent at the stop)",
        ])
        #expect(coalescer.flushAll().isEmpty, "sent once")
    }

    /// Issue 45: 1 of 4 fill alerts arrived when the bot stopped within the cooldown.
    @Test func theCenterFlushesHeldAlertsWhenItStops() async throws {
        let received = Mutex<[String]>([])
        let channel = AlertChannel(name: "telegram") { (alert: OperatorAlert, _: String) -> [AlertChannel.Delivery] in
            [{ received.withLock { $0.append(alert.text) } }]
        }
        var logger = Logger(label: "alerts")
        logger.logLevel = .critical
        let center = AlertCenter(
            channels: [channel], bot: "b", minimum: .warning, cooldown: .seconds(300), logger: logger,
            routes: AlertRoutes(["fill": ["telegram"]]))
        let run = Task { try await center.run() }
        for k in 1...4 { center.post(Self.alert("fill", .info, text: "buy \(k) SPY")) }
        center.finish()  // what the stop's graceful shutdown does
        try await run.value
        let texts = received.withLock { $0 }
        #expect(texts.count == 4, "\(texts)")
        for k in 1...4 { #expect(texts.contains { $0.hasPrefix("buy \(k) SPY") }, "fill \(k): \(texts)") }
    }

    @Test func aSessionStepsAlertsFromItsLinesMilestonesAndControls() {
        let t = Self.t0
        let lost = OperatorAlert.alerts(
            of: .connectionClosed(generation: 1, "peer closed"), actions: [], phaseBefore: .running, phaseAfter: .reconnecting, at: t)
        #expect(lost == [OperatorAlert(kind: "connection", severity: .warning, text: "lost the connection to TWS / IB Gateway (peer closed); reconnecting", time: t.description)])
        let lines = OperatorAlert.alerts(
            of: .tick,
            actions: [
                .log(.critical, "ALERT: positions differ from the broker's: AAPL 0 here, 100 at the broker."),
                .log(.warning, "an ordinary warning"), .milestone(.runner(.reconnected(generation: 2))),
            ],
            phaseBefore: .running, phaseAfter: .running, at: t)
        #expect(lines.map(\.kind) == ["positions", "connection"])
        #expect(lines.map(\.resolves) == [false, true])
        #expect(lines[0].text == "positions differ from the broker's: AAPL 0 here, 100 at the broker.")
        let kill = OperatorControl(id: 1, action: .kill, by: "ctl (alice)", reason: "news")
        let killed = OperatorAlert.alerts(
            of: .control(kill), actions: [.reply(OperatorReply(id: 1, done: true, message: "kill switch engaged"))],
            phaseBefore: .running, phaseAfter: .running, at: t)
        #expect(killed.map(\.text) == ["kill by ctl (alice) (news): kill switch engaged"])
        #expect(OperatorAlert.kind(of: "ALERT: the journal failed a write (disk full)") == "journal")
        // A dead feed is a critical `feed` alert; its symbol's bars coming back resolves it.
        let feed = OperatorAlert.alerts(
            of: .tick,
            actions: [
                .log(.warning, "ALERT: no bar of MSFT for 120 s of trading hours (data.deadFeedAfter; last bar 2024-01-08T15:00:00Z): the feed is taken as dead; resubscribing and back-filling"),
                .milestone(.connectivity(.feedRecovered(symbol: "MSFT"))),
            ],
            phaseBefore: .running, phaseAfter: .running, at: t)
        #expect(feed.map(\.kind) == ["feed", "feed"])
        #expect(feed.map(\.severity) == [.critical, .info])
        #expect(feed.map(\.resolves) == [false, true])
        #expect(feed[1].text == "bars of MSFT are back")
    }

    /// What a local receiver got: path, headers that matter, body.
    final class Receiver: Sendable {
        struct Hit: Sendable { var path: String; var authorization: String?; var contentType: String?; var body: String }
        let hits = Mutex<[Hit]>([])
        var all: [Hit] { hits.withLock { $0 } }
    }

    static func withReceiver(_ body: @Sendable (Int, Receiver) async throws -> Void) async throws {
        let receiver = Receiver()
        let router = Router()
        router.post("/**") { request, _ -> HTTPResponse.Status in
            let data = try await request.body.collect(upTo: 65_536)
            receiver.hits.withLock {
                $0.append(.init(
                    path: request.uri.path, authorization: request.headers[.authorization],
                    contentType: request.headers[.contentType], body: String(buffer: data)))
            }
            return .ok
        }
        let (ports, sink) = AsyncStream.makeStream(of: Int.self)
        var logger = Logger(label: "receiver")
        logger.logLevel = .critical
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { sink.yield($0.localAddress?.port ?? 0) }, logger: logger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await app.run() }
            var iterator = ports.makeAsyncIterator()
            let port = try #require(await iterator.next())
            try await body(port, receiver)
            group.cancelAll()
        }
    }

    /// The daily report's document rides in the JSON webhook's `html` field; Slack's format keeps to the line.
    @Test func theJSONWebhookCarriesTheDailyReportsDocument() async throws {
        try await Self.withReceiver { port, receiver in
            let base = URL(string: "http://127.0.0.1:\(port)")!
            var logger = Logger(label: "alerts")
            logger.logLevel = .critical
            let center = AlertCenter(
                channels: [.webhook(base.appendingPathComponent("hook"), format: "json"), .webhook(base.appendingPathComponent("slack"), format: "slack")],
                bot: "ibtrader DU1", minimum: .critical, cooldown: .seconds(300), logger: logger)
            let run = Task { try await center.run() }
            let html = "<!doctype html><html><body>net 12.50</body></html>"
            center.post(OperatorAlert(kind: "daily", severity: .info, text: "daily report 2026-11-24", time: "t", html: html))
            center.finish()
            try await run.value
            let json = try #require(receiver.all.first { $0.path == "/hook" })
            let fields = try #require(try JSONSerialization.jsonObject(with: Data(json.body.utf8)) as? [String: Any])
            #expect(fields["kind"] as? String == "daily" && fields["html"] as? String == html)
            #expect(receiver.all.first { $0.path == "/slack" }?.body == #"{"text":"[ibtrader DU1] info: daily report 2026-11-24"}"#)
        }
    }

    @Test func eachChannelReachesALocalReceiverAndADeadOneBlocksNothing() async throws {
        try await Self.withReceiver { port, receiver in
            let base = URL(string: "http://127.0.0.1:\(port)")!
            var logger = Logger(label: "alerts")
            logger.logLevel = .critical
            let dead = AlertChannel.webhook(URL(string: "http://127.0.0.1:9/nothing")!, format: "json")
            let center = AlertCenter(
                channels: [
                    dead, .webhook(base.appendingPathComponent("hook"), format: "json"),
                    .webhook(base.appendingPathComponent("slack"), format: "slack"),
                    .telegram(api: base, token: "123:ABC", chats: ["42", "43"]),
                    .sms(url: base.appendingPathComponent("sms"), user: "AC1", password: "secret", from: "+100", to: ["+200"]),
                ],
                bot: "ibtrader DU1", minimum: .warning, cooldown: .seconds(300), logger: logger,
                retryDelays: [.milliseconds(10)])
            let run = Task { try await center.run() }
            let clock = ContinuousClock()
            let posting = clock.measure {
                center.post(OperatorAlert(kind: "connection", severity: .warning, text: "lost the connection & more", time: "t"))
                for _ in 0..<1_000 { center.post(OperatorAlert(kind: "connection", severity: .warning, text: "again", time: "t")) }
            }
            #expect(posting < .milliseconds(200), "posting never waits for a channel: \(posting)")
            // Real HTTP to a loopback receiver (a kept real-socket test): wait, briefly, for the five deliveries. (A
            // finish would drain them too, but also the storm the cooldown holds, which this test must see held.)
            for _ in 0..<500 where receiver.all.count < 5 { try await Task.sleep(for: .milliseconds(10)) }
            let hits = receiver.all
            #expect(hits.count == 5, "json + slack + two Telegram chats + one SMS, the storm coalesced: \(hits.map(\.path))")
            let json = try #require(hits.first { $0.path == "/hook" })
            let fields = try #require(try JSONSerialization.jsonObject(with: Data(json.body.utf8)) as? [String: Any])
            #expect(fields["kind"] as? String == "connection" && fields["severity"] as? String == "warning")
            #expect(fields["text"] as? String == "lost the connection & more" && fields["bot"] as? String == "ibtrader DU1")
            #expect(hits.first { $0.path == "/slack" }?.body == #"{"text":"[ibtrader DU1] warning: lost the connection & more"}"#)
            let telegram = hits.filter { $0.path == "/bot123:ABC/sendMessage" }
            let chats = try telegram.map { try JSONSerialization.jsonObject(with: Data($0.body.utf8)) as? [String: Any] }
            #expect(Set(chats.map { $0?["chat_id"] as? String }) == ["42", "43"])
            let sms = try #require(hits.first { $0.path == "/sms" })
            #expect(sms.authorization == "Basic " + Data("AC1:secret".utf8).base64EncodedString())
            #expect(sms.contentType == "application/x-www-form-urlencoded")
            #expect(sms.body == "Body=%5Bibtrader+DU1%5D+warning%3A+lost+the+connection+%26+more&From=%2B100&To=%2B200")
            center.finish()
            try await run.value
            // The storm's 1,000 held alerts go out as one summary at the stop (json + slack, two chats, one SMS).
            #expect(center.delivered["webhook"] == 4 && center.delivered["telegram"] == 4 && center.delivered["sms"] == 2)
        }
    }
}

/// Issue 83's move to URLSession: Foundation's errors carry the whole URL, and a channel's URL holds its secrets (a
/// Telegram token in the path, a webhook's secret path, credentials). A failed delivery's error names neither.
struct AlertDeliveryErrorTests {
    @Test func aFailedDeliveryNamesWhatWentWrongNotTheURL() async throws {
        let url = try #require(URL(string: "http://hook-user:hook-password@127.0.0.1:9/hooks/path-secret?key=query-secret"))
        let channel = AlertChannel.webhook(url, format: "json")
        let delivery = try #require(try channel.deliveries(OperatorAlert(kind: "k", severity: .critical, text: "t", time: "t"), "bot").first)
        do {
            try await delivery()
            Issue.record("delivered to a closed port")
        } catch {
            let text = "\(error)"
            #expect(text.hasPrefix("the channel could not be reached"), "\(text)")
            for secret in ["hook-user", "hook-password", "path-secret", "query-secret"] { #expect(!text.contains(secret), "\(text)") }
        }
        #expect(AlertChannel.redacted("failed http://u:p@h/x/secret at /x/secret", url) == "failed http://u:p@h/x/secret at /x/secret")
        #expect(AlertChannel.redacted("GET \(url.absoluteString) and \(url.path)", url) == "GET … and …")
    }
}
