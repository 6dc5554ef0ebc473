import GatewayCore
/// Cuts the admin port's byte stream into command lines in linear time: every byte is looked at once, and a line
/// longer than `maximumLineLength` is not buffered (its bytes are dropped up to the newline, and it is reported
/// once), so a client sending megabytes without a newline costs neither quadratic time nor memory.
struct AdminLineReader {
    /// What the bytes amounted to.
    enum Item: Sendable, Equatable {
        /// A complete line, without its newline and surrounding whitespace (empty lines are left out).
        case line(String)
        /// A line longer than `maximumLineLength` (dropped).
        case tooLong
    }

    /// The longest command line accepted, in bytes.
    static let maximumLineLength = 1_024

    private var line: [UInt8] = []
    private var isOverlong = false

    /// Consumes received bytes.
    /// - Returns: the lines they completed, in order.
    mutating func receive<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> [Item] {
        var items: [Item] = []
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                if isOverlong {
                    items.append(.tooLong)
                } else {
                    let text = String(decoding: line, as: UTF8.self).trimmingWhitespace()
                    if !text.isEmpty { items.append(.line(text)) }
                }
                line.removeAll(keepingCapacity: true)
                isOverlong = false
            } else if !isOverlong {
                if line.count == Self.maximumLineLength {
                    isOverlong = true
                    line.removeAll()
                } else {
                    line.append(byte)
                }
            }
        }
        return items
    }
}

extension String {
    /// The text without leading and trailing spaces, tabs and carriage returns.
    fileprivate func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
