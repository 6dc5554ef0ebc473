/// What an errMsg code means for the client (PROTOCOL.md §7). Match on codes, never on texts.
public enum TWSErrorDisposition: Sendable, Equatable {
    /// Informational or a warning: delivered as a `TWSNotice` value, the request goes on.
    case notice
    /// The request it names is over (no security definition, rejected order, pacing violation, …).
    case terminal
    /// A change of the connection between TWS and IB, or of our socket.
    case connection(TWSConnectionSignal)
    /// A code the client produces itself; TWS never sends it (502, 504).
    case clientSide
}

/// Connection-level signals carried by errMsg codes.
public enum TWSConnectionSignal: Sendable, Equatable {
    /// 1100: connectivity between TWS and IB lost.
    case lost
    /// 1101 (`dataLost: true`: market data subscriptions must be resubmitted) or 1102 (`dataLost: false`).
    case restored(dataLost: Bool)
    /// 326: the clientId is in use; TWS closes the socket.
    case clientIDInUse
}

/// A user's reclassification of one errMsg code (`connection.errorCodes`): IB adds and repurposes codes between
/// releases (10349 is an order going on, not a cancellation; 2188 an entitlement notice), so the table can be
/// corrected without a new release. Connection codes (1100, 1101, 1102, 326) and the client's own (502, 504) keep
/// their meaning.
public enum TWSErrorOverride: String, Sendable, Hashable, CaseIterable {
    /// Information or a warning: the request goes on.
    case notice
    /// The request it names is over.
    case terminal

    /// Codes whose meaning cannot be overridden.
    public static let fixedCodes: Set<Int> = [1100, 1101, 1102, 326, 502, 504]
}

/// Classifies errMsg codes, from the table of IB's codes (`TWSErrorTable`).
///
/// ```swift
/// TWSErrorClassification.disposition(code: 2104, requestID: -1)   // .notice
/// TWSErrorClassification.disposition(code: 200, requestID: 7)     // .terminal
/// ```
public enum TWSErrorClassification {
    /// The disposition of an errMsg.
    /// - Parameters:
    ///   - code: the errMsg code.
    ///   - requestID: the errMsg's reqId: −1 when not tied to a request, else a reqId, tickerId or orderId.
    ///   - overrides: the user's reclassifications (`connection.errorCodes`), applied before the built-in table.
    /// - Returns: how the client treats it. Unknown codes tied to a request end it (a waiting caller must never
    ///   hang); unknown codes with reqId −1, and 2100–2199, are notices.
    public static func disposition(
        code: Int, requestID: Int, overrides: [Int: TWSErrorOverride] = [:]
    ) -> TWSErrorDisposition {
        if let override = overrides[code], !TWSErrorOverride.fixedCodes.contains(code) {
            switch override {
            case .notice: return .notice
            case .terminal: return requestID >= 0 ? .terminal : .notice
            }
        }
        switch code {
        case 1100: return .connection(.lost)
        case 1101: return .connection(.restored(dataLost: true))
        case 1102: return .connection(.restored(dataLost: false))
        case 326: return .connection(.clientIDInUse)
        default: break
        }
        if let entry = TWSErrorTable.entry(code) {
            switch entry.scope {
            case .client: return .clientSide
            case .connection, .global: return .notice
            case .request, .order: return entry.terminal && requestID >= 0 ? .terminal : .notice
            }
        }
        if (2100...2199).contains(code) { return .notice }
        return requestID >= 0 ? .terminal : .notice
    }
}
