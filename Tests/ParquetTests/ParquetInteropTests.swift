import Foundation
import Testing
import TWSTestSupport

@testable import Parquet

/// Files we write, read by pyarrow, DuckDB and Polars (pinned by scripts/setup-python.sh in the venv that
/// IBTRADER_PYTHON names, through Tests/Interop/parquet_read.py): each sees the same columns, types and values.
///
/// Without IBTRADER_PYTHON the tests are skipped on a developer's machine; under CI (`CI` set) they run and fail.
@Suite(.enabled(if: PythonReaders.runs, "set IBTRADER_PYTHON to the python of scripts/setup-python.sh"))
struct ParquetInteropTests {
    @Test(arguments: [ParquetEncoding.plain, .deltaBinaryPacked])
    func threeReadersSeeWhatWasWritten(encoding: ParquetEncoding) async throws {
        var table = ParquetRoundTripTests.table(rows: 1_000, seed: 9)
        table.columns[1].values[3] = 0
        table.columns[1].values[4] = -50_000_000
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parquet-interop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("bars.parquet")
        try Data(ParquetWriter.write(table, encoding: encoding, rowGroupRows: 400, pageRows: 150)).write(to: file)

        let views = try await PythonReaders.read(file.path)
        let expectedRows = (0..<table.rowCount).map { row in
            [
                PythonReaders.iso(nanoseconds: table.columns[0].values[row]),
                PythonReaders.decimal(table.columns[1].values[row], scale: 8),
                String(table.columns[2].values[row]),
            ]
        }
        for reader in ["pyarrow", "duckdb", "polars"] {
            let view = try #require(views[reader], "\(reader) printed nothing")
            #expect(view.schema["ts"]?.hasPrefix("timestamp[ns") == true, "\(reader): \(view.schema)")
            #expect(view.schema["close"] == "decimal128(18, 8)", "\(reader): \(view.schema)")
            #expect(view.schema["volume"] == "int64", "\(reader): \(view.schema)")
            #expect(view.rows == expectedRows, "\(reader) read other values")
        }
    }
}
