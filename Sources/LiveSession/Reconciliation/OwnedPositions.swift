import JournalModel
import TradingModel

/// Which of the broker's positions are the bot's own at a restart, as its journal shows. Pure.
///
/// **The bot's book** is the engine's positions at its latest start (the cash checkpoint's) plus the fills of its
/// own orders journaled since: orders in its orderRef namespace (`IBT:<bot>.R<run>:`), or in the forms older
/// journals wrote (`IBT:R<run>:`, `IBT:<second>:`). `ibtrader order`'s fills (`IBT:manual:`), another bot's and
/// orders without an IBTrader orderRef are not the bot's. Without a checkpoint (a first run of this configuration)
/// the book is every own fill of the journal.
///
/// **What the engine takes** is that book, as far as the broker still holds it: the same side, at most the broker's
/// quantity (a position closed by hand, or a gateway that lost its state, is not restored as a phantom). The rest of
/// the broker's position is **external**: listed, never traded, and the position check measures against it.
///
/// ```swift
/// let owned = OwnedPositions.book(checkpoint: saved, fills: journal.fills, account: "DU1", isOwn: { … })
/// let split = OwnedPositions.split(book: owned, broker: ["AAPL": 150])   // bot 100, external 50
/// ```
public enum OwnedPositions {
    /// The bot's book by symbol (zero quantities left out).
    /// - Parameters:
    ///   - checkpoint: this configuration's latest cash checkpoint (`nil`: none).
    ///   - fills: the journal's fills, in journal order.
    ///   - account: the account traded (fills of another account are not counted; one without account is).
    ///   - isOwn: whether an orderRef is one of this bot's orders.
    public static func book(
        checkpoint: JournalCashCheckpoint?, fills: [JournalFill], account: String, isOwn: (String?) -> Bool
    ) -> [Symbol: Quantity] {
        var book = checkpoint?.positions ?? [:]
        let after = checkpoint?.fillCheckpoint ?? 0
        for fill in fills where fill.sequence > after && (fill.account ?? account) == account && isOwn(fill.orderRef?.rawValue) {
            book[fill.symbol, default: .zero] += fill.side == .buy ? fill.quantity : -fill.quantity
        }
        return book.filter { !$0.value.isZero }
    }

    /// The broker's positions split into the bot's part (its book, as far as the broker holds it) and the rest.
    public static func split(book: [Symbol: Quantity], broker: [Symbol: Quantity]) -> (bot: [Symbol: Quantity], external: [Symbol: Quantity]) {
        var bot: [Symbol: Quantity] = [:]
        var external: [Symbol: Quantity] = [:]
        for symbol in Set(book.keys).union(broker.keys) {
            let held = broker[symbol] ?? .zero
            let mine = covered(book[symbol] ?? .zero, by: held)
            if !mine.isZero { bot[symbol] = mine }
            if held != mine { external[symbol] = held - mine }
        }
        return (bot, external)
    }

    /// The part of `own` the broker's `held` covers: the same side, at most its size.
    public static func covered(_ own: Quantity, by held: Quantity) -> Quantity {
        guard !own.isZero, !held.isZero, (own.units > 0) == (held.units > 0) else { return .zero }
        return own.magnitude <= held.magnitude ? own : held
    }

    /// Whether an orderRef is an order of the bot with identity `bot`: its namespace, or an older journal's bot
    /// forms (which only this journal could have written into it).
    public static func isOwn(_ orderRef: String?, bot: String?) -> Bool {
        guard let orderRef, let namespace = RunNamespace(orderRef: orderRef) else { return false }
        switch namespace {
        case .run(_, let owner): return owner == nil || owner == bot
        case .legacySecond, .unjournaled: return true
        case .manual, .other: return false
        }
    }
}
