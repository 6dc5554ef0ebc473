import Backtest
import Simulation
import Testing
import TradingEngine
import TradingModel

@testable import Research

/// `--shard-unit files`: shards that each run every configuration on a share of the symbols, write their pooled
/// books, and merge into exactly the single each-symbol sweep (rows, `results.csv`, `best.json` and its fingerprint).
@Suite struct FileShardTests {
    /// Six symbols, two of them ragged (one starts late, one ends early), with IB's fixed commissions.
    static let market: MarketData = {
        let generated = SyntheticMarket.generate(SyntheticMarketConfig(symbols: 6, bars: 360, seed: 23))
        var series = generated.series
        series[2] = Array(series[2][90...])
        series[4] = Array(series[4][..<250])
        return MarketData(universe: generated.universe, series: series)
    }()
    static func space() throws -> ParameterSpace {
        try ParameterSpace(ranges: [ParameterRange(parsing: "fastPeriod=5:15:5"), ParameterRange(parsing: "slowPeriod=20:40:10")])
    }

    static var evaluator: BacktestEvaluator {
        var config = BacktestConfig()
        config.engine.initialCash = Money(50_000)
        config.simulation.commission = .ibkrFixedDefault
        var evaluator = BacktestEvaluator(
            spec: .movingAverageCrossover(
                config: MovingAverageCrossoverConfig(fastPeriod: 10, slowPeriod: 30, sizing: .fixedQuantity(Quantity(30)))),
            config: config)
        evaluator.eachSymbol = true
        return evaluator
    }

    static func subset(_ range: Range<Int>) -> MarketData {
        MarketData(
            universe: Universe(instruments: Array(market.universe.instruments[range])), series: Array(market.series[range]))
    }

    /// What shard `index` of `count` writes: its record and its books' bytes by configuration id.
    static func runShard(_ index: Int, of count: Int) throws -> (record: FileShardRecord, books: [[UInt8]]) {
        let universe = market.series.indices.map {
            FileShardPlan.Entry(symbol: market.universe.instruments[$0].symbol.rawValue, bars: market.series[$0].count)
        }
        let plan = try FileShardPlan(universe: universe, count: count)
        let data = subset(plan.symbols(of: index))
        let evaluator = Self.evaluator
        var entries: [FileShardRecord.Book] = []
        var bytes: [[UInt8]] = []
        let space = try Self.space()
        for (id, parameters) in space.configurations.enumerated() {
            let encoded = try evaluator.pooledBook(parameters, data: data).encoded()
            bytes.append(encoded)
            entries.append(FileShardRecord.Book(
                id: id, parameters: parameters, file: "books/\(id).bin", bytes: encoded.count, digest: FileShardRecord.digest(encoded)))
        }
        let record = FileShardRecord(
            header: SweepHeader(
                strategy: evaluator.strategyName, parameterNames: space.ranges.map(\.name), objective: try Objective(),
                configurations: space.configurations.count, periodsPerYear: evaluator.periodsPerYear,
                shard: try Shard(index: index, count: count), fingerprint: SweepFingerprint.settingsDigest(evaluator)),
            universe: universe,
            symbols: data.series.indices.map {
                FileShardRecord.SymbolRead(
                    symbol: data.universe.instruments[$0].symbol.rawValue, digest: SweepFingerprint.barsDigest(data.series[$0]),
                    files: ["bar_size=1day/symbol=\(data.universe.instruments[$0].symbol.rawValue)/year=2024/x.parquet"])
            },
            longestSeries: data.series.map(\.count).max() ?? 0, books: entries)
        return (record, bytes)
    }

    static func merge(_ shards: [(record: FileShardRecord, books: [[UInt8]])]) async throws -> (SweepResults, PooledBook?) {
        let ordered = shards.sorted { $0.record.header.shard.index < $1.record.header.shard.index }
        let books = ordered.map(\.books)
        return try await FileShardRecord.merge(shards.map(\.record), maxConcurrency: 2) { (k, book) throws(ResearchError) in
            books[k][book.id]
        }
    }

    @Test(arguments: [1, 2, 3, 6])
    func mergedFileShardsAreTheSingleRunToTheByte(shards: Int) async throws {
        let whole = try await SweepRequest(space: try Self.space(), objective: try Objective())
            .run(data: Self.market, evaluator: Self.evaluator, maxConcurrency: 2)
        // Given out of order: the merge orders them by shard.
        let parts = try (0..<shards).reversed().map { try Self.runShard($0, of: shards) }
        let (merged, best) = try await Self.merge(parts)
        #expect(merged.csv() == whole.csv())
        #expect(merged.bestJSON() == whole.bestJSON())
        #expect(merged.header.fingerprint == whole.header.fingerprint)
        #expect(whole.rows.allSatisfy { ($0.metrics["trades"] ?? 0) > 5 })
        let bestRow = try #require(whole.best)
        #expect(best?.equity == (try Self.evaluator.pooledBook(bestRow.parameters, data: Self.market)).equity)
    }

