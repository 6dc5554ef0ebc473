import Foundation
import TWSProtocol
import TWSTestSupport

/// Server → client frames from the shared vectors (`Tests/Fixtures/protocol/vectors`), with their request id
/// rewritten for the request under test.
enum ServerFrames {
    private static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/protocol/vectors")

    private static let v200 = load("server_to_client.v200.jsonl")
    private static let v178 = load("server_to_client.v178.jsonl")

    private static func load(_ name: String) -> [String: [String]] {
        let records = (try? TWSVectors.load(directory.appendingPathComponent(name))) ?? []
        return Dictionary(records.map { ($0.name, $0.fields) }, uniquingKeysWith: { first, _ in first })
    }

    /// The raw bytes of a handshake vector (`handshake.jsonl`), e.g. `stream_initial_burst_v200`.
    static func handshakeBytes(_ name: String) -> [UInt8] {
        let records = (try? TWSVectors.load(directory.appendingPathComponent("handshake.jsonl"))) ?? []
        return records.first { $0.name == name }?.bytes ?? []
    }

    /// The fields of vector `name` at `version`, with the request (or order) id replaced when `id` is given.
    static func fields(_ name: String, version: Int = 200, id: Int? = nil) -> [String] {
        guard var fields = (version == 178 ? v178 : v200)[name] else { return ["999", "vector \(name) missing"] }
        if let id, let index = idIndex(messageID: Int(fields[0]) ?? 0, version: version) { fields[index] = "\(id)" }
        return fields
    }

    /// Where the request / order id sits (PROTOCOL.md §6).
    private static func idIndex(messageID: Int, version: Int) -> Int? {
        switch messageID {
        case 1, 2, 45, 46, 58, 57, 50, 55, 63, 64, 52, 74: return 2
        case 81, 10, 17, 108, 90, 94, 95, 3, 5, 11: return 1
        case 4: return version >= 194 ? 1 : 2
        default: return nil
        }
    }
}
