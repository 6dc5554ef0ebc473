import Foundation
import TradingModel

/// Paths of repository fixtures, relative to this file.
enum Fixtures {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    /// Reads the reference fills `time,symbol,qty,price`.
    static func referenceFills(_ relative: String) throws -> [(time: String, quantity: String, price: String)] {
        let text = try String(contentsOfFile: path(relative), encoding: .utf8)
        return text.split(separator: "\n").dropFirst().map { line in
            let f = line.split(separator: ",")
            return (String(f[0]), String(f[2]), String(f[3]))
        }
    }
}
