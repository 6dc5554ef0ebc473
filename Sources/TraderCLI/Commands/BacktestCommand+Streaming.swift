import Analytics
import Backtest
import Foundation
import TradingEngine
import TradingModel

extension BacktestCommand {
    /// Whether a run reads its bars while it runs: one CSV file (the bars are never all held; a 1M-bar file would
    /// be 48 MB of bars). Several files, stores and synthetic data are loaded into `MarketData` first.
    static func streams(_ resolved: DataSourceResolver.Resolved) -> Bool {
        resolved.store == nil && resolved.synthetic == nil && resolved.files.count == 1
    }

    /// Runs one CSV file streamed through the engine; the same results, `isDaily` and periods per year as loading
    /// it with `BacktestDataLoader` first.
    func runStreamed(
        _ resolved: DataSourceResolver.Resolved, settings: BacktestSettings, spec: StrategySpec, source: String
    ) throws -> (BacktestResult, Double, Bool, Int) {
        let file = resolved.files[0]
        let start = try settings.start.map { try Self.bound($0, name: "start") }
        let end = try settings.end.map { try Self.bound($0, name: "end") + Timestamp.nanosecondsPerDay - 1 }
        let risk = Self.defaultRisk(settings: settings, spec: spec, hasSectors: !resolved.sectors.isEmpty)
        var backtestConfig = try settings.backtestConfig(risk: risk, source: source)
        // Bars before --start warm the strategy up; trading and the equity curve start at --start.
        backtestConfig.tradingStart = start.map(Timestamp.init(nanoseconds:))
        let streamed = StreamedBarFile(
            symbol: file.symbol, path: file.path, policy: settings.badRows == "skip" ? .skip : .fail,
            start: nil, end: end.map(Timestamp.init(nanoseconds:)), sector: resolved.sectors[file.symbol])

        let progress = ProgressBar(quiet: quiet)
        let run: StreamedBacktest
        do {
            run = try BacktestRunner.run(spec: spec, file: streamed, config: backtestConfig, progress: progress.hook())
        } catch {
            progress.finish()
            throw CLIError("\(error)")
        }
        progress.finish()
        guard run.result.barsProcessed > 0, !run.result.equityCurve.isEmpty else {
            throw CLIError("no bars to backtest between --start and --end")
        }
        if run.loaded.skippedRows > 0 { printError("note: --bad-rows skip skipped \(run.loaded.skippedRows) malformed rows") }
        let isDaily = run.spacing.isDaily
        let periodsPerYear = isDaily ? 252 : 252 * max(1, run.spacing.medianBarsPerDay ?? 1)
        // The engine's time without the CSV parsing interleaved with it, as for a loaded run.
        return (run.result, run.engineSeconds, isDaily, periodsPerYear)
    }

    private static func bound(_ text: String, name: String) throws -> Int64 {
        guard let seconds = CivilTime.parse(text) else { throw CLIError("--\(name): '\(text)' is not a date (YYYY-MM-DD)") }
        return seconds * Timestamp.nanosecondsPerSecond
    }
}
