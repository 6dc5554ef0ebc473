import Foundation
import NIOCore

/// The fields of a placeOrder that an order of the usual kinds sets (market, limit, stop, stop-limit, trailing, in a
/// bracket or an OCA group), in the six groups the body's layout puts them (`TWSPlaceOrderLayout`).
protocol TWSOrderTermFields {
    var action: String { get }
    var totalQuantity: Decimal? { get }
    var orderType: String { get }
    var limitPrice: Double? { get }
    var auxPrice: Double? { get }
    var timeInForce: String { get }
    var ocaGroup: String { get }
    var account: String { get }
    var orderRef: String { get }
    var transmit: Bool { get }
    var parentID: Int { get }
    var outsideRTH: Bool { get }
    var ocaType: Int { get }
    var trailingPercent: Double? { get }
    var limitPriceOffset: Double? { get }
}

extension TWSOrder: TWSOrderTermFields {}

/// Where placeOrder's terms sit in its body: `termGroups` groups, each after a run of other fields, and one run last.
enum TWSPlaceOrderLayout {
    /// Groups of terms; runs of other fields: one more.
    static let termGroups = 6
}

extension TWSFieldWriter {
    /// Writes one group of terms (0 ..< `TWSPlaceOrderLayout.termGroups`), as the official client does.
    mutating func writeTerms<Terms: TWSOrderTermFields>(_ group: Int, of t: Terms) {
        switch group {
        case 0:
            write(t.action)
            writeOptional(t.totalQuantity)
            write(t.orderType)
            writeOptional(t.limitPrice, unset: .empty)
            writeOptional(t.auxPrice, unset: .empty)
            write(t.timeInForce)
            write(t.ocaGroup)
            write(t.account)
        case 1:
            write(t.orderRef)
            write(t.transmit)
            write(t.parentID)
        case 2:
            write(t.outsideRTH)
        case 3:
            write(t.ocaType)
        case 4:
            writeOptional(t.trailingPercent, unset: .empty)
        default:
            writeOptional(t.limitPriceOffset, unset: .sentinel)
        }
    }
}

/// An order of the usual kinds as placeOrder sends it: the fields such an order sets, every other field at the
/// official client's defaults (`order` is the full `TWSOrder`). Small and cheap to build, so the order path maps a
/// domain order to these and encodes them through a `TWSPlaceOrderTemplate` without building the full order.
public struct TWSOrderTerms: Sendable, Hashable, TWSOrderTermFields {
    /// `BUY`, `SELL`, `SSHORT`.
    public var action: String
    /// The quantity.
    public var totalQuantity: Decimal?
    /// `MKT`, `LMT`, `STP`, `STP LMT`, `TRAIL`, `TRAIL LIMIT`, ...
    public var orderType: String
    // The defaults below are `TWSOrder`'s (a test compares them): spelled out, because making a `TWSOrder` to read
    // them allocates its storage, which is what the order path uses terms to avoid.
    /// The limit price.
    public var limitPrice: Double? = nil
    /// Stop price / trailing amount.
    public var auxPrice: Double? = nil
    /// Time in force (`DAY`, `GTC`, ...).
    public var timeInForce = ""
    /// One-cancels-all group.
    public var ocaGroup = ""
    /// The account.
    public var account = ""
    /// Free-form reference.
    public var orderRef = ""
    /// `false` holds the order at TWS until a later order of its group transmits.
    public var transmit = true
    /// The parent's order id (0: none).
    public var parentID = 0
    /// May trigger or fill outside regular trading hours.
    public var outsideRTH = false
    /// OCA type.
    public var ocaType = 0
    /// Trailing percentage (TRAIL).
    public var trailingPercent: Double? = nil
    /// Limit offset (TRAIL LIMIT).
    public var limitPriceOffset: Double? = nil

    /// Creates terms with the official client's defaults for every field not given.
    public init(action: String = "", totalQuantity: Decimal? = nil, orderType: String = "") {
        self.action = action
        self.totalQuantity = totalQuantity
        self.orderType = orderType
    }

