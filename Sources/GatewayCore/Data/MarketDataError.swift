/// Why a data folder could not be loaded.
public struct MarketDataError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, with the file or folder it concerns.
    public var message: String
    /// Creates an error.
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
