import Foundation
import Logging
import Testing
import TraderConfig
import TradingEngine

@testable import TraderKit

/// `ibtrader ctl reload` (issue 23): a running bot reads the risk limits from the files it was started with, as
/// they are now; a file that no longer loads is refused with its error (file, line, key), and nothing changes.
struct RiskReloadTests {
    @Test func theLimitsAreReadAgainFromTheSameFilesAndABrokenFileIsAClearError() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reload-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("bot.yaml").path
        func write(_ risk: String) throws {
            try "strategy: {name: sma-cross}\nuniverse: {symbols: [AAPL]}\nrisk: \(risk)\ndashboard: {port: none}\n"
                .write(toFile: path, atomically: true, encoding: .utf8)
        }
        try write("{maxActivePositions: 3}")
        var sources = ConfigSources(files: [path])
        sources.readsDotEnv = false
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let surface = try OperatorSetup(try ConfigLoader.load(sources), journal: nil, logger: logger)
        let reload = try #require(surface.reloadRisk)
        #expect(try reload().maxActivePositions == 3)
        try write("{maxActivePositions: 1, maxPositionPercentOfEquity: 25}")
        let limits = try reload()
        #expect(limits.maxActivePositions == 1 && limits.maxPositionPercentOfEquity == 25)
        try write("{maxActivePositions: two}")
        do {
            _ = try reload()
            Issue.record("a broken file was accepted")
        } catch {
            #expect("\(error)".contains("bot.yaml:3") && "\(error)".contains("risk.maxActivePositions"), "\(error)")
        }
    }
}
