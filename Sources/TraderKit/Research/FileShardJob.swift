import Analytics
import Foundation
import Research
import Storage
import TraderConfig
import TradingModel

/// Which of a catalogue's symbols a file shard reads, and their files.
public struct FileShardScope: Sendable {
    /// The plan every shard of the sweep computes alike.
    public var plan: FileShardPlan
    /// This shard.
    public var shard: Shard
    /// Each loaded symbol's files, relative to the catalogue.
    public var files: [String: [String]]

    /// Narrows `resolved` to shard `shard`'s symbols of a catalogue.
    /// - Throws: `TraderError` when the sweep cannot be split by files (not each symbol alone, no catalogue, data
    ///   shared between symbols) or has fewer symbols than shards.
    init(
        picking shard: Shard, of resolved: inout DataSourceResolver.Resolved, _ configuration: TraderConfiguration
    ) throws(TraderError) {
        let why = "--shard-unit files gives each shard whole symbols"
        guard configuration.sweep.eachSymbol else {
            throw TraderError("\(why), so each symbol must run alone: add --each-symbol (sweep.eachSymbol: true)")
        }
        guard let store = resolved.store, resolved.storeFormat == .parquet else {
            throw TraderError("\(why) of a catalogue: use --data parquet:DIR (write one with `ibtrader data import SOURCE --catalogue DIR`)")
        }
        guard resolved.continuous.isEmpty, resolved.ratePairs.isEmpty, configuration.risk.limits.volatilitySymbol == nil else {
            throw TraderError(
                "\(why), but this sweep reads bars across symbols (a continuous future, a currency pair for rates or "
                    + "risk.volatilitySymbol): shard it by configurations (--shard-unit configurations)")
        }
        let catalogue = BarCatalogue(path: store.path)
        let counts: [Symbol: Int]
        do {
            counts = Dictionary(
                try catalogue.seriesSummaries().filter { $0.barSize == store.barSize }.map { ($0.symbol, $0.count) },
                uniquingKeysWith: { a, _ in a })
        } catch {
            throw TraderError("--data parquet:\(store.path): \(error)")
        }
        let universe = store.symbols.map { FileShardPlan.Entry(symbol: $0.rawValue, bars: counts[$0] ?? 0) }
        guard shard.count <= universe.count else {
            throw TraderError(
                "--shard \(shard) --shard-unit files: \(universe.count) symbol\(universe.count == 1 ? "" : "s") make at most "
                    + "\(universe.count) file shards (a shard takes whole symbols)")
        }
        do throws(ResearchError) {
            plan = try FileShardPlan(universe: universe, count: shard.count)
        } catch {
            throw TraderError("--shard \(shard): \(error)")
        }
        let mine = Array(store.symbols[plan.symbols(of: shard.index)])
        self.shard = shard
        files = Dictionary(uniqueKeysWithValues: mine.map { ($0.rawValue, catalogue.files(symbol: $0, barSize: store.barSize)) })
        resolved.store?.symbols = mine
    }
}

