import Foundation
import Parquet

// Benchmarks/parquet: the catalogue's file format on its own (scripts/bench-parquet.sh builds it with swiftc -O).
// One million one-minute bars of six columns (ts, open, high, low, close, volume) as the catalogue writes them;
// each encoding written and read back 5 times, the median reported; the delta file is left at argv[1] for the peers.
let rows = 1_000_000
var time: Int64 = 1_700_000_000_000_000_000
var price: Int64 = 150_00000000
var state: UInt64 = 1
var times: [Int64] = [], prices: [Int64] = [], volumes: [Int64] = []
for _ in 0..<rows {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    time += 60_000_000_000
    price += Int64((state >> 33) % 2_000_001) - 1_000_000  // ±1 cent a minute
    times.append(time)
    prices.append(price)
    volumes.append(Int64((state >> 20) % 100_000) * 10_000)
}
let decimal = ParquetColumn.Kind.decimal(precision: 18, scale: 8)
let table = ParquetTable(columns: [
    ParquetColumn(name: "ts", kind: .timestampNanosecondsUTC, values: times),
    ParquetColumn(name: "open", kind: decimal, values: prices), ParquetColumn(name: "high", kind: decimal, values: prices),
    ParquetColumn(name: "low", kind: decimal, values: prices), ParquetColumn(name: "close", kind: decimal, values: prices),
    ParquetColumn(name: "volume", kind: .decimal(precision: 18, scale: 4), values: volumes),
])

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

// zstd through the system's library (Sources/Storage/Catalogue/SystemZstd.swift is compiled in beside this file).
let zstd = SystemZstd.shared?.parquet
if zstd == nil { print("no libzstd on this machine: the zstd row is skipped") }
let rowsToRun: [(String, ParquetEncoding, ParquetCompression?)] =
    [("DELTA_BINARY_PACKED", .deltaBinaryPacked, nil), ("PLAIN", .plain, nil)]
    + (zstd.map { [("DELTA_BINARY_PACKED + zstd", .deltaBinaryPacked, $0)] } ?? [])
for (name, encoding, compression) in rowsToRun {
    var writes: [Double] = []
    var reads: [Double] = []
    var bytes: [UInt8] = []
    for _ in 0..<5 {
        let clock = ContinuousClock()
        let started = clock.now
        bytes = ParquetWriter.write(table, encoding: encoding, compression: compression)
        writes.append(seconds(clock.now - started))
        let readStart = clock.now
        let back = try ParquetReader.read(bytes, codecs: compression.map { [$0] } ?? [])
        reads.append(seconds(clock.now - readStart))
        precondition(back.rowCount == rows)
    }
    let write = writes.sorted()[2]
    let read = reads.sorted()[2]
    print(String(
        format: "ibtrader %@: %.1f bytes a bar, write %.3f s, read %.3f s (%.1f M bars/s)", name,
        Double(bytes.count) / Double(rows), write, read, Double(rows) / read / 1e6))
    if encoding == .deltaBinaryPacked, compression == nil, CommandLine.arguments.count > 1 {
        try Data(bytes).write(to: URL(fileURLWithPath: CommandLine.arguments[1]))
    }
}
