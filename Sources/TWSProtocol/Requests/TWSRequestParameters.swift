/// reqMktData's parameters.
public struct TWSMarketDataRequest: Sendable, Equatable, Hashable {
    /// The request (ticker) id.
    public var requestID: Int
    /// The contract (with combo legs for `BAG`).
    public var contract: TWSContract
    /// Comma-separated generic tick ids, e.g. `233,236`.
    public var genericTickList: String
    /// One snapshot instead of a stream.
    public var snapshot: Bool
    /// Regulatory snapshot (costs money; keep false).
    public var regulatorySnapshot: Bool
    /// Market data options (always empty in practice).
    public var options: [TWSTagValue]

    /// Creates a market data request.
    public init(
        requestID: Int, contract: TWSContract, genericTickList: String = "", snapshot: Bool = false,
        regulatorySnapshot: Bool = false, options: [TWSTagValue] = []
    ) {
        self.requestID = requestID
        self.contract = contract
        self.genericTickList = genericTickList
        self.snapshot = snapshot
        self.regulatorySnapshot = regulatorySnapshot
        self.options = options
    }
}

/// reqRealTimeBars's parameters.
public struct TWSRealTimeBarsRequest: Sendable, Equatable, Hashable {
    /// The request id.
    public var requestID: Int
    /// The contract.
    public var contract: TWSContract
    /// Bar size in seconds; must be 5.
    public var barSize: Int
    /// `TRADES`, `MIDPOINT`, `BID`, `ASK`.
    public var whatToShow: String
    /// Regular trading hours only.
    public var useRTH: Bool
    /// Options (normally empty).
    public var options: [TWSTagValue]

    /// Creates a real-time bars request.
    public init(
        requestID: Int, contract: TWSContract, barSize: Int = 5, whatToShow: String, useRTH: Bool,
        options: [TWSTagValue] = []
    ) {
        self.requestID = requestID
        self.contract = contract
        self.barSize = barSize
        self.whatToShow = whatToShow
        self.useRTH = useRTH
        self.options = options
    }
}

/// reqHistoricalData's parameters.
public struct TWSHistoricalDataRequest: Sendable, Equatable, Hashable {
    /// The request id.
    public var requestID: Int
    /// The contract (`includeExpired` is sent; combo legs for `BAG`).
    public var contract: TWSContract
    /// `''` = now, else `yyyymmdd hh:mm:ss TZ` or `yyyymmdd-hh:mm:ss`.
    public var endDateTime: String
    /// Bar size, e.g. `1 min`, `1 hour`, `1 day`.
    public var barSizeSetting: String
    /// Duration, e.g. `3600 S`, `2 D`.
    public var durationString: String
    /// Regular trading hours only (sent as an int).
    public var useRTH: Bool
    /// `TRADES`, `MIDPOINT`, `BID`, `ASK`, `BID_ASK`, ...
    public var whatToShow: String
    /// 1 text dates, 2 epoch seconds.
    public var formatDate: Int
    /// Keep receiving updates of the last bar (requires an empty `endDateTime`).
    public var keepUpToDate: Bool
    /// Chart options (always empty).
    public var chartOptions: [TWSTagValue]

    /// Creates a historical data request.
    public init(
        requestID: Int, contract: TWSContract, endDateTime: String, durationString: String, barSizeSetting: String,
        whatToShow: String, useRTH: Bool, formatDate: Int = 1, keepUpToDate: Bool = false,
        chartOptions: [TWSTagValue] = []
    ) {
        self.requestID = requestID
        self.contract = contract
        self.endDateTime = endDateTime
        self.durationString = durationString
        self.barSizeSetting = barSizeSetting
        self.whatToShow = whatToShow
        self.useRTH = useRTH
        self.formatDate = formatDate
        self.keepUpToDate = keepUpToDate
        self.chartOptions = chartOptions
    }
}
