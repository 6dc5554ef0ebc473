import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Issue 45 with the real program: a run with every secret set prints none of them (stdout, stderr, the log file,
/// the page, `/api/status`, `/metrics`), nor does `config show`; a misspelt variable stops it before it connects.
@Suite("ibtrader keeps secrets and refuses unknown variables")
struct ProgramSecretsTests {
    /// Every secret the config has, set through the environment as the docs recommend. The alert endpoints are a
    /// closed local port: each alert fails and is logged, which is where a URL or a token could leak.
    static let secrets: [String: String] = [
        "IBTRADER_DASHBOARD_TOKEN": "dashboard-secret-0123456789",
        "IBTRADER_ALERTS_WEBHOOK": "http://127.0.0.1:9/hooks/webhook-secret-path",
        "IBTRADER_ALERTS_TELEGRAMTOKEN": "999:telegram-secret",
        "IBTRADER_ALERTS_TELEGRAMCHATS": "42",
        "IBTRADER_ALERTS_TELEGRAMAPI": "http://api-user:api-secret@127.0.0.1:9",
        "IBTRADER_ALERTS_SMSURL": "http://127.0.0.1:9/sms",
        "IBTRADER_ALERTS_SMSUSER": "AC1",
        "IBTRADER_ALERTS_SMSPASSWORD": "sms-secret",
        "IBTRADER_ALERTS_SMSFROM": "+100",
        "IBTRADER_ALERTS_SMSTO": "+200",
        "IBTRADER_ALERTS_SMTPPASSWORD": "smtp-secret",
    ]
    static let secretValues = ["dashboard-secret-0123456789", "webhook-secret-path", "telegram-secret", "api-secret", "sms-secret", "smtp-secret"]

    static func program(_ arguments: [String], environment extra: [String: String]) throws -> (Process, ProgramOutput, ProgramOutput) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ibtraderProgramPath)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(extra) { $1 }
        let (out, errors) = (ProgramOutput(), ProgramOutput())
        let (outPipe, errorPipe) = (Pipe(), Pipe())
        process.standardOutput = outPipe
        process.standardError = errorPipe
        outPipe.fileHandleForReading.readabilityHandler = { out.append($0.availableData) }
        errorPipe.fileHandleForReading.readabilityHandler = { errors.append($0.availableData) }
        try process.run()
        return (process, out, errors)
    }

    @Test("config show prints no secret", .enabled(if: ibtraderProgramRuns, "no .build/debug/ibtrader: build first"))
    func configShow() async throws {
        let (process, out, errors) = try Self.program(["config", "show"], environment: Self.secrets)
        #expect(try await eventually(within: .seconds(60)) { !process.isRunning })
        let text = out.all + errors.all
        #expect(process.terminationStatus == 0, "\(text)")
        #expect(text.contains("set, hidden"), "\(text)")
        for secret in Self.secretValues { #expect(!text.contains(secret), "'\(secret)' printed:\n\(text)") }
    }

    // A real run (a few seconds): the simulator, the dashboard on a free port, failing alert channels.
    @Test(
        "a run with every secret set prints none: output, log file, page, status, metrics",
        .enabled(if: ibtraderProgramRuns, "no .build/debug/ibtrader: build first"))
    func aRunKeepsItsSecrets() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("secrets-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let port = try CrashProcessHarness.freePort()
        let logFile = directory.appendingPathComponent("bot.log").path
        var environment = Self.secrets
        environment["IBTRADER_JOURNAL_PATH"] = directory.appendingPathComponent("journal.sqlite").path
        environment["IBTRADER_DASHBOARD_PORT"] = "\(port)"
        environment["IBTRADER_LOGGING_LEVEL"] = "info"
        environment["IBTRADER_LOGGING_FILE"] = logFile
        environment["IBTRADER_ALERTS_MINIMUMSEVERITY"] = "info"
        let (process, out, errors) = try Self.program(["run", "--simulated"], environment: environment)
        defer { if process.isRunning { process.terminate() } }
        let running = try await eventually(within: .seconds(120)) {
            (out.all + errors.all).contains("subscribed to 5-second bars") || !process.isRunning
        }
        try #require(running && process.isRunning, "ibtrader did not start running: \(errors.all)")
        var pages = ""
        for path in ["/", "/api/status", "/metrics", "/api/log", "/healthz"] {
            pages += (try await DashboardRunnerTests.http(port, path)).text
        }
        kill(process.processIdentifier, SIGTERM)
        #expect(try await eventually(within: .seconds(60)) { !process.isRunning })
        let log = (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? ""
        #expect(!log.isEmpty, "the log file was written")
        for (name, text) in [("stdout", out.all), ("stderr", errors.all), ("the log file", log), ("the dashboard", pages)] {
            for secret in Self.secretValues { #expect(!text.contains(secret), "'\(secret)' in \(name):\n\(text)") }
        }
    }

    @Test(
        "a misspelt section variable stops the run before it connects, naming the key",
        .enabled(if: ibtraderProgramRuns, "no .build/debug/ibtrader: build first"))
    func misspeltVariable() async throws {
        let (process, out, errors) = try Self.program(["run", "--simulated"], environment: ["IBTRADER_CONECTION_PORT": "4002"])
        defer { if process.isRunning { process.terminate() } }
        #expect(try await eventually(within: .seconds(60)) { !process.isRunning })
        let text = out.all + errors.all
        #expect(process.terminationStatus != 0)
        #expect(text.contains("did you mean IBTRADER_CONNECTION_PORT (connection.port)?"), "\(text)")
        #expect(!text.contains("connected"), "refused before connecting: \(text)")
    }
}
