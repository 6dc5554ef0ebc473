/// Text an operator reads (log lines, alerts, journal events, command output) says what happened in words. A Swift
/// type or enum dump in it (`CancellationError()`, `HTTPClientError.deadlineExceeded`, `errorCode:`, a `.swift`
/// file, a coding path `Path: _1._0[0]`) means an error was interpolated raw: `leak(in:)` finds it, so the fault
/// catalogue's runs can be scanned for it (FaultSoak, `OperatorTextTests`).
public enum OperatorText {
    /// The first Swift-looking fragment of `text`, or `nil` when it reads as words.
    public static func leak(in text: String) -> String? {
        for marker in ["errorCode:", ".swift", "Path: _", "Optional(", "Swift."] where text.contains(marker) {
            return marker
        }
        // A type named …Error or …Failure, called or with a case after it: `CancellationError()`, `Foo.Error.bar`.
        var rest = Substring(text)
        while let range = [rest.range(of: "Error"), rest.range(of: "Failure")].compactMap({ $0 })
            .min(by: { $0.lowerBound < $1.lowerBound })
        {
            let before = rest[..<range.lowerBound].last
            let after = rest[range.upperBound...].prefix(2)
            let typeName = before.map { $0.isLetter } ?? false
            if typeName, after.first == "(" { return String(rest[..<range.upperBound].suffix(30)) + "(" }
            if typeName, after.first == ".", after.dropFirst().first?.isLowercase == true {
                return String(rest[..<range.upperBound].suffix(30)) + String(after)
            }
            rest = rest[range.upperBound...]
        }
        return nil
    }
}
