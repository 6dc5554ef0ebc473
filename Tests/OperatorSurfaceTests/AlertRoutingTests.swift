import Foundation
import LiveSession
import Logging
import OperatorSurface
import Synchronization
import Testing
import TradingModel

/// Issue 23: alerts routed per kind and severity (`alerts.routes`), and fills as an optional kind.
struct AlertRoutingTests {
    static func alert(_ kind: String, _ severity: OperatorAlert.Severity) -> OperatorAlert {
        OperatorAlert(kind: kind, severity: severity, text: kind, time: "t")
    }

    @Test func anAlertTakesItsKindsRouteElseItsSeveritysElseDefaultElseEveryChannel() {
        let routes = AlertRoutes(["fill": ["telegram"], "critical": ["sms", "email"], "default": ["webhook"]])
        #expect(routes.channels(for: Self.alert("fill", .info)) == ["telegram"])
        #expect(routes.channels(for: Self.alert("margin", .critical)) == ["sms", "email"])
        #expect(routes.channels(for: Self.alert("connection", .warning)) == ["webhook"])
        #expect(AlertRoutes().channels(for: Self.alert("connection", .warning)) == nil, "no routes: every channel")
        #expect(routes.namedKinds == ["fill", "daily"])
    }

    @Test func aRoutedKindIsSentWhateverItsSeverity() {
        var coalescer = AlertCoalescer(minimum: .warning, cooldown: .zero, alwaysSent: ["fill"])
        #expect(coalescer.admit(Self.alert("fill", .info), at: Timestamp(seconds: 1)).count == 1)
        #expect(coalescer.admit(Self.alert("connection", .info), at: Timestamp(seconds: 1)).isEmpty)
    }

    @Test func aFillLineIsAFillAlert() {
        let alerts = OperatorAlert.alerts(
            of: .tick, actions: [.log(.info, "fill: buy 100 SPY @ 126.42, commission 1 (order 7)")],
            phaseBefore: .running, phaseAfter: .running, at: Timestamp(seconds: 1))
        #expect(alerts.map(\.kind) == ["fill"])
        #expect(alerts.first?.severity == .info)
        #expect(alerts.first?.text == "buy 100 SPY @ 126.42, commission 1 (order 7)")
    }

    @Test func theCenterSendsEachAlertOnlyToItsRoutesChannels() async throws {
        let received = Mutex<[String: [String]]>([:])
        func recorder(_ name: String) -> AlertChannel {
            AlertChannel(name: name) { (alert: OperatorAlert, _: String) -> [AlertChannel.Delivery] in
                [{ received.withLock { $0[name, default: []].append(alert.kind) } }]
            }
        }
        var logger = Logger(label: "test.routes")
        logger.logLevel = .critical
        let center = AlertCenter(
            channels: [recorder("webhook"), recorder("telegram"), recorder("sms")], bot: "b", minimum: .warning,
            cooldown: .zero, logger: logger, routes: AlertRoutes(["fill": ["telegram"], "critical": ["sms"]]))
        let run = Task { try await center.run() }
        center.post(Self.alert("fill", .info))
        center.post(Self.alert("margin", .critical))
        center.post(Self.alert("connection", .warning))
        center.post(Self.alert("loop", .info))
        // The finish delivers everything posted before it returns: no wait on the clock.
        center.finish()
        try await run.value
        let seen = received.withLock { $0 }
        #expect(seen["telegram"] == ["fill", "connection"])
        #expect(seen["sms"] == ["margin", "connection"])
        #expect(seen["webhook"] == ["connection"], "no route names it: only unrouted alerts at or above the minimum")
    }
}
