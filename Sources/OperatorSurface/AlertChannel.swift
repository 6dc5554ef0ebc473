import Foundation
import LiveSession
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Where alerts go: one delivery per alert and recipient (an HTTP request, an e-mail). A channel only formats and
/// sends; retries, rate and coalescing are the `AlertCenter`'s.
public struct AlertChannel: Sendable {
    /// One message to one recipient; throws when it was not delivered.
    public typealias Delivery = @Sendable () async throws -> Void

    /// The channel's name in logs (`webhook`, `telegram`, `sms`, `email`).
    public var name: String
    /// The deliveries of one alert.
    public var deliveries: @Sendable (OperatorAlert, _ bot: String) throws -> [Delivery]

    /// Creates a channel.
    public init(name: String, deliveries: @escaping @Sendable (OperatorAlert, String) throws -> [Delivery]) {
        self.name = name
        self.deliveries = deliveries
    }

    /// One HTTP POST of an alert.
    public struct Post: Sendable {
        public var url: URL
        public var headers: [(String, String)]
        public var body: Data
    }

    /// A channel whose deliveries are HTTP POSTs (a 2xx answer is delivered).
    public init(name: String, posts: @escaping @Sendable (OperatorAlert, String) throws -> [Post]) {
        self.init(name: name) { alert, bot in try posts(alert, bot).map(Self.http) }
    }

    /// The session alerts go through: no cache, no cookies, 10 s for a request (connection included).
    static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 10
        configuration.timeoutIntervalForResource = 10
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        return URLSession(configuration: configuration)
    }()

    /// The POST through Foundation's URLSession (the system's libcurl on Linux, its own stack on macOS: no TLS
    /// library compiled into ibtrader), asynchronous, so a slow endpoint holds no trading thread; 10 s at most.
    static func http(_ post: Post) -> Delivery {
        {
            var request = URLRequest(url: post.url, timeoutInterval: 10)
            request.httpMethod = "POST"
            for (name, value) in post.headers { request.setValue(value, forHTTPHeaderField: name) }
            request.httpBody = post.body
            let response: URLResponse
            do { (_, response) = try await session.data(for: request) } catch {
                // Foundation's error carries the whole URL, with the token in a Telegram path or a webhook's secret
                // path and credentials: the log gets what went wrong, not where (ProgramSecretsTests).
                throw AlertDeliveryError(status: nil, reason: redacted(error.localizedDescription, post.url))
            }
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            guard (200..<300).contains(status) else { throw AlertDeliveryError(status: status) }
        }
    }

    /// `text` without `url`, its path, query, user or password (a channel's URL holds its secrets).
    static func redacted(_ text: String, _ url: URL) -> String {
        var text = text
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        let parts = [
            url.absoluteString, components?.percentEncodedQuery, components?.query, components?.percentEncodedPath,
            components?.path, components?.user, components?.password,
        ].compactMap { $0 }
        for part in parts where part.count > 1 { text = text.replacingOccurrences(of: part, with: "…") }
        return text
    }

    /// The line a person reads.
    static func line(_ alert: OperatorAlert, bot: String) -> String {
        let mark = switch alert.severity {
        case .critical: "ALERT"
        case .warning: "warning"
        case .info: alert.resolves ? "resolved" : "info"
        }
        return "[\(bot)] \(mark): \(alert.text)"
    }

    static func json(_ url: URL, _ body: [String: any Sendable]) throws -> Post {
        Post(
            url: url, headers: [("Content-Type", "application/json")],
            body: try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys]))
    }

    /// A JSON webhook: `json` (every field: bot, kind, severity, text, time, resolves, and html when the alert has a
    /// document, i.e. the daily report), `slack` (`{"text"}`) or
    /// `discord` (`{"content"}`).
    public static func webhook(_ url: URL, format: String) -> AlertChannel {
        AlertChannel(name: "webhook", posts: { alert, bot in
            switch format {
            case "slack": return [try json(url, ["text": line(alert, bot: bot)])]
            case "discord": return [try json(url, ["content": line(alert, bot: bot)])]
            default:
                var body: [String: any Sendable] = [
                    "bot": bot, "kind": alert.kind, "severity": alert.severity.rawValue, "text": alert.text,
                    "time": alert.time, "resolves": alert.resolves,
                ]
                if let html = alert.html { body["html"] = html }
                return [try json(url, body)]
            }
        })
    }

    /// Telegram's Bot API `sendMessage` to each allowed chat (`api` is `https://api.telegram.org` but for tests).
    public static func telegram(api: URL, token: String, chats: [String]) -> AlertChannel {
        AlertChannel(name: "telegram", posts: { alert, bot in
            let url = api.appendingPathComponent("bot\(token)").appendingPathComponent("sendMessage")
            return try chats.map { try json(url, ["chat_id": $0, "text": line(alert, bot: bot), "disable_web_page_preview": true]) }
        })
    }

    /// An SMS gateway taking Twilio's form (`To`, `From`, `Body`, basic authentication), one request per number.
    public static func sms(url: URL, user: String, password: String, from: String, to: [String]) -> AlertChannel {
        AlertChannel(name: "sms", posts: { alert, bot in
            let credentials = Data("\(user):\(password)".utf8).base64EncodedString()
            return to.map { number in
                let body = ["To": number, "From": from, "Body": String(line(alert, bot: bot).prefix(320))]
                    .sorted { $0.key < $1.key }
                    .map { "\($0.key)=\(formEncoded($0.value))" }.joined(separator: "&")
                return Post(
                    url: url,
                    headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Authorization", "Basic \(credentials)")],
                    body: Data(body.utf8))
            }
        })
    }

    static func formEncoded(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return (text.addingPercentEncoding(withAllowedCharacters: allowed) ?? "").replacingOccurrences(of: "%20", with: "+")
    }
}