    @Test func booksAddedShardByShardAreTheBookOfAllAccounts() throws {
        let parameters = try #require(try Self.space().configurations.last)
        let whole = try Self.evaluator.pooledBook(parameters, data: Self.market)
        var summed = PooledBook()
        for range in [0..<2, 2..<3, 3..<6] { summed.add(try Self.evaluator.pooledBook(parameters, data: Self.subset(range))) }
        #expect(summed.times == whole.times)
        #expect(summed.equity == whole.equity && summed.cash == whole.cash && summed.gross == whole.gross)
        #expect(summed.orderedTrades == whole.orderedTrades)
        #expect(summed.tradeAccounts == whole.tradeAccounts)
        #expect((summed.accounts, summed.initialCash) == (6, whole.initialCash))
        #expect(try summed.metrics(periodsPerYear: 252) == whole.metrics(periodsPerYear: 252))
    }

    @Test func aBookReadsBackExactly() throws {
        let parameters = try #require(try Self.space().configurations.first)
        let book = try Self.evaluator.pooledBook(parameters, data: Self.market)
        let bytes = book.encoded()
        let read = try PooledBook(decoding: bytes, source: "b.bin")
        #expect(read.times == book.times && read.equity == book.equity && read.cash == book.cash && read.gross == book.gross)
        #expect(read.trades == book.trades && read.tradeAccounts == book.tradeAccounts)
        #expect((read.accounts, read.initialCash) == (book.accounts, book.initialCash))
        #expect(!book.trades.isEmpty)
        // Differences as varints: smaller than four raw integers a point and a trade's nine raw fields.
        #expect(bytes.count < book.times.count * 32 + book.trades.count * 72)
        #expect(try PooledBook(decoding: PooledBook().encoded(), source: "empty").times.isEmpty)
    }

    @Test func aDamagedBookIsRefusedNeverTrusted() throws {
        let parameters = try #require(try Self.space().configurations.first)
        let bytes = try Self.evaluator.pooledBook(parameters, data: Self.subset(0..<2)).encoded()
        // Every cut is refused.
        for length in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 400)) {
            #expect(throws: ResearchError.self) { try PooledBook(decoding: Array(bytes[..<length]), source: "cut.bin") }
        }
        #expect(throws: ResearchError.self) { try PooledBook(decoding: bytes + [0], source: "long.bin") }
        // Random damage: refused or read, never a crash or an unbounded allocation.
        var generator = SplitMix64(seed: 5)
        var refused = 0
        for _ in 0..<2_000 {
            var damaged = bytes
            for _ in 0..<(1 + Int(generator.next() % 4)) {
                damaged[Int(generator.next() % UInt64(damaged.count))] = UInt8(truncatingIfNeeded: generator.next())
            }
            if (try? PooledBook(decoding: damaged, source: "damaged.bin")) == nil { refused += 1 }
        }
        #expect(refused > 0)
        var version = bytes
        version[4] = 9
        #expect(throws: ResearchError.self) { try PooledBook(decoding: version, source: "v9.bin") }
    }

    @Test func thePlanCutsContiguousNonEmptyShareOfTheBars() throws {
        let universe = (0..<10).map { FileShardPlan.Entry(symbol: "S\($0)", bars: $0 == 0 ? 1_000 : 100) }
        for count in 1...10 {
            let plan = try FileShardPlan(universe: universe, count: count)
            let ranges = (0..<count).map(plan.symbols(of:))
            #expect(ranges.first?.lowerBound == 0 && ranges.last?.upperBound == 10)
            #expect(ranges.allSatisfy { !$0.isEmpty })
            #expect(zip(ranges, ranges.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
        }
        // The heavy first symbol is a shard of its own; the other nine share the rest.
        let halves = try FileShardPlan(universe: universe, count: 2)
        #expect(halves.symbols(of: 0) == 0..<1 && halves.symbols(of: 1) == 1..<10)
        #expect(throws: ResearchError.self) { try FileShardPlan(universe: universe, count: 11) }
    }

    @Test func theRecordReadsBackAndShardsThatDoNotBelongAreRefused() async throws {
        let parts = try (0..<3).map { try Self.runShard($0, of: 3) }
        let text = parts[1].record.json()
        #expect(try FileShardRecord(json: text, source: "shard.json") == parts[1].record)
        #expect(throws: ResearchError.self) { try FileShardRecord(json: "{}", source: "shard.json") }

        func refusal(_ records: [FileShardRecord]) -> String {
            do {
                _ = try FileShardRecord.check(records)
                return "merged"
            } catch {
                return error.description
            }
        }
        let records = parts.map(\.record)
        #expect(refusal(records) == "merged")
        #expect(refusal([records[0], records[2]]).contains("shard 1/3 is missing"))
        #expect(refusal([records[0], records[1], records[1], records[2]]).contains("given twice"))
        var other = records[1]
        other.header.fingerprint = "0000000000000000"
        #expect(refusal([records[0], other, records[2]]).contains("different sweep"))
        other = records[1]
        other.universe[0].bars += 1
        #expect(refusal([records[0], other, records[2]]).contains("other symbols"))
        other = records[1]
        other.symbols.removeLast()
        #expect(refusal([records[0], other, records[2]]).contains("other symbols than its share"))
        other = records[1]
        other.books.removeLast()
        #expect(refusal([records[0], other, records[2]]).contains("configurations"))
        // A book that is not the one the record vouches for.
        var damaged = parts
        damaged[2].books[3] = Array(damaged[2].books[3].dropLast())
        await #expect(throws: ResearchError.self) { _ = try await Self.merge(damaged) }
    }
}
