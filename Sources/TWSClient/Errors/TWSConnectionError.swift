import TWSProtocol

/// Why a connection could not be made or was lost. Every description says what to do about it.
public enum TWSConnectionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Nothing accepted the TCP connection (client-side code 502).
    case refused(host: String, port: Int, reason: String)
    /// A step of the connection did not finish in time; `waitingFor` names it.
    case timedOut(waitingFor: String, after: Duration)
    /// The server picked a version outside the advertised range.
    case unsupportedServerVersion(serverVersion: Int, advertised: ClosedRange<Int>)
    /// TWS refused the clientId because another connection uses it (326).
    case clientIDInUse(clientID: Int)
    /// The peer sent something that is not a valid handshake.
    case handshakeFailed(String)
    /// The peer closed the socket; `during` names the phase.
    case closedByPeer(during: String)
    /// A socket-level error.
    case transport(String)

    /// The TWS / IB Gateway release that first serves a server version (PROTOCOL.md §1.1).
    public static func requiredRelease(forServerVersion version: Int) -> String {
        switch version {
        case ...176: return "10.19"
        case ...187: return "10.30"
        default: return "10.37"
        }
    }

    public var description: String {
        switch self {
        case .refused(let host, let port, let reason):
            return """
                TWS/IB Gateway is not listening at \(host):\(port) (\(reason)). Start TWS or IB Gateway, enable the \
                API (TWS: Configure → API → Settings → Enable ActiveX and Socket Clients; IB Gateway: Configure → \
                Settings → API → Settings) and check the port: TWS live 7496, TWS paper 7497, IB Gateway live 4001, \
                IB Gateway paper 4002.
                """
        case .timedOut(let waitingFor, let after):
            return "timed out after \(after) waiting for \(waitingFor)"
        case .unsupportedServerVersion(let version, let advertised):
            if version < advertised.lowerBound {
                let release = Self.requiredRelease(forServerVersion: advertised.lowerBound)
                return """
                    TWS/IB Gateway too old: server version \(version), need \(advertised.lowerBound)...\
                    \(advertised.upperBound) (TWS/IB Gateway \(release) or newer)
                    """
            }
            return """
                server version \(version) is above the advertised \(advertised.lowerBound)...\
                \(advertised.upperBound); this client speaks the text protocol only (≤ 200)
                """
        case .clientIDInUse(let clientID):
            return "client id \(clientID) is already in use (326): pick another --client-id or close the other session"
        case .handshakeFailed(let text):
            return "TWS handshake failed: \(text)"
        case .closedByPeer(let during):
            return "TWS/IB Gateway closed the connection during \(during)"
        case .transport(let text):
            return "socket error: \(text)"
        }
    }
}
