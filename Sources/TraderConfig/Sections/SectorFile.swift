import Foundation

/// A sector map in a CSV file: a header with `symbol` and `sector` columns (any order, other columns ignored, quoted
/// fields allowed), one symbol per row, as the bundled `sectors.csv`. `universe.sectors: FILE.csv` and a data folder's
/// `sectors.csv` are read by this one reader.
public enum SectorFile {
    /// A file that is not a sector map, with the file and line.
    public struct Problem: Error, CustomStringConvertible, Equatable {
        public var description: String
    }

    /// Reads a sector file.
    /// - Returns: sectors by upper-cased symbol.
    /// - Throws: `Problem` for a file that cannot be read, a header without the columns, or a row without them.
    public static func read(path: String) throws(Problem) -> [String: String] {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw Problem(description: "\(path): cannot read the sector file (it must exist and be UTF-8 text)")
        }
        return try parse(text, file: path)
    }

    /// Parses a sector file's text; `file` names it in problems.
    public static func parse(_ text: String, file: String) throws(Problem) -> [String: String] {
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
        while lines.last?.trimmingCharacters(in: .whitespaces).isEmpty == true { lines.removeLast() }
        guard !lines.isEmpty else { return [:] }
        var headerLine = lines.removeFirst()
        if headerLine.first == "\u{FEFF}" { headerLine.removeFirst() }
        let header = splitCSVLine(headerLine).map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard let symbolColumn = header.firstIndex(of: "symbol"), let sectorColumn = header.firstIndex(of: "sector") else {
            throw Problem(description: "\(file):1: a sector file needs a header with 'symbol' and 'sector' columns, e.g. "
                + "symbol,sector")
        }
        var sectors: [String: String] = [:]
        for (k, line) in lines.enumerated() where !line.trimmingCharacters(in: .whitespaces).isEmpty {
            let fields = splitCSVLine(line).map { $0.trimmingCharacters(in: .whitespaces) }
            guard fields.count > max(symbolColumn, sectorColumn), !fields[symbolColumn].isEmpty,
                !fields[sectorColumn].isEmpty
            else {
                throw Problem(description: "\(file):\(k + 2): a row needs a symbol and a sector, got '\(line)'")
            }
            sectors[fields[symbolColumn].uppercased()] = fields[sectorColumn]
        }
        return sectors
    }

    /// Splits one CSV line, honouring double-quoted fields (`"Analog Devices, Inc."`, `""` for a quote).
    public static func splitCSVLine(_ line: String) -> [String] {
        var fields: [String] = []
        var current = ""
        var inQuotes = false
        var characters = line.makeIterator()
        var pending: Character? = characters.next()
        while let character = pending {
            pending = characters.next()
            if inQuotes {
                if character == "\"" {
                    if pending == "\"" {
                        current.append("\"")
                        pending = characters.next()
                    } else {
                        inQuotes = false
                    }
                } else {
                    current.append(character)
                }
            } else if character == "\"" {
                inQuotes = true
            } else if character == "," {
                fields.append(current)
                current = ""
            } else if character != "\r" {
                current.append(character)
            }
        }
        fields.append(current)
        return fields
    }
}
