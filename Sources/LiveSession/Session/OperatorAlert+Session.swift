import TradingModel

/// The alerts of one step of a session: what its inputs and actions mean to an operator who is not looking. Pure:
/// the driver hands every step here when someone listens (`OperatorLink`).
///
/// - every log line starting `ALERT:` (the core's critical events) is an alert, its kind read from its words;
/// - the socket to TWS / IB Gateway closing while running is a warning, a reconnect resolves it;
/// - IB's connectivity back (1101 / 1102 after the grace period), positions agreeing again and a stuck loop that
///   recovered resolve their kind;
/// - the operator's kill switch and flatten, and the end of the run;
/// - every order IB rejected (kind `rejected`, warning);
/// - every fill (kind `fill`, info: sent only when `alerts.routes` names it).
extension OperatorAlert {
    public static func alerts(
        of input: SessionInput, actions: [SessionAction], phaseBefore: SessionPhase, phaseAfter: SessionPhase,
        at time: Timestamp
    ) -> [OperatorAlert] {
        // Called for every step (every bar): nothing is formatted unless there is an alert.
        var stamp: String { time.description }
        var alerts: [OperatorAlert] = []
        if case .connectionClosed(_, let reason) = input, phaseBefore == .running, phaseAfter == .reconnecting {
            alerts.append(
                OperatorAlert(
                    kind: "connection", severity: .warning,
                    text: "lost the connection to TWS / IB Gateway (\(reason)); reconnecting", time: stamp))
        }
        for action in actions {
            switch action {
            case .log(_, let text) where text.hasPrefix("ALERT: "):
                alerts.append(OperatorAlert(kind: kind(of: text), severity: .critical, text: String(text.dropFirst(7)), time: stamp))
            case .log(_, let text) where text.hasPrefix("protection restored: "):
                alerts.append(OperatorAlert(kind: "protection", severity: .info, text: String(text.dropFirst(21)), time: stamp, resolves: true))
            case .log(_, let text) where text.hasPrefix("rejected: "):
                alerts.append(OperatorAlert(kind: "rejected", severity: .warning, text: "order " + text, time: stamp))
            case .log(_, let text) where text.hasPrefix("fill: "):
                // Sent only when `alerts.routes` names the kind (info, below the default minimum).
                alerts.append(OperatorAlert(kind: "fill", severity: .info, text: String(text.dropFirst(6)), time: stamp))
            case .milestone(.runner(.reconnected)):
                alerts.append(OperatorAlert(kind: "connection", severity: .info, text: "reconnected to TWS / IB Gateway", time: stamp, resolves: true))
            case .milestone(.connectivity(.resumed)):
                alerts.append(OperatorAlert(kind: "connectivity", severity: .info, text: "connection to IB restored; entries resume", time: stamp, resolves: true))
            case .milestone(.runner(.positionsAgree)):
                alerts.append(OperatorAlert(kind: "positions", severity: .info, text: "positions agree with the broker's again", time: stamp, resolves: true))
            case .milestone(.runner(.tradingHalt(let symbol, let halt?, _))):
                alerts.append(
                    OperatorAlert(
                        kind: "halt", severity: .warning,
                        text: "\(symbol): \(halt); its new entries are refused and its exits wait until trading resumes",
                        time: stamp))
            case .milestone(.runner(.tradingHalt(let symbol, nil, let held))):
                alerts.append(
                    OperatorAlert(
                        kind: "halt", severity: .info,
                        text: "\(symbol): trading resumed" + (held > 0 ? "; \(held) held exits sent" : ""), time: stamp,
                        resolves: true))
            case .milestone(.connectivity(.feedRecovered(let symbol))):
                alerts.append(OperatorAlert(kind: "feed", severity: .info, text: "bars of \(symbol) are back", time: stamp, resolves: true))
            case .milestone(.connectivity(.eventLoopRecovered)):
                alerts.append(OperatorAlert(kind: "loop", severity: .info, text: "the event loop takes input again", time: stamp, resolves: true))
            case .reply(let reply) where reply.done && input == .journalWritable:
                // A resume that waited for the journal.
                alerts.append(OperatorAlert(kind: "journal", severity: .info, text: reply.message, time: stamp, resolves: true))
            case .reply(let reply) where reply.done:
                if case .control(let request) = input, request.action == .kill || request.action == .flatten || request.action == .resume
                    || request.action == .reload
                {
                    alerts.append(
                        OperatorAlert(
                            kind: "control", severity: request.action == .resume ? .info : .warning,
                            text: "\(request.action.rawValue) by \(request.by)\(request.reason.isEmpty ? "" : " (\(request.reason))"): \(reply.message)",
                            time: stamp))
                }
            case .finish(let summary):
                // What is left at the broker, as the exit line says it (`LiveSessionCore+ExitProtection.swift`).
                let left = summary.leftAtBrokerText.map { "; \($0)" } ?? ""
                alerts.append(
                    OperatorAlert(kind: "stopped", severity: .warning, text: "the bot stopped: \(summary.stopReason)\(left)", time: stamp))
            default:
                break
            }
        }
        return alerts
    }

    /// The kind of an ALERT line, from its words.
    static func kind(of text: String) -> String {
        let rules: [(String, String)] = [
            ("without its protective stop", "protection"), ("connection to IB down", "connectivity"), ("stopped answering", "connection"), (" broken for ", "farm"),
            ("positions differ", "positions"), ("journal", "journal"), ("event loop", "loop"), ("the gap after", "backfill"),
            ("times in a row", "quotes"), ("maintenance margin", "margin"), ("execId", "execution"), ("did not stop cleanly", "crash"),
            ("risk halt", "risk"), ("data.deadFeedAfter", "feed"), ("live twice at the broker", "orders"),
        ]
        return rules.first { text.contains($0.0) }?.1 ?? "alert"
    }
}
