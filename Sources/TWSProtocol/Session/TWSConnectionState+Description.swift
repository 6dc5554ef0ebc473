/// The connection's states as the log says them.
extension TWSConnectionState: CustomStringConvertible {
    /// `connecting`, `connected (server version 200, …)`, `disconnected: connection reset by peer`.
    public var description: String {
        switch self {
        case .connecting: "connecting"
        case .connected(let info): "connected (\(info))"
        case .lost: "TWS lost its connection to IB (1100)"
        case .restored(let dataLost): "TWS's connection to IB restored (\(dataLost ? "data lost" : "data kept"))"
        case .disconnected(let reason?): "disconnected: \(reason)"
        case .disconnected(nil): "disconnected"
        }
    }
}

extension TWSSessionInfo: CustomStringConvertible {
    /// `server version 226 (binary ids, protobuf), connected 20240301 14:30:00 UTC, accounts DU1234567, next order
    /// id 1`.
    public var description: String {
        "server version \(serverVersion) (\(framing)), connected \(connectionTime), accounts \(accounts.joined(separator: ", ")), "
            + "next order id \(nextValidOrderID)"
    }
}
