import GatewayCore
import TradingModel

/// How the replay clock moves.
public enum ReplayClockMode: Sendable, Equatable {
    /// Only when told (`GatewaySimulator.advance(by:)`, the `advance` fault command): the test mode.
    case manual
    /// `speed` seconds of data time per wall-clock second, in steps of `tick` wall seconds.
    case speed(Double, tick: Double = 0.1)
}

/// Everything `ibtrader gateway` and tests choose about a simulator.
public struct GatewaySimulatorConfiguration: Sendable {
    /// Address to bind (loopback by default).
    public var host: String
    /// Port to bind; 0 picks a free one (see `GatewaySimulator.listeningPort()`).
    public var port: Int
    /// The universe served.
    public var data: MarketDataSet
    /// Account and engine settings.
    public var gateway: GatewayConfiguration
    /// Replay start (default: `data.defaultStart`).
    public var start: Timestamp?
    /// How the replay clock moves.
    public var clock: ReplayClockMode
    /// Timed fault commands to run after start.
    public var faults: FaultScript?
    /// What each client may use (connections, frame size, unread replies, handshake and idle time).
    public var limits: GatewayLimits
    /// Told the state of a gateway process that `restart-fresh` replaces, at the moment it is replaced (drills
    /// and soaks that account for every execution across processes).
    public var retired: (@Sendable (GatewayState) -> Void)?

    /// Creates a configuration.
    public init(
        host: String = "127.0.0.1", port: Int = 7497, data: MarketDataSet,
        gateway: GatewayConfiguration = GatewayConfiguration(), start: Timestamp? = nil,
        clock: ReplayClockMode = .speed(1), faults: FaultScript? = nil, limits: GatewayLimits = GatewayLimits()
    ) {
        self.host = host
        self.port = port
        self.data = data
        self.gateway = gateway
        self.start = start
        self.clock = clock
        self.faults = faults
        self.limits = limits
    }
}
