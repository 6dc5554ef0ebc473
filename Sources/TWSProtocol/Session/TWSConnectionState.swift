/// The state of a connection to TWS, as published on `TWSConnection.states`.
public enum TWSConnectionState: Sendable, Equatable, Codable {
    /// The socket is opening or the handshake is under way.
    case connecting
    /// The handshake is done and nextValidId and managedAccounts have arrived.
    case connected(TWSSessionInfo)
    /// TWS lost its connection to IB (1100). The socket is still open; requests wait.
    case lost
    /// TWS reconnected to IB (1101 `dataLost: true`, 1102 `false`). When data was lost, market data subscriptions
    /// must be made again.
    case restored(dataLost: Bool)
    /// The socket is closed: by us, by TWS, or because of an error (the reason, when there is one).
    case disconnected(reason: String?)
}

/// What the handshake established.
public struct TWSSessionInfo: Sendable, Equatable, Codable {
    /// The negotiated server version (176–226).
    public var serverVersion: Int
    /// The connection time text from the handshake reply (opaque, e.g. `20250115 09:30:00 EST`).
    public var connectionTime: String
    /// The accounts this login manages (managedAccounts).
    public var accounts: [String]
    /// The first order id this client may use (nextValidId).
    public var nextValidOrderID: Int

    /// How frames look at the negotiated version: `text`, `binary ids, text and protobuf` or `binary ids, protobuf`.
    public var framing: String { TWSProtobufGates.framingDescription(serverVersion: serverVersion) }

    /// Creates session information.
    public init(serverVersion: Int, connectionTime: String, accounts: [String], nextValidOrderID: Int) {
        self.serverVersion = serverVersion
        self.connectionTime = connectionTime
        self.accounts = accounts
        self.nextValidOrderID = nextValidOrderID
    }
}
