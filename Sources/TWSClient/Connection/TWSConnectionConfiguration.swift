import TWSProtocol

/// Where and how to connect to TWS / IB Gateway.
///
/// ```swift
/// var configuration = TWSConnectionConfiguration(host: "127.0.0.1", port: 7497, clientID: 7)
/// configuration.readyTimeout = .seconds(5)
/// ```
public struct TWSConnectionConfiguration: Sendable, Equatable {
    /// Host name or address of TWS / IB Gateway.
    public var host: String
    /// The API port: TWS live 7496, TWS paper 7497, IB Gateway live 4001, IB Gateway paper 4002.
    public var port: Int
    /// The client id; unique per connection (326 otherwise).
    public var clientID: Int
    /// The advertised server versions; 176...226 by default (text frames up to 200, binary message ids with text
    /// or protobuf bodies from 201: `TWSProtobufGates`). An upper bound of 200 keeps the connection on the text
    /// protocol.
    public var versions: ClosedRange<Int> =
        TWSProtocolConstants.minimumServerVersion...TWSProtocolConstants.defaultMaximumServerVersion
    /// Connect options sent after the version range (e.g. `+PACEAPI`); `nil` for none.
    public var connectOptions: String?
    /// How long the handshake, nextValidId and managedAccounts may take together.
    public var readyTimeout: Duration = .seconds(10)
    /// How long a one-shot request (contract details, current time, open orders, …) may wait for its answer;
    /// `nil` for no limit. Paced historical requests have no timeout (the planner may hold them for minutes).
    public var requestTimeout: Duration? = .seconds(60)
    /// The user's reclassifications of errMsg codes (`connection.errorCodes`), before the built-in table.
    public var errorOverrides: [Int: TWSErrorOverride] = [:]
    /// The outbound message rate (45/s by default, never 50 or more in any second).
    public var rateLimit: OutboundRateLimit = .default
    /// The historical-data pacing limits.
    public var historicalPacing: HistoricalPacingLimits = HistoricalPacingLimits()
    /// The real-time bars pacing limits (60 new requests per 10 minutes).
    public var realTimeBarPacing: HistoricalPacingLimits = .realTimeBars
    /// How long connecting goes on retrying (with a fresh socket, backing off from 25 to 400 ms) when TWS answers
    /// 326, client id in use, before the session is ready. TWS frees a client id only once it has read the previous
    /// session's close, which can trail that session's end: the previous command of a script, a bot restarted
    /// right after a crash. A second session that really holds the id is still refused once this has passed.
    /// Zero refuses at the first 326.
    public var clientIDInUseRetry: Duration = .seconds(2)

    /// Creates a configuration with the defaults above.
    /// - Parameters:
    ///   - host: host name or address, `127.0.0.1` by default.
    ///   - port: the API port, 7497 (TWS paper) by default.
    ///   - clientID: the client id, 0 by default.
    public init(host: String = "127.0.0.1", port: Int = 7497, clientID: Int = 0) {
        self.host = host
        self.port = port
        self.clientID = clientID
    }
}
