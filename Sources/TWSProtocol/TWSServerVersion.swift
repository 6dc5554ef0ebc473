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
}
