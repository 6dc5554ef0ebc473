import InteractiveBrokers
import TWSClient
import TradingModel

extension RunSettings {
    /// The runner's configuration these settings give (without the journal, the duration or the crash hook, which
    /// `run` adds): `ibtrader run` trades with it, `ibtrader replay --config` replays with it.
    var runnerConfiguration: LiveRunnerConfiguration {
        var connection = TWSConnectionConfiguration(host: host, port: port, clientID: clientID)
        connection.readyTimeout = .seconds(20)
        var configuration = LiveRunnerConfiguration(
            connection: connection, symbols: symbols.map { Symbol($0) }, engine: engineConfig)
        configuration.account = account
        configuration.warmupBarSize = barSize
        configuration.warmupDuration = warmup
        configuration.marketDataType = marketDataType == "realtime" ? nil : twsMarketDataType
        configuration.outsideRegularTradingHours = outsideRth
        configuration.cancelOnExit = cancelOnExit
        configuration.orderEfficiency = orderEfficiency
        configuration.summaryInterval = .milliseconds(Int64(summaryInterval * 1000))
        configuration.orderTimeout = orderTimeout.map { .milliseconds(Int64($0 * 1000)) }
        configuration.resilience = resilience
        configuration.quotes = quotes
        // orderRefs: the runner allocates the run's namespace (IBT:R<run>: from the journal) at start.
        configuration.resendPolicy = resendPolicy
        configuration.unknownOrders = unknownOrders == "cancel" ? .cancel : .adopt
        return configuration
    }
}
