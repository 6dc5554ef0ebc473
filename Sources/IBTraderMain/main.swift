import TraderCLI

await IBTraderCommand.main()
