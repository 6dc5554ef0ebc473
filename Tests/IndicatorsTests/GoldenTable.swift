import Foundation

/// A golden CSV from `Tests/Fixtures/golden/`: a header and text cells, empty meaning "no value".
struct GoldenTable {
    let header: [String]
    let rows: [[String]]

    static func load(_ name: String) throws -> GoldenTable {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/golden/\(name)")
        let text = try String(contentsOf: url, encoding: .utf8)
        let lines = text.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        return GoldenTable(
            header: lines[0].map(String.init),
            rows: lines.dropFirst().map { $0.map(String.init) })
    }

    func column(_ name: String) -> [Double?] {
        guard let index = header.firstIndex(of: name) else { return [] }
        return rows.map { $0[index].isEmpty ? nil : Double($0[index]) }
    }

    /// Input columns as non-optional numbers.
    func numbers(_ name: String) -> [Double] { column(name).map { $0 ?? .nan } }
}

/// `abs(a-b) <= 1e-9 * max(1, abs(b))`, the golden README's comparison.
func isClose(_ a: Double, _ b: Double) -> Bool {
    abs(a - b) <= 1e-9 * max(1.0, abs(b))
}

/// Compares a computed column with a golden one; returns a description of the first mismatch.
func firstMismatch(_ computed: [Double?], _ golden: [Double?]) -> String? {
    guard computed.count == golden.count else { return "count \(computed.count) != \(golden.count)" }
    for (index, (a, b)) in zip(computed, golden).enumerated() {
        switch (a, b) {
        case (nil, nil): continue
        case (let a?, let b?): if !isClose(a, b) { return "row \(index): \(a) != \(b)" }
        default: return "row \(index): warm-up mismatch \(String(describing: a)) vs \(String(describing: b))"
        }
    }
    return nil
}
