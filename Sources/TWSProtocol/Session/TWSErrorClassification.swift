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

/// Classifies errMsg codes.
///
/// ```swift
/// TWSErrorClassification.disposition(code: 2104, requestID: -1)   // .notice
/// TWSErrorClassification.disposition(code: 200, requestID: 7)     // .terminal
/// ```
public enum TWSErrorClassification {
    /// Codes that end the request they name.
    public static let terminalCodes: Set<Int> = [
        101,  // max number of tickers reached
        103,  // duplicate order id
        104,  // can't modify a filled order
        110,  // price does not conform to the minimum price variation
        135,  // can't find order
        161,  // cancel attempted when order is not cancellable
        162,  // historical data service error (pacing, no data, query cancelled)
        200,  // no security definition found
        201,  // order rejected
        202,  // order cancelled
        309,  // max market depth requests
        321,  // error validating request (for a modify the original order stays live)
        322,  // error processing request (duplicate ticker id, too many subscriptions)
        354,  // requested market data is not subscribed
        366,  // no historical data query found for ticker id
        420,  // invalid real-time query
        10089, 10090, 10168,  // market data subscription issues
        10147, 10148,  // order to cancel not found / not cancellable
        10268, 10269,  // EtradeOnly / FirmQuoteOnly not supported
    ]

    /// Codes that are information or warnings, outside the 2100–2199 range that is always informational.
    public static let noticeCodes: Set<Int> = [
        100,  // max message rate exceeded: a warning, the request itself is still served
        399,  // order message (warning), the order goes on
        10167,  // not subscribed, displaying delayed data
        10197,  // no market data during a competing live session
        10349,  // "order TIF was set to DAY based on order preset": the order goes on, it is not a cancellation
    ]

    /// Codes the client produces itself.
    public static let clientSideCodes: Set<Int> = [502, 504]

    /// The disposition of an errMsg.
    /// - Parameters:
    ///   - code: the errMsg code.
    ///   - requestID: the errMsg's reqId: −1 when not tied to a request, else a reqId, tickerId or orderId.
    /// - Returns: how the client treats it. Unknown codes tied to a request end it (a waiting caller must never
    ///   hang); unknown codes with reqId −1 are notices.
    ///   - overrides: the user's reclassifications (`connection.errorCodes`), applied before the built-in table.
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
        case 2100...2199: return .notice
        default: break
        }
        if clientSideCodes.contains(code) { return .clientSide }
        if noticeCodes.contains(code) { return .notice }
        if terminalCodes.contains(code) { return requestID >= 0 ? .terminal : .notice }
        return requestID >= 0 ? .terminal : .notice
    }
}
