import Analytics
import Backtest
import Foundation
import TradingModel

/// `--shard-unit files`: an each-symbol sweep split by the catalogue's files instead of by configurations. Shard
/// `K/N` reads only its symbols' files (a symbol's years stay together: its account runs through them all) and runs
/// every configuration on them; it writes each configuration's pooled book of its accounts, and the merge sums the
/// shards' books into the whole sweep's, to the unit, before measuring them. So a cluster task reads a 1/N share of
/// the data, and merged shards give the single run's `results.csv` and `best.json` byte for byte.
public struct FileShardPlan: Sendable, Equatable {
    /// One symbol of the sweep and its bars in the catalogue (what balances the shards).
    public struct Entry: Sendable, Hashable {
        /// The symbol as stored.
        public var symbol: String
        /// Its bars.
        public var bars: Int

        /// An entry.
        public init(symbol: String, bars: Int) {
            self.symbol = symbol
            self.bars = bars
        }
    }

    /// Every symbol of the sweep, in its order.
    public var universe: [Entry]
    /// Shards.
    public var count: Int

    /// A plan.
    /// - Throws: `ResearchError.invalidShard` when there are more shards than symbols (a shard would be empty).
    public init(universe: [Entry], count: Int) throws(ResearchError) {
        guard count >= 1, count <= universe.count else {
            throw .invalidShard(
                "\(count) shards of \(universe.count) symbol\(universe.count == 1 ? "" : "s") by files: a file shard takes whole "
                    + "symbols, so at most \(universe.count) shards")
        }
        self.universe = universe
        self.count = count
    }

    /// The positions of shard `index`'s symbols: contiguous, at least one, cut where the bars before reach
    /// `index / count` of all bars (so shards take about equal work).
    public func symbols(of index: Int) -> Range<Int> {
        let total = universe.reduce(0.0) { $0 + Double(max(0, $1.bars)) }
        var before: [Double] = [0]
        for entry in universe { before.append((before.last ?? 0) + Double(max(0, entry.bars))) }
        var bounds = [0]
        for k in 1..<count {
            let target = total * Double(k) / Double(count)
            var i = (bounds.last ?? 0) + 1
            while i < universe.count - (count - k), before[i] < target { i += 1 }
            bounds.append(i)
        }
        bounds.append(universe.count)
        return bounds[index]..<bounds[index + 1]
    }
}

/// What a file shard wrote (`shard.json`, written after its books: a shard without it did not finish).
public struct FileShardRecord: Sendable, Equatable {
    /// One symbol the shard read: its bars' digest and its catalogue files.
    public struct SymbolRead: Sendable, Hashable {
        /// The symbol.
        public var symbol: String
        /// `SweepFingerprint.barsDigest` of its bars.
        public var digest: String
        /// Its files, relative to the catalogue.
        public var files: [String]

        /// An entry.
        public init(symbol: String, digest: String, files: [String]) {
            (self.symbol, self.digest, self.files) = (symbol, digest, files)
        }
    }

    /// One configuration's book file.
    public struct Book: Sendable, Equatable {
        /// The configuration's id in the whole sweep.
        public var id: Int
        /// Its parameters.
        public var parameters: ParameterSet
        /// The file, relative to the shard's folder.
        public var file: String
        /// Its length and FNV-1a 64 digest: a cut or changed file is refused.
        public var bytes: Int
        public var digest: String

        /// An entry.
        public init(id: Int, parameters: ParameterSet, file: String, bytes: Int, digest: String) {
            (self.id, self.parameters, self.file, self.bytes, self.digest) = (id, parameters, file, bytes, digest)
        }
    }

    /// The sweep: strategy, parameters, objective, configurations, this shard, and in `fingerprint` the settings'
    /// digest (`SweepFingerprint.settingsDigest`); `periodsPerYear` is this shard's (of its longest series).
    public var header: SweepHeader
    /// The whole sweep's symbols (every shard holds the same plan).
    public var universe: [FileShardPlan.Entry]
    /// The symbols this shard read, in order.
    public var symbols: [SymbolRead]
    /// Bars of this shard's longest series: the merge takes the periods per year of the first longest of all, as a
    /// single run does.
    public var longestSeries: Int
    /// One book per configuration, in id order.
    public var books: [Book]

