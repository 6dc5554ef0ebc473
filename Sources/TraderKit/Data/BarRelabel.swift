import Backtest
import Foundation
import TradingModel

/// `ibtrader data relabel`: a bar file labelled by bar end (a 1-minute bar stamped 14:31 for 14:30–14:31, as some
/// vendors and the pyalgotrade minutes do) rewritten to the convention every reader here uses, bar start (as IB's
/// historical and real-time bars): each row's time moves back by one bar, every other byte stays. The file is read
/// first with the backtest's reader (a bad row is refused with its line), and the bar length comes from its rows.
public enum BarRelabel {
    /// What was done.
    public struct Outcome: Sendable, Equatable {
        public var rows: Int
        public var barLength: String
        public var first: String
        public var last: String
    }

    /// Rewrites `input` (end-labelled) to `output` (start-labelled).
    /// - Throws: `TraderError` naming the file (and line) for a file it cannot read, daily bars (labelled by their
    ///   date: nothing to move), or a time written in a form it does not know.
    public static func endToStart(input: String, output: String) throws -> Outcome {
        guard let data = FileManager.default.contents(atPath: input) else { throw TraderError("\(input): cannot read the file") }
        let loaded: LoadedBars
        do { loaded = try BarCSVLoader.parse(data, file: input, policy: .fail) } catch { throw TraderError("\(error)") }
        guard let length = BarFileName.inferredLength(loaded.bars) else {
            throw TraderError("\(input): no day has two bars, so the bar length cannot be told from the rows")
        }
        guard length < .days(1) else {
            throw TraderError("\(input): daily bars are labelled by their date; there is nothing to relabel")
        }
        let text = String(decoding: data, as: UTF8.self)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // The reader's times, in file order (it refused every bad row above): only the text of each is rewritten.
        let rows = lines.indices.dropFirst().filter { !lines[$0].trimmingCharacters(in: .whitespaces).isEmpty }
        guard rows.count == loaded.bars.count else {
            throw TraderError("\(input): \(rows.count) rows but \(loaded.bars.count) bars read; the file is not relabelled")
        }
        for (index, bar) in zip(rows, loaded.bars) {
            let line = lines[index]
            let comma = line.firstIndex(of: ",") ?? line.endIndex
            let field = line[..<comma].trimmingCharacters(in: CharacterSet(charactersIn: "\" \r"))
            // Written back in the form it was read: 2011-01-03T14:30:00Z, or 2011-01-03 14:30:00.
            let moved = (bar.timestamp - length).description
            let spaced = String(moved.dropLast()).replacingOccurrences(of: "T", with: " ")
            guard field.count == moved.count && field.hasSuffix("Z") || field.count == spaced.count && field.contains(" ") else {
                throw TraderError(
                    "\(input):\(index + 1): the time '\(field)' is not one this converter writes back (2011-01-03T14:31:00Z or "
                        + "2011-01-03 14:31:00)")
            }
            lines[index] = (field.hasSuffix("Z") ? moved : spaced) + line[comma...]
        }
        let first = rows.first.map { String(lines[$0].prefix { $0 != "," }) } ?? ""
        let last = rows.last.map { String(lines[$0].prefix { $0 != "," }) } ?? ""
        do { try lines.joined(separator: "\n").write(toFile: output, atomically: true, encoding: .utf8) } catch {
            throw TraderError("\(output): cannot write: \(error.localizedDescription)")
        }
        let minutes = length.nanoseconds / Timestamp.nanosecondsPerSecond / 60
        return Outcome(rows: rows.count, barLength: minutes > 0 ? "\(minutes)-minute" : "\(length.nanoseconds / 1_000_000_000)-second",
            first: first, last: last)
    }
}
