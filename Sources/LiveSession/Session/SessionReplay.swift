import Foundation
import JournalModel
import TradingEngine
import TradingModel

/// Re-runs a logged session offline: the core, rebuilt from the logged (or another) configuration, is handed every
/// logged input at its logged time, and its actions are compared with the logged ones.
///
/// With the logged configuration the actions are the same, step for step (the core is pure); the first step where
/// they differ is reported. With a changed configuration (other parameters, other risk limits) the replay answers
/// "what would the bot have done": its order actions, against the logged ones. It holds as long as the core asks for
/// the same data in the same order; one that asks for other data (another universe, another warm-up) sees the
/// logged answers only as far as the requests match.
public enum SessionReplay {
    /// One input, with the actions logged and the actions of the replay.
    public struct Step: Sendable {
        public var sequence: Int64
        public var time: Timestamp
        public var input: SessionInput
        public var recorded: [SessionAction]
        public var replayed: [SessionAction]

        /// Whether the replay did what the log says.
        public var agrees: Bool { recorded == replayed }
    }

    /// Replays a session.
    /// - Parameters:
    ///   - steps: the logged inputs (`OrderJournal.sessionSteps`).
    ///   - settings: the configuration to replay with.
    ///   - strategy: the strategy to replay with.
    ///   - startedAt: when the session started.
    /// - Returns: every step, logged and replayed.
    /// - Throws: a `DecodingError` when the log cannot be read.
    public static func replay(
        _ steps: [JournalSessionStep], settings: SessionSettings, strategy: SessionStrategy, startedAt: Timestamp
    ) throws -> [Step] {
        let style = strategy.style
        switch strategy.spec {
        case .movingAverageCrossover(let c):
            return try replay(steps, MovingAverageCrossover(config: c), style, settings, startedAt)
        case .rsiMeanReversion(let c):
            return try replay(steps, RSIMeanReversion(config: c), style, settings, startedAt)
        case .bollingerMeanReversion(let c):
            return try replay(steps, BollingerMeanReversion(config: c), style, settings, startedAt)
        case .momentumRotation(let c):
            return try replay(steps, MomentumRotation(config: c), style, settings, startedAt)
        case .performanceAllocator(let c):
            return try replay(steps, PerformanceAllocator(config: c), style, settings, startedAt)
        }
    }

    private static func replay<S: Strategy>(
        _ steps: [JournalSessionStep], _ strategy: S, _ style: ExecutionStyle?, _ settings: SessionSettings,
        _ startedAt: Timestamp
    ) throws -> [Step] {
        guard let style else { return try replay(steps, strategy: strategy, settings: settings, startedAt: startedAt) }
        return try replay(
            steps, strategy: ExecutionStyled(strategy, style: style), settings: settings, startedAt: startedAt)
    }

    /// Replays a session with a strategy value (a user's own).
    public static func replay<S: Strategy>(
        _ steps: [JournalSessionStep], strategy: S, settings: SessionSettings, startedAt: Timestamp
    ) throws -> [Step] {
        var core = LiveSessionCore(strategy: strategy, settings: settings, now: startedAt)
        var result: [Step] = []
        result.reserveCapacity(steps.count)
        for step in steps {
            let input = try SessionLog.input(step.input)
            let recorded = try SessionLog.actions(step.actions)
            let replayed = core.handle(input, at: step.time).filter(\.isRecorded)
            result.append(
                Step(sequence: step.sequence, time: step.time, input: input, recorded: recorded, replayed: replayed))
        }
        return result
    }
}

extension SessionReplay {
    /// The run key's name of a built-in strategy.
    public static func strategyName(_ spec: StrategySpec) -> String {
        let type: Any.Type =
            switch spec {
            case .movingAverageCrossover: MovingAverageCrossover.self
            case .rsiMeanReversion: RSIMeanReversion.self
            case .bollingerMeanReversion: BollingerMeanReversion.self
            case .momentumRotation: MomentumRotation.self
            case .performanceAllocator: PerformanceAllocator<PerSymbolStrategy>.self
            }
        return RunKey.strategyName(String(describing: type))
    }
}