    /// A record.
    public init(
        header: SweepHeader, universe: [FileShardPlan.Entry], symbols: [SymbolRead], longestSeries: Int, books: [Book]
    ) {
        (self.header, self.universe, self.symbols, self.longestSeries, self.books) = (header, universe, symbols, longestSeries, books)
    }

    /// The FNV-1a 64 digest of a book's bytes, 16 hex digits.
    public static func digest(_ bytes: [UInt8]) -> String { StableHash.fnv1a64Hex(bytes: bytes) }

    /// `shard.json`.
    public func json() -> String {
        JSONValue.object(header.jsonFields.merging([
            "kind": .string("optimize file shard"),
            "shard": .string(header.shard.description),
            "longest_series": .integer(longestSeries),
            "universe": .array(universe.map { .array([.string($0.symbol), .integer($0.bars)]) }),
            "symbols": .array(symbols.map {
                .object(["symbol": .string($0.symbol), "bars": .string($0.digest), "files": .array($0.files.map(JSONValue.string))])
            }),
            "books": .array(books.map {
                .object([
                    "config": .integer($0.id), "parameters": .array($0.parameters.entries.map { .string(ResultFormat.number($0.value)) }),
                    "file": .string($0.file), "bytes": .integer($0.bytes), "digest": .string($0.digest),
                ])
            }),
        ]) { _, new in new }).serialized()
    }

    /// Reads `shard.json`.
    /// - Throws: `ResearchError.malformedResults` naming `source` and the key.
    public init(json text: String, source: String) throws(ResearchError) {
        func bad(_ key: String) -> ResearchError { .malformedResults("\(source): missing or bad '\(key)'") }
        guard let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] else {
            throw .malformedResults("\(source) is not a JSON object")
        }
        guard object["kind"] as? String == "optimize file shard" else { throw bad("kind") }
        header = try SweepResults.parseHeader(text, source: source)
        guard header.shard.count >= 1, object["shard"] != nil else { throw bad("shard") }
        guard let longest = (object["longest_series"] as? NSNumber)?.intValue else { throw bad("longest_series") }
        longestSeries = longest
        guard let universe = object["universe"] as? [[Any]] else { throw bad("universe") }
        self.universe = try universe.map { (pair) throws(ResearchError) in
            guard pair.count == 2, let symbol = pair[0] as? String, let bars = (pair[1] as? NSNumber)?.intValue else {
                throw bad("universe")
            }
            return FileShardPlan.Entry(symbol: symbol, bars: bars)
        }
        guard let symbols = object["symbols"] as? [[String: Any]] else { throw bad("symbols") }
        self.symbols = try symbols.map { (entry) throws(ResearchError) in
            guard let symbol = entry["symbol"] as? String, let digest = entry["bars"] as? String,
                let files = entry["files"] as? [String]
            else { throw bad("symbols") }
            return SymbolRead(symbol: symbol, digest: digest, files: files)
        }
        guard let books = object["books"] as? [[String: Any]] else { throw bad("books") }
        let names = header.parameterNames
        self.books = try books.map { (entry) throws(ResearchError) in
            guard let id = (entry["config"] as? NSNumber)?.intValue, let texts = entry["parameters"] as? [String],
                texts.count == names.count, let file = entry["file"] as? String,
                let bytes = (entry["bytes"] as? NSNumber)?.intValue, let digest = entry["digest"] as? String
            else { throw bad("books") }
            var values: [(name: String, value: Double)] = []
            for (name, text) in zip(names, texts) {
                guard let value = Double(text) else { throw bad("books") }
                values.append((name, value))
            }
            return Book(id: id, parameters: ParameterSet(values), file: file, bytes: bytes, digest: digest)
        }
    }
}

