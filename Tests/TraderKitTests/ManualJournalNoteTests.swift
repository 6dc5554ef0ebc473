import Foundation
import Testing
import TraderConfig
import TraderKit

/// Issue 83: a manual command that creates the order journal says where (standard error), once; an existing
/// journal is used without a word.
struct ManualJournalNoteTests {
    @Test func theCommandThatCreatesTheJournalSaysWhere() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("manual-note-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("j.sqlite").path
        let loaded = try ConfigLoader.load(ConfigSources(
            files: [], flags: [ConfigOverride(path: "journal.path", value: path, flag: "--journal")]))
        func setup() throws -> ManualSetup {
            try ManualSetup(loaded, clientID: 901, timeout: .seconds(5), journaling: true, environment: [:])
        }
        let first = try setup()
        #expect(first.journalNote == "note: created the order journal \(URL(fileURLWithPath: path).standardizedFileURL.path): "
            + "every manual order is journaled there (--journal PATH, or journal.path in a --config file, puts it elsewhere)")
        #expect(FileManager.default.fileExists(atPath: path))
        #expect(try setup().journalNote == nil, "an existing journal is used without a word")
        let reading = try ManualSetup(loaded, clientID: 901, timeout: .seconds(5), journaling: false, environment: [:])
        #expect(reading.journalNote == nil && reading.journalPath == nil)
    }
}
