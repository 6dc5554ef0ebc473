import Foundation
import Logging
import Testing
import TWSTestSupport

@testable import LiveSession
@testable import OperatorSurface

/// E-mail alerts (issue 23) against a local SMTP server (aiosmtpd, from scripts/setup-python.sh's venv): STARTTLS
/// with the server's certificate checked, AUTH, the message as sent, and clear errors for a wrong password and a
/// server without STARTTLS.
/// Skipped (and said so) without a python on a developer's machine; under CI (`CI` set) a missing one fails.
@Suite(.enabled(
    if: !(ProcessInfo.processInfo.environment["IBTRADER_PYTHON"] ?? "").isEmpty || ProcessInfo.processInfo.environment["CI"] != nil,
    "set IBTRADER_PYTHON (scripts/setup-python.sh)"))
struct EmailAlertTests {
    static let python = ProcessInfo.processInfo.environment["IBTRADER_PYTHON"] ?? ""
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Interop/smtp_server.py").path

    /// A running server and its mailbox.
    struct Server {
        var port: Int
        var mailbox: String
        var process: Process
        var messages: [[String: Any]] {
            ((try? String(contentsOfFile: mailbox, encoding: .utf8)) ?? "").split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
        }
    }

    static func run(_ arguments: [String], in folder: URL) async throws -> Server {
        let mailbox = folder.appendingPathComponent("mailbox-\(UUID().uuidString).jsonl").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [script, mailbox] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let line = await output.fileHandleForReading.text(until: "\n")
        let port = try #require(Int(line.trimmingCharacters(in: .whitespacesAndNewlines)))
        return Server(port: port, mailbox: mailbox, process: process)
    }

    static func certificate(in folder: URL) async throws -> (cert: String, key: String) {
        let cert = folder.appendingPathComponent("cert.pem").path, key = folder.appendingPathComponent("key.pem").path
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        openssl.arguments = [
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "1",
            "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost",
        ]
        openssl.standardOutput = FileHandle.nullDevice
        openssl.standardError = FileHandle.nullDevice
        try openssl.run()
        await openssl.exited()
        return (cert, key)
    }

    @Test func aStartTLSServerWithAuthGetsTheMessageAndBadSettingsAreClearErrors() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("smtp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (cert, key) = try await Self.certificate(in: folder)
        let server = try await Self.run(["--starttls", cert, key, "--auth", "alice:s3cret"], in: folder)
        defer { server.process.terminate() }
        let pem = try String(contentsOfFile: cert, encoding: .utf8)
        var settings = SMTPSettings(
            host: "localhost", port: server.port, security: .starttls, username: "alice", password: "s3cret",
            from: "bot@example.com", to: ["ops@example.com", "me@example.com"], trustedCertificates: pem, timeout: .seconds(15))
        try await SMTPClient.send(subject: "[ibtrader] ALERT: positions differ", body: "line one\n.dot line\nend", settings: settings)
        let message = try #require(server.messages.first)
        #expect(message["tls"] as? Bool == true)
        #expect(message["from"] as? String == "bot@example.com")
        #expect(message["to"] as? [String] == ["ops@example.com", "me@example.com"])
        let content = try #require(message["content"] as? String)
        #expect(content.contains("Subject: [ibtrader] ALERT: positions differ"))
        #expect(content.contains("line one\r\n.dot line\r\nend"), "dot-stuffing undone by the server: \(content)")

        // aiosmtpd holds a failed AUTH instead of answering 535 at once: bounded by the timeout, still an SMTPError.
        settings.timeout = .seconds(3)
        settings.password = "wrong"
        await #expect(throws: SMTPError.self) { try await SMTPClient.send(subject: "s", body: "b", settings: settings) }
        settings.trustedCertificates = nil
        settings.password = "s3cret"
        await #expect(throws: (any Error).self, "a certificate nobody vouches for is refused") {
            try await SMTPClient.send(subject: "s", body: "b", settings: settings)
        }
        #expect(server.messages.count == 1)

