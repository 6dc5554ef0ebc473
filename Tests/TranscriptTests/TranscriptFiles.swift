import Foundation
import TWSTranscript

/// The transcripts of `Tests/Fixtures/transcripts` (see `Tests/Fixtures/SOURCES.md`), and any in the folder named
/// by `IBTRADER_TRANSCRIPTS` (sessions kept outside the repository).
enum TranscriptFiles {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("Fixtures/transcripts/ibkr-go")

    /// Every transcript file's path, sorted by name.
    static var paths: [String] {
        var folders = [directory.path]
        if let extra = ProcessInfo.processInfo.environment["IBTRADER_TRANSCRIPTS"], !extra.isEmpty { folders.append(extra) }
        return folders.flatMap { folder in
            ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
                .filter { $0.hasSuffix(".txt") }
                .map { folder + "/" + $0 }
        }.sorted { ($0 as NSString).lastPathComponent < ($1 as NSString).lastPathComponent }
    }

    static func load(_ name: String) throws -> TWSTranscript {
        try TWSTranscript.load(path: directory.appendingPathComponent(name).path)
    }
}
