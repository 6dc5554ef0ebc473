// swift-tools-version:6.1
import PackageDescription

// The benchmark harness: a separate package so the product's dependency graph stays lean and CI never builds it.
// Run: swift run -c release --package-path Benchmarks ibtrader-bench [codec|backtest|backtest-vs-peers|research|sweep|latency|journal|all]
//      swift run -c release --package-path Benchmarks ibtrader-bench soak --minutes 60   (the soak with faults)
let package = Package(
    name: "IBTraderBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "IBTrader", path: ".."),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        .target(name: "CMallocCounter"),
        .executableTarget(
            name: "ibtrader-bench",
            dependencies: [
                "CMallocCounter",
                .product(name: "TWSProtocol", package: "IBTrader"),
                .product(name: "TWSClient", package: "IBTrader"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Backtest", package: "IBTrader"),
                .product(name: "TradingEngine", package: "IBTrader"),
                .product(name: "TradingModel", package: "IBTrader"),
                .product(name: "Research", package: "IBTrader"),
                .product(name: "Storage", package: "IBTrader"),
                .product(name: "JournalModel", package: "IBTrader"),
                .product(name: "LiveSession", package: "IBTrader"),
                .product(name: "InteractiveBrokers", package: "IBTrader"),
                .product(name: "GatewayCore", package: "IBTrader"),
                .product(name: "GatewaySimulator", package: "IBTrader"),
                .product(name: "FaultSoak", package: "IBTrader"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            path: "Sources/IBTraderBench",
            swiftSettings: [.unsafeFlags(["-Ounchecked"], .when(configuration: .release))]
        ),
    ],
    swiftLanguageModes: [.v6]
)
