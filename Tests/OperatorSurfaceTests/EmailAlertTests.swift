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

/// The e-mail client's own paths that need no SMTP server: what each of libcurl's failures reads as, and a send that
/// the bot's stop cancels while the relay says nothing (a kept real-socket test: a loopback listener that never
/// greets).
struct EmailFailureTests {
    static let settings = SMTPSettings(
        host: "mail.example.com", port: 587, security: .starttls, from: "a@b.c", to: ["d@e.f"], timeout: .seconds(20))

    @Test func eachFailureSaysWhatToDoInWords() {
        let error = { (code: Int32, reply: Int, message: String) in
            SMTPClient.Outcome(code: code, reply: reply, message: message).error(Self.settings)?.description
        }
        #expect(error(0, 250, "") == nil)
        #expect(error(-1, 0, "libcurl is not installed (tried libcurl.so.4); e-mail alerts need it") == "libcurl is not installed (tried libcurl.so.4); e-mail alerts need it")
        #expect(error(64, 220, "") == "mail.example.com does not offer STARTTLS (alerts.smtpSecurity: tls or none?)")
        #expect(error(67, 535, "Login denied") == "AUTH (check the user and password): the server answered 535")
        #expect(error(28, 0, "Operation timed out after 20000 milliseconds") == "no answer within 20.0 seconds from mail.example.com:587 (Operation timed out after 20000 milliseconds)")
        #expect(error(60, 0, "SSL certificate problem: self-signed certificate") == "mail.example.com's certificate is not trusted: SSL certificate problem: self-signed certificate")
        #expect(error(55, 550, "Failed sending data to the peer") == "Failed sending data to the peer (libcurl error 55; the server's last reply 550)")
    }

    @Test func theMessageIsCRLFLinesWithoutStuffingForLibcurlToStuff() {
        let text = SMTPClient.message(subject: "s\r\nBcc: x", body: "a\n.b\nc", settings: Self.settings, date: Date(timeIntervalSince1970: 0))
        #expect(text.hasSuffix("\r\n\r\na\r\n.b\r\nc\r\n"), "libcurl adds the second dot and the final '.'")
        #expect(text.contains("Subject: s  Bcc: x\r\n"), "no header can be injected through the subject")
    }

    @Test func aStoppedBotDoesNotWaitForASilentRelay() async throws {
        #if canImport(Glibc)
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let listener = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        #expect(listener >= 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, 4) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        #expect(bound)
        let port = Int(UInt16(bigEndian: address.sin_port))
        let silent = SMTPSettings(host: "127.0.0.1", port: port, security: .none, from: "a@b.c", to: ["d@e.f"], timeout: .seconds(60))
        let clock = ContinuousClock()
        let start = clock.now
        let sending = Task { try await SMTPClient.send(subject: "s", body: "b", settings: silent) }
        // Real time: libcurl waits for the greeting on its own thread, which only the wall clock moves.
        try await Task.sleep(for: .milliseconds(300))
        sending.cancel()
        await #expect(throws: SMTPError(description: "cancelled (the bot stopped)")) { try await sending.value }
        #expect(clock.now - start < .seconds(5), "the 60 s timeout was not waited for")
    }
}
