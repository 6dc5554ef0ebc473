/// IB's errMsg codes as data: for each, whether the request it names goes on (a notice) or is over (terminal), what
/// its reqId names, and what it means (IB's "Message Codes" page, and codes met in the field that the page lacks).
/// `TWSErrorClassification.disposition` reads it; `connection.errorCodes` corrects it without a release.
///
/// Codes 2100–2199 not listed are information (IB's system messages). A code not listed at all ends the request it
/// names (a waiting caller must never hang) and is a notice without one.
public enum TWSErrorTable {
    /// What a code's reqId names.
    public enum Scope: String, Sendable, Hashable {
        /// A request: ticker, historical, contract or other request id.
        case request
        /// An order: the reqId is its TWS order id.
        case order
        /// Not tied to a request (reqId −1): the session, a farm, the account.
        case global
        /// The connection between TWS and IB, or the socket to TWS.
        case connection
        /// Made by the client itself, never sent by TWS.
        case client
    }

    /// One code.
    public struct Entry: Sendable, Hashable {
        public var code: Int
        /// `true`: the request (or order action) it names is over; `false`: information or a warning.
        public var terminal: Bool
        public var scope: Scope
        public var meaning: String
    }

    /// The entry of a code, if IB documents it (or it was met in the field).
    public static func entry(_ code: Int) -> Entry? { byCode[code] }

    /// Every entry, by code.
    public static var entries: [Entry] { byCode.values.sorted { $0.code < $1.code } }

    private static let byCode: [Int: Entry] = {
        var table: [Int: Entry] = [:]
        func add(_ scope: Scope, terminal: Bool, _ rows: [(Int, String)]) {
            for (code, meaning) in rows { table[code] = Entry(code: code, terminal: terminal, scope: scope, meaning: meaning) }
        }
        add(.order, terminal: true, orderRefusals)
        add(.request, terminal: true, requestFailures)
        add(.order, terminal: false, orderWarnings)
        add(.request, terminal: false, requestWarnings)
        add(.global, terminal: false, systemMessages)
        add(.connection, terminal: false, connectionMessages)
        add(.client, terminal: false, clientMessages)
        return table
    }()