        let plain = try await Self.run([], in: folder)
        defer { plain.process.terminate() }
        let noTLS = SMTPSettings(host: "127.0.0.1", port: plain.port, security: .starttls, from: "a@b.c", to: ["d@e.f"])
        do {
            try await SMTPClient.send(subject: "s", body: "b", settings: noTLS)
            Issue.record("sent over a server without STARTTLS")
        } catch let error as SMTPError {
            #expect(error.description == "127.0.0.1 does not offer STARTTLS (alerts.smtpSecurity: tls or none?)")
        }
        // The alert channel: one e-mail per alert, through the center's queue.
        var logger = Logger(label: "alerts")
        logger.logLevel = .critical
        let center = AlertCenter(
            channels: [.email(SMTPSettings(host: "127.0.0.1", port: plain.port, security: .none, from: "bot@example.com", to: ["ops@example.com"]))],
            bot: "ibtrader DU1", minimum: .warning, cooldown: .seconds(300), logger: logger)
        let running = Task { try await center.run() }
        center.post(OperatorAlert(kind: "journal", severity: .critical, text: "the journal failed a write (disk full)", time: "2026-11-24T12:00:00Z"))
        center.finish()
        try await running.value
        let alert = try #require(plain.messages.first?["content"] as? String)
        #expect(alert.contains("Subject: [ibtrader DU1] ALERT: the journal failed a write (disk full)"))
        #expect(alert.contains("kind: journal"))
    }

    /// A relay that offers AUTH LOGIN only (Microsoft 365's) gets LOGIN; a wrong password there is the same clear error.
    @Test func aRelayWithLoginOnlyIsAuthenticatedWithLogin() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("smtp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (cert, key) = try await Self.certificate(in: folder)
        let server = try await Self.run(["--starttls", cert, key, "--auth", "alice:s3cret", "--login-only"], in: folder)
        defer { server.process.terminate() }
        var settings = SMTPSettings(
            host: "localhost", port: server.port, security: .starttls, username: "alice", password: "s3cret",
            from: "bot@example.com", to: ["ops@example.com"], trustedCertificates: try String(contentsOfFile: cert, encoding: .utf8),
            timeout: .seconds(15))
        try await SMTPClient.send(subject: "login", body: "through AUTH LOGIN", settings: settings)
        let message = try #require(server.messages.first)
        // The relay refuses PLAIN and requires authentication: the message got through with LOGIN.
        #expect(message["authenticated"] as? Bool == true && (message["content"] as? String)?.contains("through AUTH LOGIN") == true)
        settings.password = "wrong"
        settings.timeout = .seconds(3)
        await #expect(throws: SMTPError.self) { try await SMTPClient.send(subject: "s", body: "b", settings: settings) }
    }

    /// The daily report goes as an HTML e-mail: text and HTML alternatives, the HTML exactly as written (Python's
    /// email package decodes it), however long its lines and whatever they start with.
    @Test func anAlertWithADocumentIsSentAsHTMLMail() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("smtp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await Self.run([], in: folder)
        defer { server.process.terminate() }
        let html = "<!doctype html>\n<html><body><h1>Daily report 2026-11-24 — €12.50</h1>\n.a line with a dot\n<svg><path d=\""
            + String(repeating: "L10 20 ", count: 600) + "\"/></svg>\n</body></html>\n"
        var logger = Logger(label: "alerts")
        logger.logLevel = .critical
        let center = AlertCenter(
            channels: [.email(SMTPSettings(host: "127.0.0.1", port: server.port, security: .none, from: "bot@example.com", to: ["ops@example.com"]))],
            bot: "ibtrader DU1", minimum: .warning, cooldown: .seconds(300), logger: logger)
        let running = Task { try await center.run() }
        center.post(OperatorAlert(kind: "daily", severity: .info, text: "daily report 2026-11-24: net 12.50", time: "2026-11-24T21:15:00Z", html: html))
        center.finish()
        try await running.value
        let message = try #require(server.messages.first)
        let parts = try #require(message["parts"] as? [[String: Any]])
        #expect(parts.map { $0["type"] as? String } == ["text/plain", "text/html"])
        #expect((parts.first?["text"] as? String)?.contains("[ibtrader DU1] info: daily report 2026-11-24: net 12.50") == true)
        #expect(parts.last?["text"] as? String == html)
        let content = try #require(message["content"] as? String)
        #expect(content.utf8.split(separator: 0x0A).allSatisfy { $0.count <= 998 }, "no line beyond SMTP's limit")
    }
}
