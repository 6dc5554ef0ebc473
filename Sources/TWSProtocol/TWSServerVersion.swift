/// The server versions at which message layouts change (PROTOCOL.md §1.3 and §12.4).
///
/// Encoders and decoders compare the negotiated version with these constants; nothing else in the codec
/// hard-codes a version number.
public enum TWSServerVersion {
    /// placeOrder/openOrder gain `duration`.
    public static let duration = 158
    /// placeOrder/openOrder gain `postToAts`.
    public static let postToATS = 160
    /// placeOrder/openOrder gain `autoCancelParent`.
    public static let autoCancelParent = 162
    /// errMsg gains `advancedOrderRejectJson`; placeOrder gains `advancedErrorOverride`.
    public static let advancedOrderReject = 166
    /// placeOrder gains `manualOrderTime`; cancelOrder gains `manualOrderCancelTime`.
    public static let manualOrderTime = 169
    /// placeOrder gains the PEG BEST/MID block (and `minTradeQty` for IBKRATS).
    public static let pegBestPegMidOffsets = 170
    /// reqContractDetails gains `issuerId`.
    public static let bondIssuerID = 176
    /// placeOrder/openOrder lose `faProfile`.
    public static let faProfileDesupport = 177
    /// execDetails gains `pendingPriceRevision`.
    public static let pendingPriceRevision = 178
    /// contractDetails gains `lastTradeDate`.
    public static let lastTradeDate = 182
    /// placeOrder/openOrder gain `customerAccount`.
    public static let customerAccount = 183
    /// placeOrder/openOrder gain `professionalCustomer`.
    public static let professionalCustomer = 184
    /// openOrder gains `bondAccruedInterest`.
    public static let bondAccruedInterest = 185
    /// contractDetails gains the ineligibility reason list.
    public static let ineligibilityReasons = 186
    /// placeOrder/cancelOrder carry RFQ placeholders in 187..<190 only.
    public static let rfqFields = 187
    /// placeOrder/openOrder gain `includeOvernight`.
    public static let includeOvernight = 189
    /// The RFQ placeholders are gone again.
    public static let undoRFQFields = 190
    /// permIds may exceed 32 bits.
    public static let permIDAsLong = 191
    /// cancelOrder/reqGlobalCancel lose their version field and gain CME tagging fields; placeOrder gains
    /// `manualOrderIndicator`.
    public static let cmeTaggingFields = 192
    /// openOrder gains `extOperator`, `manualOrderIndicator`.
    public static let cmeTaggingFieldsInOpenOrder = 193
    /// errMsg loses its version field and gains `errorTime`.
    public static let errorTime = 194
    /// openOrder's order state gains the full preview fields and allocations.
    public static let fullOrderPreviewFields = 195
    /// historicalData loses its start/end dates; historicalDataEnd (108) exists.
    public static let historicalDataEnd = 196
    /// reqCurrentTimeInMillis (105) / currentTimeInMillis (109) exist.
    public static let currentTimeInMillis = 197
    /// execDetails/openOrder gain `submitter`.
    public static let submitter = 198
    /// placeOrder/openOrder gain `imbalanceOnly`.
    public static let imbalanceOnly = 199
    /// reqExecutions gains `lastNDays` and specific dates.
    public static let parametrizedDaysOfExecutions = 200
    /// Every frame carries a 4-byte binary message id; reqExecutions and the server's errors and executions go
    /// protobuf (`TWSProtobufGates`).
    public static let protobuf = 201
    /// Server behaviour only: a strike of 0 is a real strike.
    public static let zeroStrike = 202
    /// placeOrder, cancelOrder, reqGlobalCancel (and orderStatus, openOrder) go protobuf.
    public static let protobufPlaceOrder = 203
    /// reqOpenOrders, reqAllOpenOrders, reqAutoOpenOrders, reqCompletedOrders go protobuf.
    public static let protobufCompletedOrder = 204
    /// reqContractDetails goes protobuf.
    public static let protobufContractData = 205
    /// Market data and depth requests, reqMarketDataType go protobuf.
    public static let protobufMarketData = 206
    /// Account updates, managed accounts, positions, account summary and their `Multi` forms go protobuf.
    public static let protobufAccountsPositions = 207
    /// Historical and real-time bars, head timestamp, histogram, historical ticks, tick-by-tick go protobuf.
    public static let protobufHistoricalData = 208
    /// News and Wall Street Horizon requests go protobuf.
    public static let protobufNewsData = 209
    /// Scanner and P&L requests go protobuf.
    public static let protobufScanData = 210
    /// FA, exercise options, option calculations go protobuf.
    public static let protobufRestMessages1 = 211
    /// Option parameters, soft-dollar tiers, family codes, matching symbols, smart components, market rule, user
    /// info go protobuf.
    public static let protobufRestMessages2 = 212
    /// reqIds, current time, startApi, display groups, verify, depth exchanges go protobuf: every request is.
    public static let protobufRestMessages3 = 213
    /// Server behaviour only: UTC date-times carry a `Z` suffix.
    public static let zSuffixUTCDateTime = 214
    /// cancelContractData and cancelHistoricalTicks exist (protobuf only).
    public static let cancelContractData = 215
    /// placeOrder's deactivate, postOnly, allowPreOpen, ignoreOpenAuction.
    public static let additionalOrderParameters1 = 216
    /// placeOrder's routeMarketableToBbo, seekPriceImprovement, whatIfType.
    public static let additionalOrderParameters2 = 217
    /// placeOrder's attached stop-loss and profit-taker orders.
    public static let attachedOrders = 218
    /// reqConfig exists (protobuf only).
    public static let config = 219
    /// Server behaviour only: market data volumes are in shares.
    public static let marketDataVolumesInShares = 220
    /// updateConfig exists (protobuf only).
    public static let updateConfig = 221
    /// Server behaviour only: last sizes may be fractional.
    public static let fractionalLastSize = 222
    /// placeOrder's hedgeMaxSize.
    public static let hedgeMaxSize = 223
    /// Server behaviour only: price and size precision come from the security definition.
    public static let usePrecisionFromSecurityDefinition = 224
    /// Server behaviour only: odd-lot bid/ask quotes; an order without a time in force is rejected (10052).
    public static let oddLotBidAskQuotes = 225
    /// placeOrder's conditionsIncludeOvernight: the official client 10.51's maximum.
    public static let conditionsIncludeOvernight = 226
}
