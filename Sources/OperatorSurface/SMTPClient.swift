import CurlShim
import Foundation
import TradingModel

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

/// E-mail through the system's libcurl (RFC 5321: EHLO, STARTTLS or implicit TLS with the certificate and host name
/// checked, AUTH with the best mechanism both sides offer, one message to every recipient, QUIT), loaded at run time
/// (`CurlShim`): ibtrader compiles no TLS library, and runs without libcurl until an e-mail is to be sent, which then
/// fails with what to install. Enough for alerts through a provider's relay.
public enum SMTPClient {
    /// Sends one message: plain text, or with `html` text and HTML as alternatives (a mail reader shows the HTML).
    /// Runs on its own thread (libcurl blocks), bounded by `settings.timeout`; a cancelled task stops it within about
    /// a second.
    /// - Throws: `SMTPError` naming what failed (the server's refusal, the certificate, a server without STARTTLS, a
    ///   missing libcurl) and libcurl's own words.
    public static func send(subject: String, body: String, html: String? = nil, settings: SMTPSettings) async throws {
        let text = message(subject: subject, body: body, html: html, settings: settings)
        let cancel = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
        cancel.initialize(to: 0)
        let flag = CancelFlag(pointer: cancel)
        let outcome: Outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // A thread of its own: libcurl's transfer blocks, and must not hold one of the cooperative pool's.
                let thread = Thread {
                    continuation.resume(returning: perform(text, settings: settings, cancel: flag))
                }
                thread.name = "ibtrader-smtp"
                thread.start()
            }
        } onCancel: {
            flag.raise()
        }
        cancel.deallocate()
        if let error = outcome.error(settings) { throw error }
    }

    /// What one libcurl exchange ended with.
    struct Outcome: Sendable {
        var code: Int32
        var reply: Int
        var message: String

        /// The error a person reads, or nil when the message was accepted.
        func error(_ settings: SMTPSettings) -> SMTPError? {
            switch code {
            case 0: return nil
            case -1: return SMTPError(description: message)
            case 64: return SMTPError(description: "\(settings.host) does not offer STARTTLS (alerts.smtpSecurity: tls or none?)")
            case 67: return SMTPError(description: "AUTH (check the user and password): the server answered \(reply)")
            case 28: return SMTPError(description: "no answer within \(settings.timeout) from \(settings.host):\(settings.port) (\(message))")
            case 42: return SMTPError(description: "cancelled (the bot stopped)")
            case 60: return SMTPError(description: "\(settings.host)'s certificate is not trusted: \(message)")
            default:
                let server = reply > 0 ? "; the server's last reply \(reply)" : ""
                return SMTPError(description: "\(message) (libcurl error \(code)\(server))")
            }
        }
    }

    /// The cancel flag libcurl's progress callback reads.
    struct CancelFlag: @unchecked Sendable {
        let pointer: UnsafeMutablePointer<Int32>
        func raise() { pointer.pointee = 1 }
    }

    /// One blocking exchange through `ibt_mail_send`.
    static func perform(_ text: String, settings: SMTPSettings, cancel: CancelFlag) -> Outcome {
        let scheme = settings.security == .tls ? "smtps" : "smtp"
        let host = settings.host.contains(":") ? "[\(settings.host)]" : settings.host
        // C copies of the strings for the one call, freed after it.
        var owned: [UnsafeMutablePointer<CChar>] = []
        defer { owned.forEach { free($0) } }
        func c(_ text: String?) -> UnsafePointer<CChar>? {
            guard let text, let copy = strdup(text) else { return nil }
            owned.append(copy)
            return UnsafePointer(copy)
        }
        let recipients = settings.to.map { c("<\($0)>") }
        let pem = c(settings.trustedCertificates)
        let body = c(text)
        var error = [CChar](repeating: 0, count: 512)
        var reply = 0
        let code: Int32 = recipients.withUnsafeBufferPointer { list in
            var mail = ibt_mail(
                url: c("\(scheme)://\(host):\(settings.port)/ibtrader"), require_starttls: settings.security == .starttls ? 1 : 0,
                username: c(settings.username), password: c(settings.password), mail_from: c("<\(settings.from)>"),
                recipients: list.baseAddress, recipient_count: Int32(list.count),
                message: body, message_length: body.map { strlen($0) } ?? 0,
                ca_pem: pem, ca_pem_length: pem.map { strlen($0) } ?? 0,
                timeout_ms: max(1, Int(settings.timeout.secondsValue * 1000)), connect_timeout_ms: 10_000,
                cancel: cancel.pointer)
            return ibt_mail_send(&mail, &error, error.count, &reply)
        }
        return Outcome(code: code, reply: reply, message: Self.text(error))
    }

    /// Whether e-mail can be sent from this machine; when not, what to install.
    public static func unavailableReason() -> String? {
        var error = [CChar](repeating: 0, count: 512)
        return ibt_curl_available(&error, error.count) != 0 ? nil : Self.text(error)
    }

    /// A C string in a buffer, up to its NUL.
    static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The message: headers, a blank line, the body in CRLF lines (libcurl dot-stuffs the lines that start with a
    /// dot). With `html`, a multipart/alternative of the text and the HTML; the HTML part is base64 in 76-character
    /// lines, so no line of a report (an SVG path is one long line) breaks SMTP's 998-character limit.
    static func message(
        subject: String, body: String, html: String? = nil, settings: SMTPSettings, date: Date = Date()
    ) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        let clean = { (text: String) in text.replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " ") }
        let lines = body.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false)
        let text = lines.joined(separator: "\r\n")
        let headers = [
            "From: \(clean(settings.from))", "To: \(settings.to.map(clean).joined(separator: ", "))",
            "Subject: \(clean(subject))", "Date: \(formatter.string(from: date))", "MIME-Version: 1.0",
        ]
        let plain = ["Content-Type: text/plain; charset=utf-8", "Content-Transfer-Encoding: 8bit"]
        guard let html else { return (headers + plain + [""]).joined(separator: "\r\n") + "\r\n" + text + "\r\n" }
        let boundary = "ibtrader-\(UUID().uuidString)"
        let base64 = Array(Data(html.utf8).base64EncodedString().utf8)
        let encoded = stride(from: 0, to: base64.count, by: 76)
            .map { String(decoding: base64[$0..<min($0 + 76, base64.count)], as: UTF8.self) }.joined(separator: "\r\n")
        return (headers + ["Content-Type: multipart/alternative; boundary=\"\(boundary)\"", ""]
            + ["--\(boundary)"] + plain + ["", text]
            + ["--\(boundary)", "Content-Type: text/html; charset=utf-8", "Content-Transfer-Encoding: base64", "", encoded]
            + ["--\(boundary)--", ""]).joined(separator: "\r\n")
    }
}

extension AlertChannel {
    /// E-mail through an SMTP relay: the alert's line as the subject and the body; an alert's HTML document (the
    /// daily report) as the message's HTML part.
    public static func email(_ settings: SMTPSettings) -> AlertChannel {
        AlertChannel(name: "email") { alert, bot in
            let line = line(alert, bot: bot)
            let body = "\(line)\n\nkind: \(alert.kind)\nseverity: \(alert.severity.rawValue)\ntime: \(alert.time)\n"
            return [{
                try await SMTPClient.send(subject: String(line.prefix(200)), body: body, html: alert.html, settings: settings)
            }]
        }
    }
}
