import ArgumentParser
import TraderConfig
import TraderKit

/// The `ibtrader` command line as a library: the program `ibtrader` is `IBTraderCommand.main()`, and a user's own
/// package can build the same program with its own strategies registered.
///
/// ```swift
/// // Sources/my-trader/main.swift (docs/custom-strategies.md)
/// import TraderCLI
/// await IBTraderCommand.main(strategies: [Breakout.self])
/// ```
public enum IBTraderCommand {
    /// Runs the command line with the built-in strategies and `strategies` (a name already taken replaces the
    /// built-in one), then exits.
    public static func main(strategies: [any ConfigurableStrategy.Type] = [], arguments: [String]? = nil) async {
        await StrategyCatalogContext.$current.withValue(catalog(strategies)) {
            await IBTrader.main(arguments)
        }
    }

    /// Parses and runs one command in this process without exiting (for tests): errors are thrown, not printed.
    public static func run(_ arguments: [String], strategies: [any ConfigurableStrategy.Type] = []) async throws {
        try await StrategyCatalogContext.$current.withValue(catalog(strategies)) {
            var command = try IBTrader.parseAsRoot(arguments)
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        }
    }

    /// The built-in strategies and `strategies`.
    static func catalog(_ strategies: [any ConfigurableStrategy.Type]) -> StrategyCatalog {
        StrategyCatalog.builtIn.adding(strategies.map { entry(of: $0) })
    }

    private static func entry<S: ConfigurableStrategy>(of type: S.Type) -> StrategyEntry { S.entry }
}

/// The `ibtrader` command: the only composition root of the package.
struct IBTrader: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ibtrader",
        abstract: "A native Swift algorithmic trading system for Interactive Brokers.",
        version: ProductVersion.number,
        subcommands: [
            BacktestCommand.self, OptimizeCommand.self, WalkforwardCommand.self, AnalyzeCommand.self, IndicatorsCommand.self,
            GatewayCommand.self,
            ConnectCommand.self, ContractCommand.self, QuoteCommand.self, HistoryCommand.self, DataCommand.self, JournalCommand.self,
            RunCommand.self,
            SandboxCommand.self,
            OrderCommand.self, ModifyCommand.self, OrdersCommand.self, CancelCommand.self, PositionsCommand.self,
            AccountCommand.self, RiskCommand.self, ConfigCommand.self, ReplayCommand.self, CtlCommand.self, ReportCommand.self,
        ]
    )
}
