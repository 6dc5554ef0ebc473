// swift-tools-version:6.1
import PackageDescription

// A package of your own strategies on top of IBTrader: its `my-trader` program is `ibtrader` with them registered
// (every command; `--strategy breakout`). docs/custom-strategies.md walks through it. Outside this repository,
// depend on IBTrader by URL instead: .package(url: "https://…/IBTrader.git", from: "…").
let package = Package(
    name: "MyTrader",
    platforms: [.macOS(.v15)],
    products: [.executable(name: "my-trader", targets: ["my-trader"])],
    dependencies: [.package(name: "IBTrader", path: "../..")],
    targets: [
        .target(
            name: "MyStrategies",
            dependencies: [
                .product(name: "TraderConfig", package: "IBTrader"),
                .product(name: "TradingEngine", package: "IBTrader"),
                .product(name: "TradingModel", package: "IBTrader"),
            ]
        ),
        .executableTarget(
            name: "my-trader",
            dependencies: ["MyStrategies", .product(name: "TraderCLI", package: "IBTrader")]
        ),
        .testTarget(
            name: "MyStrategiesTests",
            dependencies: [
                "MyStrategies", .product(name: "TraderCLI", package: "IBTrader"),
                .product(name: "TraderConfig", package: "IBTrader"),
                .product(name: "TradingEngine", package: "IBTrader"),
                .product(name: "TradingModel", package: "IBTrader"),
                .product(name: "Storage", package: "IBTrader"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
