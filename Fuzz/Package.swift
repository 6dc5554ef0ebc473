// swift-tools-version:6.1
import PackageDescription

// The libFuzzer executables: a separate package, built only by scripts/fuzz.sh with `--sanitize=fuzzer`, so the
// product's build and CI's main build stay free of the sanitizer. Each calls one body of FuzzTargets (the main
// package), whose corpora the normal test suite replays.
let fuzzer: [SwiftSetting] = [.unsafeFlags(["-parse-as-library"])]

let package = Package(
    name: "IBTraderFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "IBTrader", path: "..")],
    targets: [
        .executableTarget(
            name: "fuzz-client-inbound", dependencies: [.product(name: "FuzzTargets", package: "IBTrader")],
            swiftSettings: fuzzer),
        .executableTarget(
            name: "fuzz-simulator-requests", dependencies: [.product(name: "FuzzTargets", package: "IBTrader")],
            swiftSettings: fuzzer),
        .executableTarget(
            name: "fuzz-bar-file", dependencies: [.product(name: "FuzzTargets", package: "IBTrader")],
            swiftSettings: fuzzer),
        .executableTarget(
            name: "fuzz-config-file", dependencies: [.product(name: "ConfigFuzzTarget", package: "IBTrader")],
            swiftSettings: fuzzer),
    ],
    swiftLanguageModes: [.v6]
)
