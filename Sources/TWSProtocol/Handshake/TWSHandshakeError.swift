/// Why a handshake failed (PROTOCOL.md §2.2).
public enum TWSHandshakeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The server chose a version outside the range the client advertised (or above 200, the last text version).
    case serverVersionOutOfRange(serverVersion: Int, minimum: Int, maximum: Int)
    /// The server's reply is not `version|connectionTime|`.
    case malformedServerReply(String)
    /// The client's hello is not `API\0` + length + `v<min>..<max>[ options]`.
    case malformedHello(String)
    /// The client's range has no version this server speaks; the reply was sent and the socket must close.
    case noCommonVersion(clientRange: ClosedRange<Int>, serverVersion: Int)
    /// A call that does not fit the current state (e.g. a second hello).
    case unexpectedState(String)

    public var description: String {
        switch self {
        case .serverVersionOutOfRange(let version, let minimum, let maximum):
            if version < minimum {
                return "TWS/IB Gateway too old: server version \(version), need at least \(minimum) "
                    + "(\(Self.release(forServerVersion: minimum)) or newer)"
            }
            return "server version \(version) is above the highest supported version \(maximum)"
        case .malformedServerReply(let text):
            return "malformed server version reply: \(text)"
        case .malformedHello(let text):
            return "malformed client hello: \(text)"
        case .noCommonVersion(let range, let version):
            return "client range v\(range.lowerBound)..\(range.upperBound) has no version this server speaks "
                + "(offered \(version))"
        case .unexpectedState(let text):
            return "unexpected handshake step: \(text)"
        }
    }

    /// The first TWS/IB Gateway release whose API serves `serverVersion` (PROTOCOL.md §1.1–1.2).
    /// - Parameter serverVersion: a server version.
    /// - Returns: a human-readable release name.
    public static func release(forServerVersion serverVersion: Int) -> String {
        switch serverVersion {
        case ...157: return "TWS/IBG 9.81"
        case ...176: return "TWS/IBG 10.19"
        case ...187: return "TWS/IBG 10.30"
        default: return "TWS/IBG 10.37"
        }
    }
}
