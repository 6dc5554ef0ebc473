/// docs/configuration.md, generated from the schema (a test fails when the file is stale; regenerate it with
/// `swift run ibtrader config docs > docs/configuration.md`).
public enum ConfigDocumentation {
    /// The reference.
    public static func markdown(catalog: StrategyCatalog) -> String {
        let schema = TraderConfiguration.schema(catalog: catalog)
        let keys = schema.describe(TraderConfiguration(catalog: catalog), path: "")
        var text = intro
        for section in keys where section.isSection && !section.path.contains(".") {
            text += "\n## `\(section.path)`\n\n\(section.summary)\n\n"
            let children = keys.filter { $0.path.hasPrefix(section.path + ".") && !$0.isSection }
            text += table(children)
            if section.path == "risk" {
                text += "\nThe risk profile (`RiskProfile`, the same in backtests and live runs): unless set, every "
                    + "strategy's `maxGrossExposureRatio` is 1 (no leverage) and, with `allowLeverage`, "
                    + "`initialMarginPercent` is 50 (Reg T); momentum's `maxActivePositions` follows "
                    + "`strategy.parameters.holdings`. No sector cap is implied; a "
                    + "symbol without a sector is its own sector. `config show` prints the added limits with their reason; "
                    + "a backtest's summary, summary.json and report list every limit in effect.\n"
            }
            if section.path == "strategy" {
                text += "\n`strategy.parameters` holds the chosen strategy's own keys (below). Only the keys written change "
                    + "its defaults. With `allocator: performance`, `strategy.name` is the per-symbol strategy every "
                    + "symbol runs in the shadow (its `sizing` does not apply: the allocator sizes each position from "
                    + "the symbol's capital); docs/backtesting.md gives the allocator's exact rules.\n"
            }
        }
        text += "\n## Renamed flags\n\nWhen every flag took the name of its key, these changed; the old spelling is an error "
            + "that gives the new one.\n\n| Old | New |\n|---|---|\n"
        for rename in ConfigRenames.flags { text += "| `\(rename.old)` | \(rename.new) |\n" }
        text += "\n## Strategies\n"
        for entry in catalog.entries {
            text += "\n### `\(entry.name)`\n\n\(entry.summary)\n\n"
            text += table(entry.describe(path: "strategy.parameters").filter { !$0.isSection })
        }
        return text
    }

    private static func table(_ keys: [ConfigKeyInfo]) -> String {
        var text = "| Key | Default | Allowed | Flag | What it does |\n|---|---|---|---|---|\n"
        for key in keys {
            let cells = [
                "`\(key.path)`", "`\(key.defaultText)`", key.allowed, key.flag.map { "`\($0)`" } ?? "", key.summary,
            ]
            text += "| " + cells.map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ") + " |\n"
        }
        return text
    }

    private static let intro = """
        <!-- Generated from the schema (Sources/TraderConfig) by `ibtrader config docs`; do not edit by hand. -->
        # Configuration

        Every command reads one configuration schema: `run`, `backtest`, `optimize`, `walkforward` and the manual
        tools (`order`, `modify`, `cancel`, `orders`, `positions`, `account`). A command ignores the sections it does
        not use, so one file can describe a strategy for its backtest and for its live run.

        ```sh
        ibtrader config init --strategy momentum > bot.yaml   # a commented template with every default
        ibtrader config check bot.yaml                        # validate, and print what it sets (--all: every key)
        ibtrader config show --config bot.yaml --port 4002    # every value with its source
        ```

        ## Where values come from

        In rising precedence: the defaults below, the `--config` files (YAML or JSON; `--config` may be repeated and a
        later file overrides an earlier one), a `.env` file next to the first config file, the process environment,
        then the flags. `ibtrader config show` prints every effective value with its source (`default`, `file`,
        `env`, `flag`).

        - **Environment:** `IBTRADER_<SECTION>_<KEY>` overrides a key, with camelCase keys in snake case or run
          together: `IBTRADER_CONNECTION_CLIENT_ID` or `IBTRADER_CONNECTION_CLIENTID` for `connection.clientId`;
          nested keys continue the same way (`IBTRADER_STRATEGY_PARAMETERS_LOOKBACK`). Lists are comma-separated
          (`IBTRADER_UNIVERSE_SYMBOLS=AAPL,MSFT`). Any other `IBTRADER_` variable is an error before anything
          connects, naming the nearest key (`IBTRADER_CONECTION_PORT`: did you mean `IBTRADER_CONNECTION_PORT`?);
          list variables of your own in `IBTRADER_IGNORE`, separated by commas, with `*` for a prefix
          (`IBTRADER_IGNORE=IBTRADER_DEPLOY_*,IBTRADER_HOST_TAG`).
        - **`.env`:** `NAME=value` lines (`export` and quotes allowed, `#` comments) for values that should not sit in
          the config, such as tokens and passwords. The process environment wins over it. `config show` and
          `config check` print a set token, password or webhook URL as `********` (`set, hidden`), and any URL's
          `user:password@` the same way.
        - **Flags:** a flag is named after its key in kebab case (`--slow-period` sets
          `strategy.parameters.slowPeriod`); `--set KEY=VALUE` sets any key (`--set risk.maxDrawdownPercent=20`).

        ## How values are written

        - **Durations:** `30s`, `5m`, `1h`, `2d`, `1h30m`, `250ms`, or a bare number of seconds; IB's own form
          (`3600 S`, `2 D`, `1 W`, `1 M` = 30 days, `1 Y`) is read too.
        - **Schedules:** `daily`, `weekly`, `monthly`, or a whole number of bars (`rebalance: 12`).
        - **Sizing:** `percentOfEquity: 10`, `fixed: 100` or `riskBased: {riskPercent: 1, atrMultiple: 2}` (a flag
          may say `--sizing fixed:100`); `riskBased` also takes `minimumATRPercent` (the ATR used is at least this %
          of the price, default 0.5) and `maxPercentOfEquity` (the most one entry may buy, default 100).
        - **Symbols** as plain strings (`volatilitySymbol: VIX`, `symbols: [AAPL, MSFT]`); money and percentages as
          numbers (`maxDrawdownPercent: 20` is 20 %).
        - **Off:** `none` switches off a key that can be off (`minimumScore: none`); `auto` leaves a choice to the
          command (`backtest.data: auto`).

        ## Checks

        Everything is checked before a command connects or loads data. An unknown key, at any depth, is an error that
        names the file, line and column and suggests the nearest key; a value out of range names the allowed range;
        the same checks apply to the environment and to flags:

        ```text
        bot.yaml:14:5: strategy.parameters.slowPeriodz: unknown key; did you mean 'slowPeriod'?
        IBTRADER_CONNECTION_PORT (environment): connection.port: must be an integer from 1 to 65535, got '70000'
        ```

        Leverage is never implied: an invested fraction above 1, a position above 100 % of equity or a gross exposure
        ratio above 1 is an error unless `risk.allowLeverage: true`. The journal cannot be switched off by accident:
        an empty path is an error, and `journal: none` also needs `run --no-journal` (never for a live account).

        """
}
