#if canImport(Glibc)
import Glibc
import NIOCore
import Testing
import TWSProtocol

/// Counts heap allocations of the tick path (frame decoder + tickPrice decode) when the test process runs with
/// the counting allocator of `scripts/alloc-counter.c` (per-thread count, loaded with `LD_PRELOAD`); without it
/// the test only exercises the path.
@Suite struct TWSAllocationTests {
    typealias Counter = @convention(c) () -> Int

    static func counter() -> Counter? {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "twstest_allocation_count") else { return nil }
        return unsafeBitCast(symbol, to: Counter.self)
    }

    /// How the test drains the frame decoder.
    enum Drain: CaseIterable, Sendable {
        case sliced, perFrame, batch, appending
    }

    /// At 200 (text) and 226 (binary id, protobuf body).
    @Test(arguments: Drain.allCases, [200, 226])
    func tickPriceFramesDoNotAllocateInSteadyState(drain: Drain, version: Int) throws {
        let frame = Array(try TWSResponse.tickPrice(TWSTickPrice(
            requestID: 20, tickType: .bid, price: 150.24, size: 300, attributes: .canAutoExecute)
        ).encode(serverVersion: version).readableBytesView)
        var chunk = ByteBufferAllocator().buffer(capacity: frame.count * 8)
        for _ in 0..<8 { chunk.writeBytes(frame) }
        var decoder = TWSFrameDecoder()
        var checksum = 0.0
        func run(_ rounds: Int) throws {
            for _ in 0..<rounds {
                if drain == .appending {
                    try decoder.decodeResponses(appending: chunk, serverVersion: version) { response in
                        if case .tickPrice(let tick) = response { checksum += tick.price }
                    }
                    continue
                }
                decoder.append(chunk)
                switch drain {
                case .sliced:
                    while let payload = try decoder.nextPayload() {
                        if case .tickPrice(let tick) = try TWSResponse.decode(payload: payload, serverVersion: version) {
                            checksum += tick.price
                        }
                    }
                case .perFrame:
                    while let response = try decoder.nextResponse(serverVersion: version) {
                        if case .tickPrice(let tick) = response { checksum += tick.price }
                    }
                case .batch, .appending:
                    try decoder.decodeResponses(serverVersion: version) { response in
                        if case .tickPrice(let tick) = response { checksum += tick.price }
                    }
                }
            }
        }
        try run(100)  // warm-up: buffer growth, lazy statics
        let before = Self.counter()?()
        try run(1_000)
        let after = Self.counter()?()
        #expect(checksum > 0)
        if let before, let after {
            let perFrame = Double(after - before) / 8_000
            print("tickPrice steady state (\(drain), v\(version)): \(after - before) allocations for 8000 frames (\(perFrame) per frame)")
            #expect(perFrame < 0.01, "tickPrice decoding allocates")
        }
    }
}
#endif
