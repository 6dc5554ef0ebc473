import Foundation
import NIOCore
import NIOPosix
import NIOSSL

/// Where and how e-mail alerts are sent.
public struct SMTPSettings: Sendable {
    /// `starttls` (port 587: plain, then TLS before anything else), `tls` (port 465: TLS from the first byte), or
    /// `none` (a local relay only).
    public enum Security: String, Sendable { case starttls, tls, none }

    public var host: String
    public var port: Int
    public var security: Security
    public var username: String?
    public var password: String?
    public var from: String
    public var to: [String]
    /// PEM certificates to trust instead of the system's (a private relay, a test).
    public var trustedCertificates: String?
    public var timeout: Duration

    public init(
        host: String, port: Int, security: Security, username: String? = nil, password: String? = nil, from: String,
        to: [String], trustedCertificates: String? = nil, timeout: Duration = .seconds(20)
    ) {
        self.host = host
        self.port = port
        self.security = security
        self.username = username
        self.password = password
        self.from = from
        self.to = to
        self.trustedCertificates = trustedCertificates
        self.timeout = timeout
    }
}

/// A failed SMTP exchange, with the server's reply.
public struct SMTPError: Error, CustomStringConvertible, Equatable {
    public var description: String
}

/// A small SMTP client (RFC 5321) on SwiftNIO: EHLO, STARTTLS or implicit TLS (NIOSSL, the host's name checked),
/// AUTH PLAIN (or LOGIN when the server offers only that), one message to every recipient, QUIT. Enough for alerts through a provider's relay.
public enum SMTPClient {
    /// Sends one message: plain text, or with `html` text and HTML as alternatives (a mail reader shows the HTML).
    /// - Throws: `SMTPError` naming the step and the server's reply; connection and TLS errors as they come.
    public static func send(subject: String, body: String, html: String? = nil, settings: SMTPSettings) async throws {
        let group = MultiThreadedEventLoopGroup.singleton
        let tls = try tlsContext(settings)
        let channel = try await ClientBootstrap(group: group)
            .connectTimeout(.seconds(10))
            .connect(host: settings.host, port: settings.port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    if settings.security == .tls {
                        try channel.pipeline.syncOperations.addHandler(
                            try NIOSSLClientHandler(context: tls, serverHostname: hostname(settings.host)))
                    }
                    return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        try await withTimeLimit(settings.timeout) {
            try await channel.executeThenClose { inbound, outbound in
                var session = Session(inbound: inbound.makeAsyncIterator(), outbound: outbound)
                try await session.expect(220, "greeting")
                var features = try await session.command("EHLO ibtrader", 250, "EHLO")
                if settings.security == .starttls {
                    guard features.contains(where: { $0.uppercased().hasPrefix("STARTTLS") }) else {
                        throw SMTPError(description: "\(settings.host) does not offer STARTTLS (alerts.smtpSecurity: tls or none?)")
                    }
                    _ = try await session.command("STARTTLS", 220, "STARTTLS")
                    let name = hostname(settings.host)
                    try await channel.channel.eventLoop.submit {
                        try channel.channel.pipeline.syncOperations.addHandler(
                            try NIOSSLClientHandler(context: tls, serverHostname: name), position: .first)
                    }.get()
                    features = try await session.command("EHLO ibtrader", 250, "EHLO after STARTTLS")
                }
                if let user = settings.username {
                    try await session.authenticate(user: user, password: settings.password ?? "", features: features)
                }
                _ = try await session.command("MAIL FROM:<\(settings.from)>", 250, "MAIL FROM")
                for recipient in settings.to { _ = try await session.command("RCPT TO:<\(recipient)>", 250, "RCPT TO \(recipient)") }
                _ = try await session.command("DATA", 354, "DATA")
                try await session.write(message(subject: subject, body: body, html: html, settings: settings) + "\r\n.\r\n")
                try await session.expect(250, "the message")
                try? await session.write("QUIT\r\n")
            }
        }
    }

    /// The message: headers, a blank line, the body with its lines dot-stuffed and ending in CRLF. With `html`, a
    /// multipart/alternative of the text and the HTML; the HTML part is base64 in 76-character lines, so no line of
    /// a report (an SVG path is one long line) breaks SMTP's 998-character limit and none needs dot-stuffing.
    static func message(
        subject: String, body: String, html: String? = nil, settings: SMTPSettings, date: Date = Date()
    ) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        let clean = { (text: String) in text.replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " ") }
        let lines = body.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix(".") ? "." + $0 : String($0) }
        let text = lines.joined(separator: "\r\n")
        let headers = [
            "From: \(clean(settings.from))", "To: \(settings.to.map(clean).joined(separator: ", "))",
            "Subject: \(clean(subject))", "Date: \(formatter.string(from: date))", "MIME-Version: 1.0",
        ]
        let plain = ["Content-Type: text/plain; charset=utf-8", "Content-Transfer-Encoding: 8bit"]
        guard let html else { return (headers + plain + [""]).joined(separator: "\r\n") + "\r\n" + text }
        let boundary = "ibtrader-\(UUID().uuidString)"
        let base64 = Array(Data(html.utf8).base64EncodedString().utf8)
        let encoded = stride(from: 0, to: base64.count, by: 76)
            .map { String(decoding: base64[$0..<min($0 + 76, base64.count)], as: UTF8.self) }.joined(separator: "\r\n")
        return (headers + ["Content-Type: multipart/alternative; boundary=\"\(boundary)\"", ""]
            + ["--\(boundary)"] + plain + ["", text]
            + ["--\(boundary)", "Content-Type: text/html; charset=utf-8", "Content-Transfer-Encoding: base64", "", encoded]
            + ["--\(boundary)--"]).joined(separator: "\r\n")
    }

    static func tlsContext(_ settings: SMTPSettings) throws -> NIOSSLContext {
        var configuration = TLSConfiguration.makeClientConfiguration()
        if let pem = settings.trustedCertificates {
            configuration.trustRoots = .certificates(try NIOSSLCertificate.fromPEMBytes(Array(pem.utf8)))
        }
        return try NIOSSLContext(configuration: configuration)
    }

    /// The name TLS checks the certificate against (`nil` for an IP address, which SNI may not carry).
    static func hostname(_ host: String) -> String? {
        host.allSatisfy { $0.isNumber || $0 == "." || $0 == ":" } ? nil : host
    }

    /// Replies read line by line from the connection.
    struct Session {
        var inbound: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
        let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
        var pending = ""

        mutating func write(_ text: String) async throws { try await outbound.write(ByteBuffer(string: text)) }

        /// AUTH PLAIN, or AUTH LOGIN where the server offers only that (Microsoft 365's relay).
        mutating func authenticate(user: String, password: String, features: [String]) async throws {
            let mechanisms = Set(
                features.filter { $0.uppercased().hasPrefix("AUTH") }
                    .flatMap { $0.uppercased().split(whereSeparator: { $0 == " " || $0 == "=" }).dropFirst().map(String.init) })
            let step = "AUTH (check the user and password)"
            if mechanisms.contains("LOGIN"), !mechanisms.contains("PLAIN") {
                _ = try await command("AUTH LOGIN", 334, "AUTH LOGIN")
                _ = try await command(Data(user.utf8).base64EncodedString(), 334, step)
                _ = try await command(Data(password.utf8).base64EncodedString(), 235, step)
                return
            }
            let token = Data(([0] + Array(user.utf8) + [0] + Array(password.utf8))).base64EncodedString()
            _ = try await command("AUTH PLAIN \(token)", 235, step)
        }

        /// Sends a command and reads its reply; anything but `code` is an error naming `step`.
        mutating func command(_ text: String, _ code: Int, _ step: String) async throws -> [String] {
            try await write(text + "\r\n")
            return try await expect(code, step)
        }

        /// Reads one reply (all its lines); anything but `code` is an error naming `step`.
        @discardableResult
        mutating func expect(_ code: Int, _ step: String) async throws -> [String] {
            var lines: [String] = []
            while true {
                let line = try await readLine()
                lines.append(String(line.dropFirst(4)))
                guard line.count >= 4, line.dropFirst(3).first == "-" else {
                    guard Int(line.prefix(3)) == code else {
                        throw SMTPError(description: "\(step): the server answered '\(line)'")
                    }
                    return lines
                }
            }
        }

        mutating func readLine() async throws -> String {
            while true {
                if let end = pending.range(of: "\r\n") ?? pending.range(of: "\n") {
                    let line = String(pending[..<end.lowerBound])
                    pending.removeSubrange(..<end.upperBound)
                    return line
                }
                guard pending.utf8.count < 65_536, var buffer = try await inbound.next() else {
                    throw SMTPError(description: "the server closed the connection")
                }
                pending += buffer.readString(length: buffer.readableBytes) ?? ""
            }
        }
    }

    static func withTimeLimit(_ limit: Duration, _ body: @escaping @Sendable () async throws -> Void) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: limit)
                throw SMTPError(description: "no answer within \(limit)")
            }
            try await group.next()
            group.cancelAll()
        }
    }
}

extension AlertChannel {
    /// E-mail through an SMTP relay: the alert's line as the subject and the body; an alert's HTML document (the
    /// daily report) as the message's HTML part.
    public static func email(_ settings: SMTPSettings) -> AlertChannel {
        AlertChannel(name: "email") { alert, bot in
            let line = line(alert, bot: bot)
            let body = "\(line)\n\nkind: \(alert.kind)\nseverity: \(alert.severity.rawValue)\ntime: \(alert.time)\n"
            return [{ _ in
                try await SMTPClient.send(subject: String(line.prefix(200)), body: body, html: alert.html, settings: settings)
            }]
        }
    }
}
