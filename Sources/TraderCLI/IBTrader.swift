import ArgumentParser

/// The `ibtrader` command: the only composition root of the package.
@main
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
            AccountCommand.self, RiskCommand.self, ReplayCommand.self,
        ]
    )
}
