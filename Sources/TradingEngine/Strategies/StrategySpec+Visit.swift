/// Work done with the strategy a spec names, whatever its type: one generic method, because a Swift closure cannot
/// be generic. `StrategySpec.visit(_:style:)` is the one place a built-in spec becomes its strategy, so the backtest,
/// the sweeps, the live run, the replay and the drift report cannot disagree on which strategy a spec means.
///
/// ```swift
/// struct Backtest: StrategyVisitor {
///     let data: MarketData
///     func visit<S: Strategy>(_ strategy: S) -> BacktestResult { BacktestRunner.run(strategy: strategy, data: data) }
/// }
/// let result = spec.visit(Backtest(data: data))
/// ```
public protocol StrategyVisitor {
    /// What the work gives.
    associatedtype Output
    /// What the work throws (`Never`: nothing).
    associatedtype Failure: Error = Never
    /// The work, with the spec's strategy.
    func visit<S: Strategy>(_ strategy: S) throws(Failure) -> Output
}

extension StrategySpec {
    /// Hands `visitor` the strategy this spec names, its entries worked by `style` when one is given, reading the
    /// indicators it can from `shared` (a sweep's; the results are the same without).
    ///
    /// Inlinable so that a caller with a concrete visitor (the backtest's) gets code specialized for each strategy
    /// type: through a protocol witness the visitor's generic method, and so the whole backtest loop, would run
    /// unspecialized, looking up generic metadata on every bar (a fifth of a sweep's time, measured with perf).
    @inlinable
    public func visit<V: StrategyVisitor>(
        _ visitor: V, style: ExecutionStyle? = nil, shared: SharedIndicators? = nil
    ) throws(V.Failure) -> V.Output {
        let styled = Styled(inner: visitor, style: style)
        return switch self {
        case .movingAverageCrossover(let config): try styled.visit(MovingAverageCrossover(config: config, shared: shared))
        case .rsiMeanReversion(let config): try styled.visit(RSIMeanReversion(config: config, shared: shared))
        case .bollingerMeanReversion(let config): try styled.visit(BollingerMeanReversion(config: config, shared: shared))
        case .momentumRotation(let config): try styled.visit(MomentumRotation(config: config))
        case .performanceAllocator(let config): try styled.visit(PerformanceAllocator(config: config))
        }
    }

    /// The strategy wrapped in the style, when there is one.
    @usableFromInline
    struct Styled<Inner: StrategyVisitor>: StrategyVisitor {
        @usableFromInline let inner: Inner
        @usableFromInline let style: ExecutionStyle?

        @inlinable
        init(inner: Inner, style: ExecutionStyle?) {
            self.inner = inner
            self.style = style
        }

        @inlinable
        func visit<S: Strategy>(_ strategy: S) throws(Inner.Failure) -> Inner.Output {
            guard let style else { return try inner.visit(strategy) }
            return try inner.visit(ExecutionStyled(strategy, style: style))
        }
    }
}
