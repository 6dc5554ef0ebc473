import Foundation
import LiveSession
import Testing
import TWSTestSupport
import TraderConfig
import TradingEngine
import Yams

/// Issue 45: the deployment files run. No Docker engine or compose plugin is on the build machines, so each file is
/// checked by what can run here: the compose file parses and its health check runs under bash against a listener,
/// the systemd unit passes `systemd-analyze verify`, the stop timeouts cover the bot's stop bound, and Prometheus
/// sends the token a non-loopback dashboard asks for. Serialized: the health-check cases listen on the same two ports.
@Suite(.serialized) struct DeploymentFilesTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    static func compose() throws -> [String: Any] {
        try #require(try Yams.load(yaml: text("deploy/docker-compose.yml")) as? [String: Any])
    }

    static func service(_ name: String) throws -> [String: Any] {
        let services = try #require(try compose()["services"] as? [String: Any])
        return try #require(services[name] as? [String: Any], "no service \(name)")
    }

    /// The bot's stop bound (`SessionSettings.stopLimit`): what the service managers must wait for, with room for the
    /// journal and the summary, and not much more (a hung process should not hold a restart for minutes).
    static var stopLimitSeconds: Int64 {
        get throws {
            let limit = try #require(SessionSettings(symbols: [], engine: EngineConfig(), strategyName: "x").stopLimit)
            return limit.nanoseconds / 1_000_000_000
        }
    }

    @Test func theComposeFileParsesAndTheBotWaitsForAHealthyGatewayAsTheFoldersOwner() throws {
        let bot = try Self.service("ibtrader")
        let gateway = try Self.service("ib-gateway")
        let dependsOn = try #require(bot["depends_on"] as? [String: Any])
        #expect((dependsOn["ib-gateway"] as? [String: Any])?["condition"] as? String == "service_healthy")
        #expect((bot["volumes"] as? [String])?.contains("./bot:/srv/ibtrader") == true)
        // The bot writes deploy/bot as its owner on the host; the image's own user is the default owner, 1000.
        #expect(bot["user"] as? String == "${BOT_UID:-1000}:${BOT_GID:-1000}")
        let dockerfile = try Self.text("deploy/docker/Dockerfile")
        #expect(dockerfile.contains("useradd --uid 1000 --user-group"))
        #expect(bot["stop_signal"] as? String == "SIGTERM")
        #expect((gateway["environment"] as? [String: Any])?["TRADING_MODE"] as? String == "${TRADING_MODE:-paper}")
        let example = try Self.text("deploy/ibtrader.env.example")
        for key in ["TRADING_MODE=paper", "GATEWAY_PORT=4004", "BOT_UID=1000", "BOT_GID=1000"] {
            #expect(example.contains("\n\(key)\n"), "deploy/ibtrader.env.example sets \(key)")
        }
    }

    /// The gateway's health check, run as Docker runs it (`/bin/sh -c`, `$$` unescaped to `$`): healthy when the API
    /// port of its trading mode answers, not when only the other mode's port does. (With the paper port hard-coded, a
    /// live gateway never turned healthy and the bot never started.)
    @Test(arguments: [("paper", 4004, 4003), ("live", 4003, 4004)])
    func theGatewaysHealthCheckFollowsItsTradingMode(mode: String, port: Int, otherPort: Int) async throws {
        let gateway = try Self.service("ib-gateway")
        let check = try #require((gateway["healthcheck"] as? [String: Any])?["test"] as? [String])
        #expect(check.first == "CMD-SHELL" && check.count == 2)
        let command = check[1].replacingOccurrences(of: "$$", with: "$")
        func healthy() async throws -> Bool {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", command]
            process.environment = ["TRADING_MODE": mode, "PATH": "/usr/bin:/bin"]
            process.standardError = FileHandle.nullDevice
            try process.run()
            await process.exited()
            return process.terminationStatus == 0
        }
        #expect(try await !healthy(), "nothing listens yet")
        do {
            let other = try LoopbackListener(port: otherPort)
            defer { other.close() }
            #expect(try await !healthy(), "only the other mode's port \(otherPort) answers")
        }
        let listener = try LoopbackListener(port: port)
        defer { listener.close() }
        #expect(try await healthy(), "\(mode) answers on \(port)")
    }

    @Test func theSystemdUnitPassesItsOwnVerifier() async throws {
        let verifier = "/usr/bin/systemd-analyze"
        try #require(
            FileManager.default.isExecutableFile(atPath: verifier),
            "systemd-analyze is missing (Debian's systemd package): the unit cannot be checked")
        let unit = try Self.text("deploy/ibtrader.service")
        #expect(unit.contains("ExecStart=/usr/local/bin/ibtrader run --config /srv/ibtrader/bot.yaml"))
        // The verifier checks that ExecStart's program exists: point it at one that does.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("unit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent("ibtrader.service")
        try unit.replacingOccurrences(of: "/usr/local/bin/ibtrader", with: "/usr/bin/true")
            .write(to: copy, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: verifier)
        process.arguments = ["verify", copy.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let said = String(decoding: await output.fileHandleForReading.readAll(), as: UTF8.self)
        await process.exited()
        #expect(process.terminationStatus == 0 && said.isEmpty, "systemd-analyze verify: \(said)")
    }

    /// SIGTERM's graceful stop finishes within `stopLimit` even when the gateway does not answer; the service managers
    /// wait that long plus room for the journal, and no minutes more.
    @Test func bothStopTimeoutsCoverTheBotsStopBound() throws {
        let limit = try Self.stopLimitSeconds
        #expect(limit == 30)
        let unit = try Self.text("deploy/ibtrader.service")
        let line = try #require(unit.split(separator: "\n").first { $0.hasPrefix("TimeoutStopSec=") })
        let unitSeconds = try #require(Int64(line.dropFirst("TimeoutStopSec=".count)))
        let grace = try #require(try Self.service("ibtrader")["stop_grace_period"] as? String)
        let composeSeconds = try #require(grace.hasSuffix("s") ? Int64(grace.dropLast()) : nil, "\(grace)")
        for (file, seconds) in [("deploy/ibtrader.service", unitSeconds), ("deploy/docker-compose.yml", composeSeconds)] {
            #expect(seconds >= limit + 10 && seconds <= limit + 30, "\(file): \(seconds) s for a stop bounded at \(limit) s")
        }
    }

    /// Issue 79: IB desupports every TWS / IB Gateway build older than 10.50.1 on 2026-12-15. The compose file names
    /// an explicit build at or above it: not a channel (`stable`, `latest`) nor a minor line (`10.50`), which move.
    @Test func theGatewayImageIsAnExplicitBuildIBStillSupports() throws {
        let image = try #require(try Self.service("ib-gateway")["image"] as? String)
        let parts = image.split(separator: ":").map(String.init)
        try #require(parts.count == 2, "\(image): no tag")
        #expect(parts[0] == "ghcr.io/gnzsnz/ib-gateway")
        let build = try #require(Self.gatewayBuild(parts[1]), "\(image): not a full build (major.minor.patch + letter)")
        #expect(build.numbers.lexicographicallyPrecedes([10, 50, 1]) == false, "\(image) is older than 10.50.1")
        for moving in ["stable", "latest", "10.50"] { #expect(Self.gatewayBuild(moving) == nil, "\(moving)") }
    }

    /// A gnzsnz build tag, `10.50.1d`: its three numbers and its letter; `nil` for anything else.
    static func gatewayBuild(_ tag: String) -> (numbers: [Int], letter: Character)? {
        guard let letter = tag.last, letter.isLetter, letter.isLowercase else { return nil }
        let numbers = tag.dropLast().split(separator: ".", omittingEmptySubsequences: false).map { Int($0) }
        guard numbers.count == 3, numbers.allSatisfy({ $0 != nil }) else { return nil }
        return (numbers.compactMap { $0 }, letter)
    }

    /// The `ibtrader` of the current build (debug or release, the newer), or `IBTRADER_BINARY`; `nil` when none is built.
    static var builtBinary: URL? {
        if let path = ProcessInfo.processInfo.environment["IBTRADER_BINARY"] { return URL(fileURLWithPath: path) }
        let candidates = ["debug", "release"].map { root.appendingPathComponent(".build/\($0)/ibtrader") }
            .filter { FileManager.default.isExecutableFile(atPath: $0.path) }
        func modified(_ url: URL) -> Date {
            ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date) ?? .distantPast
        }
        return candidates.max { modified($0) < modified($1) }
    }

    /// Runs a program and returns what it printed (standard output and error) and its status.
    static func run(_ program: String, _ arguments: [String]) async throws -> (output: String, status: Int32) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let said = String(decoding: await output.fileHandleForReading.readAll(), as: UTF8.self)
        await process.exited()
        return (said, process.terminationStatus)
    }

    /// The packages of ubuntu:24.04 (the runtime stage's base) that the binary may link without installing them: the C
    /// and C++ runtimes and zlib, part of every Ubuntu image.
    static let basePackages: Set<String> = ["libc6", "libgcc-s1", "libstdc++6", "zlib1g"]

    /// The packages `apt-get install` names in the Dockerfile's last stage (the runtime image), and that stage's text.
    static func runtimeStage() throws -> (packages: Set<String>, text: String) {
        let dockerfile = try text("deploy/docker/Dockerfile")
        let stage = try #require(dockerfile.components(separatedBy: "\nFROM ").last)
        var packages: Set<String> = []
        for command in stage.replacingOccurrences(of: "\\\n", with: " ").components(separatedBy: "&&") {
            let words = command.split(whereSeparator: \.isWhitespace).map(String.init)
            guard let install = words.firstIndex(of: "install"), install > 0, words[install - 1].hasSuffix("apt-get")
            else { continue }
            packages.formUnion(words[(install + 1)...].filter { !$0.hasPrefix("-") })
        }
        return (packages, stage)
    }

    /// The shared libraries an ELF file names itself (`readelf -d`, its NEEDED entries).
    static func neededLibraries(of path: String) async throws -> [String] {
        let readelf = try await run("/usr/bin/readelf", ["-d", path])
        try #require(readelf.status == 0, "readelf -d \(path): \(readelf.output)")
        return readelf.output.split(separator: "\n").compactMap { line in
            guard line.contains("(NEEDED)"), let open = line.firstIndex(of: "["), let close = line.lastIndex(of: "]")
            else { return nil }
            return String(line[line.index(after: open)..<close])
        }
    }

    /// The Debian package that owns a library file (`dpkg -S`), trying the path with and without `/usr` (Debian's
    /// merged /usr records some libraries under one, some under the other).
    static func owner(of path: String) async throws -> String? {
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        var candidates: [String] = []
        for form in [path, resolved] {
            candidates.append(form)
            if form.hasPrefix("/lib/") { candidates.append("/usr" + form) }
            if form.hasPrefix("/usr/lib/") { candidates.append(String(form.dropFirst(4))) }
        }
        for candidate in candidates {
            let dpkg = try await run("/usr/bin/dpkg", ["-S", candidate])
            if dpkg.status == 0, let package = dpkg.output.split(separator: ":").first { return String(package) }
        }
        return nil
    }

    /// Issue 79: the runtime image installs every shared library the binary links. The libraries the current build's
    /// `ibtrader` names (`readelf -d`), and those the Swift runtime it links names in turn (in the image the runtime
    /// is in the binary, `--static-swift-stdlib`, so its libraries are the binary's): each found through `ldd`, its
    /// package through `dpkg -S`, and installed by the Dockerfile's runtime stage (or in ubuntu:24.04 already, or the
    /// library copied in). What those libraries need in turn comes with their packages (apt's dependencies). Skipped
    /// where no `ibtrader` is built or ldd, readelf or dpkg is missing.
    @Test(.enabled(
        if: builtBinary != nil && ["/usr/bin/ldd", "/usr/bin/readelf", "/usr/bin/dpkg"].allSatisfy {
            FileManager.default.isExecutableFile(atPath: $0)
        },
        "needs a built ibtrader (swift build), ldd, readelf and dpkg"))
    func theRuntimeImageInstallsEverySharedLibraryTheBinaryLinks() async throws {
        let binary = try #require(Self.builtBinary)
        let ldd = try await Self.run("/usr/bin/ldd", [binary.path])
        try #require(ldd.status == 0, "ldd \(binary.path): \(ldd.output)")
        // `libsqlite3.so.0 => /lib/x86_64-linux-gnu/libsqlite3.so.0 (0x…)`: where each library is found.
        var paths: [String: String] = [:]
        for line in ldd.output.split(separator: "\n") {
            #expect(!line.contains("not found"), "the build machine lacks a library the binary links: \(line)")
            let words = line.split(whereSeparator: \.isWhitespace).map(String.init)
            if let arrow = words.firstIndex(of: "=>"), arrow > 0, arrow + 1 < words.count, words[arrow + 1].hasPrefix("/") {
                paths[words[arrow - 1]] = words[arrow + 1]
            }
        }
        var swiftRuntime: Set<String> = []
        var external: Set<String> = []
        var queue = try await Self.neededLibraries(of: binary.path)
        while let library = queue.popLast() {
            guard let path = paths[library] else { continue }  // the loader (ld-linux), part of libc6
            if path.contains("/lib/swift/") {
                if swiftRuntime.insert(library).inserted { queue += try await Self.neededLibraries(of: path) }
            } else {
                external.insert(library)
            }
        }
        let (installed, stage) = try Self.runtimeStage()
        var needed: [String: String] = [:]  // package → a library of it
        for library in external.sorted() {
            let path = try #require(paths[library])
            let package = try #require(try await Self.owner(of: path), "no Debian package owns \(path) (\(library))")
            needed[package] = library
        }
        #expect(needed["libsqlite3-0"] != nil, "GRDB links SQLite: \(needed)")
        for (package, library) in needed.sorted(by: { $0.key < $1.key }) {
            // Debian's 64-bit time_t rename (libcurl4t64) is the same library as Ubuntu 24.04's `libcurl4`.
            let names = [package, package.hasSuffix("t64") ? String(package.dropLast(3)) : package]
            let copied = stage.split(separator: "\n").contains { $0.hasPrefix("COPY") && $0.contains(library) }
            #expect(
                names.contains(where: installed.contains) || Self.basePackages.contains(package) || copied,
                "deploy/docker/Dockerfile's runtime stage does not install \(package) (for \(library)), which ibtrader links")
        }
        if !swiftRuntime.isEmpty {
            let runtime = swiftRuntime.sorted().joined(separator: ", ")
            #expect(
                try Self.text("deploy/docker/Dockerfile").contains("--static-swift-stdlib"),
                "the binary links the Swift runtime (\(runtime)) and the image neither builds it in nor copies it")
        }
    }

    /// A dashboard bound elsewhere than loopback asks every request for the token, /metrics too: the scrape config
    /// sends it, from the default dashboard address.
    @Test func prometheusScrapesTheDefaultAddressWithTheToken() throws {
        let config = try #require(try Yams.load(yaml: Self.text("deploy/prometheus.yml")) as? [String: Any])
        let job = try #require((config["scrape_configs"] as? [[String: Any]])?.first)
        let targets = (job["static_configs"] as? [[String: Any]])?.first?["targets"] as? [String]
        let dashboard = DashboardConfig()
        #expect(targets == ["\(dashboard.bind):\(dashboard.port ?? 0)"])
        let authorization = try #require(job["authorization"] as? [String: Any], "no authorization: /metrics answers 401")
        #expect(authorization["type"] as? String == "Bearer")
        #expect(authorization["credentials_file"] as? String == "/etc/prometheus/ibtrader.token")
    }
}

/// A TCP listener on 127.0.0.1:port that accepts nothing (the kernel completes the handshake): what a health check
/// that only connects needs.
struct LoopbackListener {
    let socket: Int32

    init(port: Int) throws {
        socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var reuse: Int32 = 1
        setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(socket, 4) == 0 else {
            let reason = String(cString: strerror(errno))
            Foundation.close(socket)
            throw ListenerError(description: "cannot listen on 127.0.0.1:\(port): \(reason)")
        }
    }

    func close() { Foundation.close(socket) }

    struct ListenerError: Error, CustomStringConvertible { let description: String }
}