    /// The full order: the official client's defaults with these terms.
    public var order: TWSOrder {
        var order = TWSOrder(action: action, totalQuantity: totalQuantity, orderType: orderType)
        order.limitPrice = limitPrice
        order.auxPrice = auxPrice
        order.timeInForce = timeInForce
        order.ocaGroup = ocaGroup
        order.account = account
        order.orderRef = orderRef
        order.transmit = transmit
        order.parentID = parentID
        order.outsideRTH = outsideRTH
        order.ocaType = ocaType
        order.trailingPercent = trailingPercent
        order.limitPriceOffset = limitPriceOffset
        return order
    }

    /// Whether the order type changes the other fields' runs (the pegged types carry blocks of their own): such
    /// terms are encoded from the full order.
    var shapesOtherFields: Bool {
        TWSOrder.isPegBench(orderType) || TWSOrder.isPegBest(orderType) || TWSOrder.isPegMid(orderType)
    }
}

/// Terms under the TWS order id they go out with.
public struct TWSOrderTermsPlacement: Sendable, Hashable {
    /// The TWS order id.
    public var orderID: Int
    /// The terms.
    public var terms: TWSOrderTerms

    /// Creates a placement.
    public init(orderID: Int, terms: TWSOrderTerms) {
        self.orderID = orderID
        self.terms = terms
    }
}

/// placeOrder for one contract at one server version, with every field outside the terms written once: encoding
/// an order writes its terms and copies the runs between them (~15 fields written instead of ~150). The bytes are
/// those of `TWSRequest.encodePlaceOrder` for `terms.order` (tested on random terms, contracts and versions).
///
/// ```swift
/// let template = TWSPlaceOrderTemplate(contract: aapl, serverVersion: 187)
/// let frame = template.encode(TWSOrderTermsPlacement(orderID: 7, terms: terms))
/// ```
public final class TWSPlaceOrderTemplate: Sendable {
    /// The contract every order of this template is for.
    public let contract: TWSContract
    /// The server version the bytes are for.
    public let serverVersion: Int
    /// The runs of fields outside the terms, one after the other; `runEnds[k]` is where run k ends.
    private let runs: [UInt8]
    private let runEnds: [Int]

    /// Writes the runs of a default order for `contract` at `serverVersion`.
    public init(contract: TWSContract, serverVersion: Int) {
        self.contract = contract
        self.serverVersion = serverVersion
        let defaults = TWSOrder()
        var bytes: [UInt8] = []
        var ends: [Int] = []
        for run in 0...TWSPlaceOrderLayout.termGroups {
            var writer = TWSFieldWriter(style: .python, capacity: 256)
            defaults.writePlaceOrderSegment(run, contract: contract, into: &writer, serverVersion: serverVersion)
            bytes += writer.written
            ends.append(bytes.count)
        }
        runs = bytes
        runEnds = ends
    }

    /// The framed placeOrder of a placement for this template's contract and server version.
    public func encode(_ placement: TWSOrderTermsPlacement) -> ByteBuffer {
        guard !placement.terms.shapesOtherFields else {
            return TWSRequest.encodePlaceOrder(
                TWSOrderPlacement(orderID: placement.orderID, order: placement.terms.order), contract: contract,
                serverVersion: serverVersion)
        }
        var writer = TWSFieldWriter(style: .python, capacity: runs.count + 160)
        writer.beginFrame()
        writer.write(TWSRequest.placeOrderMessageID)
        writer.write(placement.orderID)
        runs.withUnsafeBytes { all in
            var start = 0
            for group in 0..<TWSPlaceOrderLayout.termGroups {
                writer.append(written: UnsafeRawBufferPointer(rebasing: all[start..<runEnds[group]]))
                start = runEnds[group]
                writer.writeTerms(group, of: placement.terms)
            }
            writer.append(written: UnsafeRawBufferPointer(rebasing: all[start...]))  // the last run
        }
        return writer.finishFrame()
    }
}
