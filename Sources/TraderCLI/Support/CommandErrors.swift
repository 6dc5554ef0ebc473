import TraderKit

/// A user-facing failure: printed as `Error: <message>` and the process exits non-zero.
typealias CLIError = TraderError
