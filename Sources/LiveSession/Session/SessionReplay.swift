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

    /// The replayer of a session with a built-in strategy.
    /// - Parameters:
    ///   - settings: the configuration to replay with.
    ///   - strategy: the strategy to replay with.
    ///   - startedAt: when the session started.
    public static func replayer(
        settings: SessionSettings, strategy: SessionStrategy, startedAt: Timestamp
    ) -> SessionReplayer {
        strategy.spec.visit(Replayer(settings: settings, startedAt: startedAt), style: strategy.style)
    }

    /// The replayer of the strategy a spec names.
    private struct Replayer: StrategyVisitor {
        let settings: SessionSettings
        let startedAt: Timestamp

        func visit<S: Strategy>(_ strategy: S) -> SessionReplayer {
            SessionReplayer(strategy: strategy, settings: settings, startedAt: startedAt)
        }
    }
}

/// Re-runs a logged session one step at a time, so a long log (a week of the sandbox is about a million steps) is
/// read a page at a time and never held whole, decoded, in memory.
public struct SessionReplayer {
    private let advance: (JournalSessionStep) throws -> SessionReplay.Step

    /// A replayer of a session with a strategy value (a user's own).
    public init<S: Strategy>(strategy: S, settings: SessionSettings, startedAt: Timestamp) {
        var core = LiveSessionCore(strategy: strategy, settings: settings, now: startedAt)
        advance = { step in
            let input = try SessionLog.input(of: step)
            let recorded = try SessionLog.actions(of: step)
            let replayed = core.handle(input, at: step.time).filter(\.isRecorded)
            return SessionReplay.Step(
                sequence: step.sequence, time: step.time, input: input, recorded: recorded, replayed: replayed)
        }
    }

    /// Hands the core the next logged input; its actions beside the logged ones.
    /// - Throws: `SessionLogError` when the step cannot be read.
    public func replay(_ step: JournalSessionStep) throws -> SessionReplay.Step { try advance(step) }
}

extension SessionReplay {
    /// The run key's name of a built-in strategy.
    public static func strategyName(_ spec: StrategySpec) -> String { spec.visit(StrategyName()) }

    /// The run key's name of a strategy's type.
    private struct StrategyName: StrategyVisitor {
        func visit<S: Strategy>(_ strategy: S) -> String { RunKey.strategyName(String(describing: S.self)) }
    }
}
