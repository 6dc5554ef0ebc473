import Simulation
import TWSProtocol
import TradingModel

/// What the simulated account and exchange look like.
public struct GatewayConfiguration: Sendable {
    /// The account codes managedAccounts reports, in its order (several for an advisor's or linked accounts on one
    /// login: then every order must name its account, as IB requires). Never empty.
    public var accounts: [String]
    /// Starting cash of each account, in its base currency.
    public var startingCash: Double
    /// The accounts' base currency (`USD` by default): their figures are in it, the other currencies' balances and
    /// positions converted at the served pairs' prices (`GatewayState.baseRates`).
    public var baseCurrency = "USD"
    /// Matching engine settings (IBKR Fixed commissions; fills capped by the displayed quote size).
    public var simulation: SimulationConfig
    /// Whether live (type 1) market data is entitled; when `false` clients get 354 or delayed data (10167).
    public var liveDataEntitled: Bool
    /// Whether a quote line's every tick is entitled live: `false` (with `liveDataEntitled`) is a login whose
    /// permission covers the 5-second bars but not all of a quote line, which TWS refuses with 10090 ("Part of
    /// requested market data is not subscribed") unless delayed data is asked for (reqMarketDataType 3).
    public var liveQuotesEntitled = true
    /// Server versions accepted.
    public var minimumVersion: Int
    /// Highest server version answered (226 by default: a client gets the highest version both speak, text up to
    /// 200 and binary ids with protobuf from 201).
    public var maximumVersion: Int
    /// The first gateway process's execId prefix (`nil`: drawn at random, as every real gateway process's execIds
    /// differ); fixed where a run must repeat exactly (the soak). A `restart-fresh` process derives the next one.
    public var executionPrefix: UInt32?
    /// The zone the login writes its times in, and its name (connection time, execution and completed times): UTC
    /// by default; a real TWS uses its host's zone, named as the host names it (`Central European Standard Time`).
    public var loginZone = TWSLoginZone.utc

    /// Creates a configuration with the defaults of `ibtrader gateway` (an empty account list means the default one).
    public init(
        accounts: [String] = ["DU1234567"], startingCash: Double = 1_000_000,
        simulation: SimulationConfig = SimulationConfig(
            commission: .ibkrFixedDefault, maxVolumeParticipation: 1.0),
        liveDataEntitled: Bool = true, minimumVersion: Int = 157,
        maximumVersion: Int = TWSProtocolConstants.highestServerVersion
    ) {
        self.accounts = accounts.isEmpty ? ["DU1234567"] : accounts
        self.startingCash = startingCash
        self.simulation = simulation
        self.liveDataEntitled = liveDataEntitled
        self.minimumVersion = minimumVersion
        self.maximumVersion = maximumVersion
        self.executionPrefix = nil
    }
}