    /// An order (or its modification or cancel) refused: the action is over.
    static let orderRefusals: [(Int, String)] = [
        (103, "Duplicate order id"), (104, "Can't modify a filled order"),
        (105, "Order being modified does not match the original order"), (106, "Can't transmit order id"),
        (107, "Cannot transmit an incomplete order"),
        (109, "Price out of the range of the precautionary percentage setting; not transmitted"),
        (110, "The price does not conform to the minimum price variation for this contract"),
        (111, "The time in force and the order type are incompatible"),
        (113, "The time in force should be DAY for MOC and LOC orders"), (114, "Relative orders are valid for stocks only"),
        (115, "Relative orders for US stocks can only be submitted to SMART, SMART_ECN, INSTINET or PRIMEX"),
        (116, "The order cannot be transmitted to a dead exchange"), (117, "The block order size must be at least 50"),
        (118, "VWAP orders must be routed through the VWAP exchange"), (119, "Only VWAP orders may be placed on the VWAP exchange"),
        (120, "It is too late to place a VWAP order for today"), (121, "Invalid BD flag for the order"),
        (122, "No request tag has been found for the order"), (123, "No record is available for the contract id"),
        (124, "No market rule is available for the contract id"), (125, "Buy price must be the same as the best asking price"),
        (126, "Sell price must be the same as the best bidding price"),
        (129, "VWAP orders must be submitted at least three minutes before the start time"),
        (132, "This order cannot be transmitted without a clearing account"), (133, "Submit new order failed"),
        (134, "Modify order failed"), (135, "Can't find the order with this id"), (136, "This order cannot be cancelled"),
        (137, "VWAP orders can only be cancelled up to three minutes before the start time"),
        (140, "The size value should be an integer"), (141, "The price value should be a double"),
        (144, "Order size does not match the total share allocation"), (145, "Error in validating entry fields"),
        (146, "Invalid trigger method"), (147, "The conditional contract info is incomplete"),
        (148, "A conditional order can only be a limit or market order"),
        (151, "This order cannot be transmitted without a user name"),
        (152, "The hidden attribute may not be specified for this order"), (153, "EFPs can only be limit orders"),
        (154, "Orders cannot be transmitted for a halted security"),
        (157, "An order can be either iceberg or discretionary, not both"),
        (158, "An offset amount or a percent offset value is needed"),
        (159, "The percent offset value must be between 0 % and 100 %"), (160, "The size value cannot be zero"),
        (161, "Cancel attempted when the order is not in a cancellable state (filled, cancelled or about to be)"),
        (163, "The price would violate the percentage constraint of the default order settings"),
        (167, "VWAP order time must be in the future"),
        (168, "The discretionary amount does not conform to the minimum price variation"),
        (201, "Order rejected"), (202, "Order cancelled"), (203, "The security is not available or allowed for this account"),
        (311, "The origin is invalid"), (312, "The combo details are invalid"),
        (314, "Security type BAG requires combo leg details"), (315, "Stock combo legs are restricted to SMART routing"),
        (325, "Discretionary orders are not supported for this combination of exchange and order type"),
        (328, "Trailing stop orders can be attached to limit or stop-limit orders only"),
        (329, "Order modify failed: cannot change to the new order type"),
        (332, "The account codes for the order profile are invalid"), (333, "Invalid share allocation syntax"),
        (334, "Invalid good-till date"), (336, "The time or time zone is invalid"),
        (338, "Good-after-time orders are disabled on this exchange"), (342, "Pegged orders are not supported on this exchange"),
        (347, "Short sale slot must be 1 (broker holds shares) or 2 (delivered from elsewhere)"),
        (348, "Not a short sale: the action must be SSHORT to give a short sale slot"),
        (351, "The regular-trading-hours-only flag is not valid for this order"),
        (355, "Order size does not conform to the market rule"),
        (361, "Invalid trigger price"), (362, "Invalid adjusted stop price"), (363, "Invalid adjusted stop limit price"),
        (364, "Invalid adjusted trailing amount"),
        (382, "The price violates the number-of-ticks constraint of the default order settings"),
        (383, "The size violates the size constraint of the default order settings"),
        (387, "Unsupported order type for this exchange and security type"),
        (388, "Order size is smaller than the minimum"), (392, "Invalid order: contract expired"),
        (395, "OCA group orders are not being accepted (system problems)"),
        (396, "Only market and limit orders are being accepted for this contract (system problems)"),
        (400, "Algo order error"), (402, "Conditions are not allowed for this contract"), (403, "Invalid stop price"),
        (405, "The child order quantity should equal the parent order size"), (406, "The currency is not allowed"),
        (411, "The outside-regular-trading-hours flag is not valid for this order"),
        (412, "The contract is not available for trading"), (413, "A what-if order must have transmit set"),
        (421, "Invalid route"), (422, "The account and clearing attributes on this order may not be changed"),
        (424, "An FA order needs an allocation"), (426, "None of the accounts have enough shares"),
        (434, "The order size cannot be zero"), (435, "An account must be given"),
        (436, "An allocation (account, group or profile) must be given"),
        (437, "An order can have only one of outside RTH and allow pre-open"),
        (439, "Algorithm definition not found"), (440, "Order modify failed: the algorithm cannot be modified"),
        (441, "Algo attributes validation failed"), (442, "The algorithm is not allowed for this order"),
        (443, "Unknown algo attribute"),
        (10006, "Missing parent order"), (10015, "Trading is not allowed in the API"),
        (10020, "The display size should be smaller than the order size"),
        (10052, "An order without a time in force is refused (server version 225 and later)"),
        (10147, "The order to cancel was not found"), (10148, "The order to cancel cannot be cancelled in its state"),
        (10256, "The minimum-quantity attribute may not be given for this order"),
        (10257, "The all-or-none attribute may not be given for this order"),
        (10268, "The EtradeOnly order attribute is not supported"),
        (10269, "The FirmQuoteOnly order attribute is not supported"),
    ]