/// `optimize --shard K/N --shard-unit files` and the merge of such shards.
public enum FileShardJob {
    /// Runs every configuration on the shard's symbols and writes each configuration's pooled book
    /// (`books/ID.bin`), then `shard.json` last: a folder without it is no finished shard.
    static func run(
        _ job: ResearchJob, scope: FileShardScope, out: String, concurrency: Int, progress: Bool,
        print: (String) -> Void
    ) async throws {
        let (configurations, total) = SweepRequest(space: job.space, objective: job.objective).configurations()
        guard total > 0 else { throw TraderError(ResearchError.emptySweep.description) }
        let evaluator = job.evaluator
        // An old shard.json would vouch for books this run is about to replace.
        try? FileManager.default.removeItem(atPath: out + "/shard.json")
        do {
            try FileManager.default.createDirectory(atPath: out + "/books", withIntermediateDirectories: true)
        } catch {
            throw ShardExit.OutputFailure(TraderError("cannot create \(out)/books: \(error.localizedDescription)"))
        }
        let clock = ContinuousClock()
        let started = clock.now
        let books: [(id: Int, parameters: ParameterSet, output: FileShardRecord.Book)]
        do {
            books = try await SweepRunner.map(
                configurations, data: job.data, maxConcurrency: concurrency,
                evaluate: { (id, parameters, data) throws(ResearchError) in
                    let bytes = try evaluator.pooledBook(parameters, data: data).encoded()
                    let file = "books/\(id).bin"
                    do {
                        try Data(bytes).write(to: URL(fileURLWithPath: out + "/" + file), options: .atomic)
                    } catch {
                        throw .writeFailed("\(out)/\(file): \(error.localizedDescription)")
                    }
                    return FileShardRecord.Book(
                        id: id, parameters: parameters, file: file, bytes: bytes.count, digest: FileShardRecord.digest(bytes))
                },
                progress: ResearchProgress(label: "optimize", enabled: progress).callback)
        } catch {
            if case .writeFailed = error { throw ShardExit.OutputFailure(error) }
            throw TraderError("\(error)")
        }
        let elapsed = (clock.now - started).secondsValue
        let data = job.data
        let symbols = data.series.indices.map { k in
            let symbol = data.universe.instruments[k].symbol.rawValue
            return FileShardRecord.SymbolRead(
                symbol: symbol, digest: SweepFingerprint.barsDigest(data.series[k]), files: scope.files[symbol] ?? [])
        }
        let record = FileShardRecord(
            header: SweepHeader(
                strategy: evaluator.strategyName, parameterNames: job.space.ranges.map(\.name), objective: job.objective,
                configurations: total, periodsPerYear: job.periodsPerYear, shard: scope.shard,
                fingerprint: SweepFingerprint.settingsDigest(evaluator)),
            universe: scope.plan.universe, symbols: symbols, longestSeries: data.series.map(\.count).max() ?? 0,
            books: books.map(\.output))
        do { try TextFiles.write(record.json(), to: out + "/shard.json") } catch { throw ShardExit.OutputFailure(error) }
        let fileCount = symbols.reduce(0) { $0 + $1.files.count }
        let size = Double(books.reduce(0) { $0 + $1.output.bytes }) / 1_000_000
        print("\(job.strategyName) on \(job.dataDescription), file shard \(scope.shard): \(symbols.count) symbol"
            + "\(symbols.count == 1 ? "" : "s") (\(fileCount) file\(fileCount == 1 ? "" : "s")), each alone, pooled: \(total) configurations in "
            + String(format: "%.2f s (%d jobs)", elapsed, concurrency))
        print("wrote \(out)/shard.json and \(books.count) books (" + String(format: "%.1f MB", size) + ")")
        print("when every shard is done: ibtrader optimize merge FOLDER... --out DIR (the shards' folders, any order)")
    }

    /// Whether `folder` is a file shard's (it has `shard.json`, or books without it: an unfinished one).
    static func isFileShard(_ folder: String) -> Bool {
        let files = FileManager.default
        return files.fileExists(atPath: folder + "/shard.json") || files.fileExists(atPath: folder + "/books")
    }

    /// Merges file shards' folders into the whole sweep's results and the best configuration's book.
    /// - Throws: `TraderError` for a missing or unfinished shard, a damaged book, or shards of different sweeps.
    static func merge(_ folders: [String], concurrency: Int) async throws(TraderError) -> (SweepResults, PooledBook?) {
        var records: [FileShardRecord] = []
        for folder in folders {
            let path = folder + "/shard.json"
            guard FileManager.default.fileExists(atPath: path) else {
                throw TraderError("\(folder) has books but no shard.json: the shard did not finish; run it again")
            }
            let text = try TextFiles.read(path)
            do throws(ResearchError) {
                records.append(try FileShardRecord(json: text, source: path))
            } catch {
                throw TraderError(error.description)
            }
        }
        let ordered = folders.enumerated().sorted { records[$0.offset].header.shard.index < records[$1.offset].header.shard.index }
            .map(\.element)
        do throws(ResearchError) {
            return try await FileShardRecord.merge(records, maxConcurrency: concurrency) { (k, book) throws(ResearchError) in
                let path = ordered[k] + "/" + book.file
                guard let data = FileManager.default.contents(atPath: path) else {
                    throw .inconsistentShards("\(path) is missing: run shard \(k) again")
                }
                return [UInt8](data)
            }
        } catch {
            throw TraderError(error.description)
        }
    }
}
