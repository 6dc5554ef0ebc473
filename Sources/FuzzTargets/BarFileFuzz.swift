import Backtest
import Foundation

extension FuzzTargets {
    /// Bar file text: the bytes after the header line, loaded with `--bad-rows fail` and `skip` (the header is
    /// given, so every input reaches the row parser; an input starting with `#` replaces it, to reach the header
    /// check too).
    public static func barFile(_ bytes: UnsafeRawBufferPointer) {
        var data = Data()
        if bytes.first != UInt8(ascii: "#") { data.append(contentsOf: Array("date,open,high,low,close,volume\n".utf8)) }
        data.append(contentsOf: bytes)
        _ = try? BarCSVLoader.parse(data, file: "fuzz.csv", policy: .fail)
        _ = try? BarCSVLoader.parse(data, file: "fuzz.csv", policy: .skip)
    }
}
