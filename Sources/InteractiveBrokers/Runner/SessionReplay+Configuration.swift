import LiveSession

extension SessionReplay {
    /// The settings to replay a logged session with another configuration: the runner configuration's, with what
    /// only the logged run could know (whether it kept a journal, its process) taken from the log.
    public static func settings(
        _ configuration: LiveRunnerConfiguration, strategy: SessionStrategy, logged: SessionSettings
    ) -> SessionSettings {
        var settings = SessionSettings(
            configuration, strategyName: strategyName(strategy.spec), processID: logged.processID)
        settings.journaled = logged.journaled
        return settings
    }
}