    /// A request (market data, history, contract details, …) that failed: it is over.
    static let requestFailures: [(Int, String)] = [
        (101, "Max number of tickers reached"), (102, "Duplicate ticker id"),
        (138, "Could not parse the ticker request"), (139, "Parsing error"),
        (162, "Historical market data service error (pacing violation, no data, query cancelled)"),
        (166, "Historical data of an expired contract"), (200, "No security definition has been found for the request"),
        (300, "Can't find the request with this ticker id"), (301, "Invalid ticker action"),
        (305, "Request parsing error; the request was ignored"),
        (309, "Max number of market depth requests reached"),
        (310, "Can't find the subscribed market depth with this ticker id"),
        (316, "Market depth data was halted; subscribe again"),
        (320, "Server error reading an API client request"), (321, "Server error validating an API client request"),
        (322, "Server error processing an API client request (duplicate ticker id, too many subscriptions)"),
        (323, "Server error"), (354, "Requested market data is not subscribed"),
        (365, "No scanner subscription found for this ticker id"), (366, "No historical data query found for this ticker id"),
        (385, "Duplicate ticker id for an API scanner subscription"),
        (386, "Duplicate ticker id for an API historical data query"),
        (414, "Snapshot market data is not available for generic ticks"),
        (420, "Invalid real-time query"), (430, "Fundamentals data is not available for this security"),
        (431, "What to show is missing or incorrect"),
        (10089, "Requested market data needs an additional subscription for the API"),
        (10090, "Part of the requested market data is not subscribed"),
        (10168, "Requested market data is not subscribed; delayed market data is not enabled"),
        (10182, "Failed to request live updates (disconnected)"),
        (10225, "A bust event deactivated the real-time bar subscription; subscribe again"),
    ]

    /// An order accepted with a warning: it goes on.
    static let orderWarnings: [(Int, String)] = [
        (131, "Sweep-to-fill and display size are valid only for US stocks routed SMART, and are ignored"),
        (399, "Order message: a warning, the order goes on"),
        (404, "Shares are not immediately available for short sale; the order is held while IB locates them"),
        (2102, "Unable to modify this order as it is still being processed"),
        (2109, "The outside-regular-trading-hours attribute is ignored for this order type and destination; the order goes on"),
        (2137, "The closing order quantity is greater than the current position"),
        (10349, "The order's time in force was set to DAY by an order preset: the order goes on, it is not cancelled"),
    ]

    /// A request served with a warning: it goes on.
    static let requestWarnings: [(Int, String)] = [
        (164, "No market data to check price percentage violations"), (165, "Historical market data service query message"),
        (317, "Market depth data was reset: empty the book before applying new entries"),
        (10167, "Requested market data is not subscribed: displaying delayed market data"),
        (10197, "No market data during a competing live session"),
    ]

    /// TWS's system messages (reqId −1).
    static let systemMessages: [(Int, String)] = [
        (100, "Max rate of messages per second exceeded: TWS slows the client down"),
        (2100, "New account data requested; the client was unsubscribed from account data"),
        (2101, "Unable to subscribe to the account: other clients are subscribed to a different account"),
        (2103, "Market data farm connection is broken"), (2104, "Market data farm connection is OK"),
        (2105, "Historical data farm connection is broken"), (2106, "Historical data farm connection is OK"),
        (2107, "Historical data farm connection is inactive but available on demand"),
        (2108, "Market data farm connection is inactive but available on demand"),
        (2110, "Connectivity between TWS and the server is broken; it is restored automatically"),
        (2150, "Invalid position trade derived value"),
        (2157, "Security definition data farm connection is broken"),
        (2158, "Security definition data farm connection is OK"),
        (2188, "Market data entitlement notice"),
    ]

    /// The connection between TWS and IB, and the socket to TWS.
    static let connectionMessages: [(Int, String)] = [
        (326, "Unable to connect: the client id is already in use (TWS closes the socket)"),
        (1100, "Connectivity between IB and TWS has been lost"),
        (1101, "Connectivity between IB and TWS restored: market data lost, subscriptions must be made again"),
        (1102, "Connectivity between IB and TWS restored: data maintained"),
        (1300, "TWS's socket port was reset: this connection is dropped; connect again on the new port"),
    ]

    /// Made by a client library itself.
    static let clientMessages: [(Int, String)] = [
        (501, "Already connected"), (502, "Couldn't connect to TWS"), (503, "TWS is out of date and must be upgraded"),
        (504, "Not connected"), (505, "Unknown message id"), (506, "Unsupported version"), (507, "Bad message length"),
        (508, "Bad message"), (509, "Exception reading the socket"),
    ]
}
