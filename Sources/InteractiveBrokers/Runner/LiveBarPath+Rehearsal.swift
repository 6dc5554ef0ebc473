import Foundation
import NIOCore
import TWSProtocol
import TradingEngine
import TradingModel

// Keeping the bar → order path warm (`latency.keepWarm`, docs/latency.md). A bar arrives every few seconds; by then
// the CPU's caches hold other things, and the first pass through decode → engine → wire order → encode costs several
// times what it costs warm. The busy-polling session thread, when it has been quiet for a while, runs the last bar of
// an instrument through a *copy* of the engine and encodes the orders that copy would send, then drops everything:
// no state of the engine, the broker, the journal or the connection is touched, nothing is sent.
extension LiveBarPath {
    /// One rehearsal; skipped when the engine is in use (the lock is held elsewhere).
    /// - Parameter serverVersion: the connection's negotiated version, for encoding.
    func rehearse(serverVersion: Int) {
        guard S.isRehearsable, core.lock.try() else { return }
        defer { core.lock.unlock() }
        var engine = core.engine
        let instruments = engine.state.lastBars.count
        guard instruments > 0 else { return }
        let index = core.rehearsals % instruments
        core.rehearsals += 1
        guard let bar = engine.state.lastBars[index] else { return }
        rehearseInbound(bar, index: index, serverVersion: serverVersion)
        let id = InstrumentID(index: index)
        var commands = engine.handle(.bar(id, bar))
        if commands.isEmpty {
            // Most bars make no order: encode a typical one anyway, so the order half of the path stays warm too.
            commands = [.submit(Self.sampleOrder(id, at: bar.timestamp))]
        }
        for command in commands { broker.rehearse(command, serverVersion: serverVersion) }
    }

    /// The bar's half before the engine: its realTimeBars frame decoded by a scratch decoder (as the read loop
    /// decodes) and mapped to a domain bar (as the feed maps it), both dropped. The frame is encoded once per bar.
    private func rehearseInbound(_ bar: Bar, index: Int, serverVersion: Int) {
        let rehearsal: RehearsalFrame
        if let cached = core.rehearsalFrames[index], cached.bar == bar {
            rehearsal = cached
        } else {
            let wire = TWSRealTimeBar(
                time: bar.timestamp.nanoseconds / 1_000_000_000, open: bar.open.doubleValue,
                high: bar.high.doubleValue, low: bar.low.doubleValue, close: bar.close.doubleValue,
                volume: Decimal(bar.volume.wholeUnits), wap: Decimal(bar.close.doubleValue), count: 1)
            guard let frame = try? TWSResponse.realTimeBar(requestID: 1, bar: wire).encode(serverVersion: serverVersion)
            else { return }
            rehearsal = RehearsalFrame(bar: bar, wire: wire, frame: frame)
            core.rehearsalFrames[index] = rehearsal
        }
        connection.rehearseDecoding(rehearsal.frame, serverVersion: serverVersion)
        _ = try? BarMapping.bar(rehearsal.wire)
    }

    /// A one-share market order of `id` (never sent: only mapped and encoded).
    private static func sampleOrder(_ id: InstrumentID, at time: Timestamp) -> Order {
        Order(
            id: OrderID(0), clientOrderID: ClientOrderID("rehearsal"), request: .market(id, .buy, Quantity(1)),
            createdAt: time)
    }
}

/// A bar as the rehearsal replays it: the domain bar, its wire form and its encoded realTimeBars frame.
struct RehearsalFrame {
    let bar: Bar
    let wire: TWSRealTimeBar
    let frame: ByteBuffer
}
