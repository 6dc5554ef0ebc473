// swift-tools-version:6.1
import PackageDescription

// Layered targets (see docs/architecture.md). Pure modules at the bottom import no I/O.
let package = Package(
    name: "IBTrader",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "ibtrader", targets: ["IBTraderMain"]),
        // The command line as a library: a user's package builds `ibtrader` with its own strategies registered.
        .library(name: "TraderCLI", targets: ["TraderCLI"]),
        .library(name: "TWSProtocol", targets: ["TWSProtocol"]),
        .library(name: "TWSClient", targets: ["TWSClient"]),
        .library(name: "TradingModel", targets: ["TradingModel"]),
        .library(name: "Indicators", targets: ["Indicators"]),
        .library(name: "Analytics", targets: ["Analytics"]),
        .library(name: "Simulation", targets: ["Simulation"]),
        .library(name: "TradingEngine", targets: ["TradingEngine"]),
        .library(name: "Backtest", targets: ["Backtest"]),
        .library(name: "Research", targets: ["Research"]),
        // For the latency benchmark (Benchmarks/), which runs the bot against the simulator.
        .library(name: "Storage", targets: ["Storage"]),
        .library(name: "JournalModel", targets: ["JournalModel"]),
        .library(name: "LiveSession", targets: ["LiveSession"]),
        .library(name: "InteractiveBrokers", targets: ["InteractiveBrokers"]),
        .library(name: "GatewayCore", targets: ["GatewayCore"]),
        .library(name: "GatewaySimulator", targets: ["GatewaySimulator"]),
        .library(name: "TraderConfig", targets: ["TraderConfig"]),
        .library(name: "TraderKit", targets: ["TraderKit"]),
        // For the fuzzers (Fuzz/), built with libFuzzer outside the main build.
        .library(name: "FuzzTargets", targets: ["FuzzTargets"]),
        .library(name: "ConfigFuzzTarget", targets: ["ConfigFuzzTarget"]),
        // The bot against the simulator under a fault script (the CI's bounded soak, `ibtrader-bench soak`).
        .library(name: "FaultSoak", targets: ["FaultSoak"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // Without its default traits: swift-configuration (configuration from environment and files) and the parts
        // that need all of Foundation are not used by the dashboard, and cost a cold build minutes (docs/testing.md).
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    ],
    targets: [
        // MARK: - Pure
        .target(name: "TradingModel"),
        .target(name: "Indicators"),
        .target(name: "Analytics"),
        .target(name: "TWSProtocol", dependencies: [.product(name: "NIOCore", package: "swift-nio")]),
        // Recorded TWS API sessions as data: the transcript format and a player that acts as the gateway of one
        // (tests replay real IB Gateway sessions through the client, a command's ticket session and the bot).
        .target(name: "TWSTranscript", dependencies: ["TWSProtocol", .product(name: "NIOCore", package: "swift-nio")]),
        .target(name: "Simulation", dependencies: ["TradingModel"]),
        .target(name: "TradingEngine", dependencies: ["TradingModel", "Indicators"]),
        // The order journal's records, without the database.
        .target(name: "JournalModel", dependencies: ["TradingModel"]),
        // A deterministic event loop in simulated time (tests, `ibtrader sandbox`).
        .target(name: "VirtualTime"),
        // Parquet files of integer columns (the bar catalogue's format), written and read without a C library.
        .target(name: "Parquet"),
        // The live session's decisions (LiveSessionCore) and the pure parts of the IB adapter: mapping, the order
        // desk and book, reconciliation, connectivity monitors, back-fill plans.
        .target(
            name: "LiveSession",
            dependencies: [
                "TradingModel", "TradingEngine", "TWSProtocol", "JournalModel",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // MARK: - Composition and I/O
        // E-mail through the system's libcurl, loaded at run time (no TLS library compiled in; docs/operations.md).
        .target(name: "CurlShim", linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        .target(name: "BundledData", resources: [.copy("Resources")]),
        .target(name: "Backtest", dependencies: ["TradingModel", "TradingEngine", "Simulation", "Analytics", "Indicators"]),
        .target(
            name: "Storage",
            dependencies: ["TradingModel", "JournalModel", "Parquet", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .target(
            name: "InteractiveBrokers",
            dependencies: [
                "LiveSession", "JournalModel", "TradingEngine", "TradingModel", "TWSClient", "TWSProtocol", "Storage",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),
        .target(
            name: "Research",
            dependencies: ["Backtest", "TradingEngine", "TradingModel", "Analytics", "Simulation"]
        ),
        .target(
            name: "TWSClient",
            dependencies: [
                "TWSProtocol",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The simulated gateway's pure core: its state machine, market, orders, account and faults (no sockets, so
        // the fuzzers and the in-process venue build without the live stack).
        .target(
            name: "GatewayCore",
            dependencies: [
                "TWSProtocol", "Simulation", "TradingModel", "BundledData", "Backtest",
            ]
        ),
        // The TWS-protocol server around it (NIO), its admin port and the in-memory transport.
        .target(
            name: "GatewaySimulator",
            dependencies: [
                "GatewayCore", "TWSProtocol", "TWSClient", "TradingModel", "TWSTranscript",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The bodies of the fuzz targets (Fuzz/ builds them with libFuzzer; the suite replays their corpora).
        .target(
            name: "FuzzTargets",
            dependencies: [
                "TWSProtocol", "TradingModel", "LiveSession", "GatewayCore", "Backtest",
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        // The config file's fuzz body: apart, because the schema pulls in the live stack (the CI's fuzz run builds
        // FuzzTargets only; `scripts/fuzz.sh config-file` and the campaign build this too).
        .target(name: "ConfigFuzzTarget", dependencies: ["TraderConfig"]),
        // The bot against the in-process simulator in virtual time (tests, the soak, `ibtrader sandbox`).
        .target(
            name: "SimulatedVenue",
            dependencies: [
                "VirtualTime", "GatewayCore", "GatewaySimulator", "InteractiveBrokers", "TWSClient", "TradingModel",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The soak with faults: the bot (LiveRunner) against the simulator while a fault script runs, measured.
        .target(
            name: "FaultSoak",
            dependencies: [
                "GatewayCore", "GatewaySimulator", "InteractiveBrokers", "LiveSession", "SimulatedVenue", "Storage", "TWSClient",
                "TradingEngine", "TradingModel", .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "TraderConfig",
            dependencies: [
                "TradingModel", "TradingEngine", "Simulation", "Storage", "LiveSession", "JournalModel", "InteractiveBrokers",
                "Research", "Backtest", "TWSProtocol",
                .product(name: "Yams", package: "Yams"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The operator's surface of a running bot: dashboard, metrics, health, controls (HTTP, Hummingbird).
        .target(
            name: "OperatorSurface",
            dependencies: [
                "LiveSession", "InteractiveBrokers", "TradingModel",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                "CurlShim",
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        .target(
            name: "TraderKit",
            dependencies: [
                "OperatorSurface",
                "TraderConfig", "TradingModel", "TradingEngine", "Simulation", "Analytics", "Backtest", "Research", "Indicators",
                "BundledData", "Storage", "InteractiveBrokers", "LiveSession", "JournalModel", "TWSClient", "TWSProtocol",
                "GatewayCore", "GatewaySimulator", "SimulatedVenue", "TWSTranscript",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),
        .target(
            name: "TWSTestSupport",
            dependencies: [
                "TWSProtocol", "TWSClient", "TWSTranscript", "Simulation", "TradingModel", .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        .target(
            name: "TraderCLI",
            dependencies: [
                "TradingModel", "Indicators", "Analytics", "TradingEngine", "Backtest", "TWSProtocol", "TWSClient",
                "BundledData", "GatewayCore", "Research", "Storage", "InteractiveBrokers", "LiveSession", "JournalModel",
                "TraderConfig", "TraderKit", "OperatorSurface",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(name: "IBTraderMain", dependencies: ["TraderCLI"]),
        // The example package's strategy, built here too so the suite runs its tests without a second build of the
        // dependencies (examples/my-strategy-package is also a package of its own; docs/custom-strategies.md).
        .target(
            name: "MyStrategies", dependencies: ["TraderConfig", "TradingEngine", "TradingModel"],
            path: "examples/my-strategy-package/Sources/MyStrategies"
        ),
        // MARK: - Tests
        .testTarget(name: "TradingModelTests", dependencies: ["TradingModel"]),
        .testTarget(name: "VirtualTimeTests", dependencies: ["VirtualTime"]),
        .testTarget(name: "ParquetTests", dependencies: ["Parquet", "Simulation", "TWSTestSupport"]),
        .testTarget(
            name: "OperatorSurfaceTests",
            dependencies: [
                "OperatorSurface", "LiveSession", "InteractiveBrokers", "TradingModel", "TWSTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "TraderConfigTests",
            dependencies: ["TraderConfig", "TradingEngine", "TradingModel", "Research"]
        ),
        .testTarget(
            name: "TraderKitTests",
            dependencies: [
                "TraderKit", "TraderConfig", "InteractiveBrokers", "Backtest", "Storage", "TradingEngine", "TradingModel",
                "TWSClient", "Simulation", "BundledData", "JournalModel", "Analytics", "TWSTestSupport", "LiveSession",
                "GatewayCore", "GatewaySimulator", .product(name: "Logging", package: "swift-log"),
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        .testTarget(
            name: "MyStrategiesTests",
            dependencies: ["MyStrategies", "TraderCLI", "TraderConfig", "TradingEngine", "TradingModel", "Storage"],
            path: "examples/my-strategy-package/Tests/MyStrategiesTests"
        ),
        // Runs the commands in-process; with MyStrategiesTests, the only test targets that depend on the command line.
        .testTarget(
            name: "TraderCLITests",
            dependencies: [
                "TraderCLI", "TraderKit", "TraderConfig", "InteractiveBrokers", "GatewayCore", "GatewaySimulator", "Storage",
                "TradingEngine", "TradingModel", "TWSClient", "TWSTestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["Snapshots"]
        ),
        .testTarget(name: "IndicatorsTests", dependencies: ["Indicators", "Simulation"]),
        .testTarget(name: "AnalyticsTests", dependencies: ["Analytics", "TWSTestSupport"]),
        .testTarget(
            name: "TWSProtocolTests",
            dependencies: ["TWSProtocol", "TWSTestSupport", "Simulation", .product(name: "NIOCore", package: "swift-nio")]
        ),
        .testTarget(name: "SimulationTests", dependencies: ["Simulation", "TradingModel"]),
        .testTarget(name: "TradingEngineTests", dependencies: ["TradingEngine", "TradingModel", "Indicators", "Simulation"]),
        .testTarget(
            name: "BacktestTests",
            dependencies: [
                "Backtest", "TradingEngine", "TradingModel", "Simulation", "Analytics", "Indicators", "TWSTestSupport",
            ]
        ),
        .testTarget(
            name: "StorageTests",
            dependencies: [
                "Storage", "JournalModel", "TradingModel", "GatewayCore", "GatewaySimulator", "TWSClient", "TWSTestSupport",
                .product(name: "Logging", package: "swift-log"), .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "InteractiveBrokersTests",
            dependencies: [
                "OperatorSurface",
                "InteractiveBrokers", "LiveSession", "JournalModel", "Storage", "TradingEngine", "TradingModel", "TWSClient", "TWSProtocol",
                "GatewayCore", "GatewaySimulator", "Simulation", "Backtest", "BundledData", "TraderKit", "TraderConfig", "FaultSoak",
                "SimulatedVenue", "VirtualTime", "TWSTestSupport",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(
            name: "ResearchTests",
            dependencies: [
                "Research", "Backtest", "TradingEngine", "TradingModel", "Analytics", "Simulation", "TWSTestSupport",
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        // Recorded gateway sessions (Tests/Fixtures/transcripts) replayed through the client, the manual commands'
        // ticket sessions and the bot.
        .testTarget(
            name: "TranscriptTests",
            dependencies: [
                "TWSTranscript", "TWSTestSupport", "TWSClient", "TWSProtocol", "VirtualTime", "InteractiveBrokers", "GatewaySimulator",
                "LiveSession", "Storage", "TradingModel", "TradingEngine", "JournalModel",
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "TWSClientTests",
            dependencies: [
                "TWSClient", "TWSProtocol", "TWSTestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "FuzzTargetsTests",
            dependencies: [
                "FuzzTargets", "ConfigFuzzTarget", "TWSTestSupport", "TWSProtocol", "Simulation",
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "GatewaySimulatorTests",
            dependencies: [
                "GatewayCore", "GatewaySimulator", "BundledData", "TWSClient", "TWSProtocol", "TWSTestSupport", "Simulation",
                "TradingModel", "Backtest", .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