extension FileShardRecord {
    /// Checks that `records` are every shard of one file-sharded sweep, and returns them in shard order with the
    /// whole sweep's header (its fingerprint and periods per year as a single run computes them).
    /// - Throws: `ResearchError.inconsistentShards` naming the first mismatch.
    public static func check(_ records: [FileShardRecord]) throws(ResearchError) -> (header: SweepHeader, shards: [FileShardRecord]) {
        guard let first = records.first else { throw .inconsistentShards("nothing to merge") }
        try Shard.checkComplete(records.map(\.header.shard))
        let ordered = records.sorted { $0.header.shard.index < $1.header.shard.index }
        func identity(_ header: SweepHeader) -> SweepHeader {
            var plain = header
            (plain.shard, plain.periodsPerYear) = (.whole, 0)
            return plain
        }
        let plan = try FileShardPlan(universe: first.universe, count: first.header.shard.count)
        for record in ordered {
            let name = "shard \(record.header.shard)"
            guard identity(record.header) == identity(first.header) else {
                throw .inconsistentShards("\(name) describes a different sweep (strategy, settings or objective) than the first")
            }
            guard record.universe == first.universe else {
                throw .inconsistentShards("\(name) was planned over other symbols (a changed catalogue or --symbols?)")
            }
            let mine = plan.symbols(of: record.header.shard.index).map { first.universe[$0].symbol }
            guard record.symbols.map(\.symbol) == mine else {
                throw .inconsistentShards("\(name) read other symbols than its share of the plan")
            }
            guard record.books.map(\.id) == Array(0..<first.header.configurations) else {
                throw .inconsistentShards("\(name) holds \(record.books.count) of \(first.header.configurations) configurations")
            }
            for (book, other) in zip(record.books, first.books) where book.parameters != other.parameters {
                throw .inconsistentShards("\(name) ran configuration \(book.id) with other parameters (\(book.parameters))")
            }
        }
        // The periods per year of the first longest series, as one run measures them.
        var chosen = ordered[0]
        for record in ordered.dropFirst() where record.longestSeries > chosen.longestSeries { chosen = record }
        var header = first.header
        header.shard = .whole
        header.periodsPerYear = chosen.header.periodsPerYear
        header.fingerprint = SweepFingerprint.combine(
            settings: first.header.fingerprint, periodsPerYear: header.periodsPerYear,
            symbols: ordered.flatMap { $0.symbols.map { ($0.symbol, $0.digest) } })
        return (header, ordered)
    }

    /// The whole sweep's results from its file shards: each configuration's books summed in shard order and measured.
    /// - Parameters:
    ///   - records: every shard's record.
    ///   - read: the bytes of shard `k`'s book (checked here against the record).
    ///   - maxConcurrency: configurations merged at once.
    /// - Returns: the results and the best configuration's book (for its chart).
    /// - Throws: `ResearchError` for shards that do not belong together or a damaged book.
    public static func merge(
        _ records: [FileShardRecord], maxConcurrency: Int,
        read: @escaping @Sendable (_ shard: Int, _ book: Book) throws(ResearchError) -> [UInt8]
    ) async throws(ResearchError) -> (results: SweepResults, best: PooledBook?) {
        let (header, shards) = try check(records)
        let configurations = shards[0].books.map { (id: $0.id, parameters: $0.parameters) }
        let sum: @Sendable (Int) throws(ResearchError) -> PooledBook = { id throws(ResearchError) in
            var book = PooledBook()
            for (k, shard) in shards.enumerated() {
                let entry = shard.books[id]
                let bytes = try read(k, entry)
                guard bytes.count == entry.bytes, digest(bytes) == entry.digest else {
                    throw .inconsistentShards(
                        "shard \(shard.header.shard)'s \(entry.file) is not the file it wrote (\(bytes.count) of \(entry.bytes) bytes, "
                            + "or changed since): run the shard again")
                }
                book.add(try PooledBook(decoding: bytes, source: entry.file))
            }
            return book
        }
        let periodsPerYear = header.periodsPerYear
        let measured = try await SweepRunner.map(
            configurations, data: MarketData(universe: Universe(instruments: []), series: []), maxConcurrency: maxConcurrency,
            evaluate: { (id, _, _) throws(ResearchError) in try sum(id).metrics(periodsPerYear: periodsPerYear) })
        let results = SweepResults(
            header: header, rows: measured.map { SweepRow(id: $0.id, parameters: $0.parameters, metrics: $0.output) })
        guard let best = results.best else { return (results, nil) }
        return (results, try sum(best.id))
    }
}
