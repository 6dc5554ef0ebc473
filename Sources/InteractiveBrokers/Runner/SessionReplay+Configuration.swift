import LiveSession
import TradingEngine
import TradingModel

extension SessionReplay {
    /// The settings to replay a logged session with another configuration: the runner configuration's, with what
    /// only the logged run could know (whether it kept a journal, its process) taken from the log.
    public static func settings(
        _ configuration: LiveRunnerConfiguration, strategyName: String, logged: SessionSettings
    ) -> SessionSettings {
        var settings = configuration.session
        settings.strategyName = strategyName
        settings.processID = logged.processID
        settings.journaled = logged.journaled
        return settings
    }

    /// The replayer of a logged session with another configuration and any strategy (`ibtrader replay --config`):
    /// the configuration's execution style works the strategy's entries, as in a live run.
    public static func replayer<S: Strategy>(
        strategy: S, configuration: LiveRunnerConfiguration, logged: SessionSettings, startedAt: Timestamp
    ) -> SessionReplayer {
        let settings = settings(
            configuration, strategyName: RunKey.strategyName(String(describing: S.self)), logged: logged)
        guard let style = configuration.execution else {
            return SessionReplayer(strategy: strategy, settings: settings, startedAt: startedAt)
        }
        return SessionReplayer(
            strategy: ExecutionStyled(strategy, style: style), settings: settings, startedAt: startedAt)
    }
}
