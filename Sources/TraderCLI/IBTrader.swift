import ArgumentParser
import TraderConfig

/// The `ibtrader` command line as a library: the program `ibtrader` is `IBTraderCommand.main()`, and a user's own
/// package can build the same program with its own strategies registered.
///
/// ```swift
/// // Sources/my-trader/main.swift
/// import TraderCLI
/// await IBTraderCommand.main(strategies: [MyStrategy.entry])
/// ```
public enum IBTraderCommand {
    /// Runs the command line with the built-in strategies and `strategies` (a name already taken replaces the
    /// built-in one).
    public static func main(strategies: [StrategyEntry] = [], arguments: [String]? = nil) async {
        let catalog = StrategyCatalog.builtIn.adding(strategies)
        await StrategyCatalogContext.$current.withValue(catalog) {
            await IBTrader.main(arguments)
        }
    }
}

/// The `ibtrader` command: the only composition root of the package.
struct IBTrader: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ibtrader",
        abstract: "A native Swift algorithmic trading system for Interactive Brokers.",
        subcommands: [
            BacktestCommand.self, OptimizeCommand.self, WalkforwardCommand.self, AnalyzeCommand.self, IndicatorsCommand.self,
            GatewayCommand.self,
            ConnectCommand.self, ContractCommand.self, QuoteCommand.self, HistoryCommand.self, DataCommand.self, JournalCommand.self,
            RunCommand.self,
            OrderCommand.self, ModifyCommand.self, OrdersCommand.self, CancelCommand.self, PositionsCommand.self,
            AccountCommand.self, RiskCommand.self, ConfigCommand.self,
        ]
    )
}
