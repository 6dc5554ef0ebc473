import Foundation

/// Where the dashboard listens and the token its controls need.
public struct DashboardSettings: Sendable, Equatable {
    /// The address to bind (`127.0.0.1` unless configured; anything else needs a token for every request).
    public var bind: String
    /// The port (0: any free one, for tests).
    public var port: Int
    /// The bearer token of the controls (and of every request on a non-loopback address).
    public var token: String
    /// Where the token came from, for the start-up line (`dashboard.token`, an environment variable, a file).
    public var tokenSource: String
    /// The broker is the built-in simulator replaying data (`run --simulated`): the page keeps to the data's clock
    /// (fills, orders, bars, the log's lines) and leaves out the machine's (a round trip's time, the gateway's
    /// restarts, farm and connection times), so that one page never mixes 2011 with today (issue 83).
    public var simulatedBroker = false

    /// Creates settings.
    public init(bind: String = "127.0.0.1", port: Int, token: String, tokenSource: String) {
        self.bind = bind
        self.port = port
        self.token = token
        self.tokenSource = tokenSource
    }

    /// Whether only this machine can reach it.
    public var isLoopback: Bool { bind == "127.0.0.1" || bind == "::1" || bind == "localhost" }
}

/// The dashboard token kept in a file: read when it exists, generated (32 random bytes, hex) and written 0600 when
/// it does not. The token is never printed, only where it is.
public enum DashboardTokenFile {
    /// The token in `path`, made on first use.
    /// - Returns: the token and whether it was generated now.
    /// - Throws: a sentence naming the file when it cannot be read or written.
    public static func load(_ path: String) throws(DashboardTokenError) -> (token: String, generated: Bool) {
        if let data = FileManager.default.contents(atPath: path) {
            let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            guard text.count >= 16 else {
                throw DashboardTokenError("\(path): the dashboard token must be at least 16 characters; delete the file to get a new one")
            }
            return (text, false)
        }
        var generator = SystemRandomNumberGenerator()
        let token = (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty { try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) }
        guard FileManager.default.createFile(
            atPath: path, contents: Data((token + "\n").utf8), attributes: [.posixPermissions: 0o600])
        else { throw DashboardTokenError("\(path): cannot write the dashboard token") }
        return (token, true)
    }
}

/// A token file that cannot be used.
public struct DashboardTokenError: Error, CustomStringConvertible, Equatable {
    public var description: String
    public init(_ description: String) { self.description = description }
}
