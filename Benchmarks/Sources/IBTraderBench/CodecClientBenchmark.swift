import Foundation
import Logging
import NIOCore
import TWSClient
import TWSProtocol

/// TWSClient's read path end to end: byte chunks from the transport → read loop (framing, decoding) → connection
/// actor → request router → the `marketData` subscriber's stream → the consuming task. Frames/s and CPU per frame.
///
/// The peer is in-process (a `TWSTransport` whose inbound side is an `AsyncThrowingStream` of 4 KiB chunks, the seam
/// the TWSClient tests use), so the figure is the client's work, not the kernel's loopback. The frames are the
/// market-data part of the tick mix (Benchmarks/tick-mix.json: tickPrice, tickSize, tickString, tickGeneric at v178),
/// rewritten to the subscription's request id, so every frame is routed to the subscriber.
enum CodecClientBenchmark {
    struct Result {
        var framesPerSecond: Double
        var framesPerCPUSecond: Double
        var frames: Int
    }

    /// The first request id a `TWSConnection` hands out (`RequestIDAllocator(firstID: 100_000_000)`).
    static let subscriptionRequestID = 100_000_000

    static func run(root: URL, frameCount: Int, repeats: Int) async throws -> Result {
        let chunks = try tickChunks(root: root, frameCount: frameCount)
        var rates: [Double] = []
        var cpuRates: [Double] = []
        for _ in 0..<repeats {
            let (frames, wall, cpu) = try await once(chunks: chunks, frameCount: frameCount)
            guard frames == frameCount else { throw BenchError("the subscriber saw \(frames) of \(frameCount) frames") }
            rates.append(Double(frames) / wall)
            cpuRates.append(Double(frames) / cpu)
        }
        return Result(framesPerSecond: median(rates), framesPerCPUSecond: median(cpuRates), frames: frameCount)
    }

    /// One connection: handshake, subscribe, stream every chunk, count what the subscriber receives.
    private static func once(chunks: [ByteBuffer], frameCount: Int) async throws -> (Int, Double, Double) {
        let transport = ScriptedTransport(ticks: chunks)
        let configuration = TWSConnectionConfiguration(host: "127.0.0.1", port: 1, clientID: 1)
        let environment = TWSConnectionEnvironment(
            transport: transport, logger: Logger(label: "bench", factory: { _ in SwiftLogNoOpLogHandler() }))
        return try await TWSConnection.connect(configuration, environment: environment) { connection, _ in
            var contract = TWSContract()
            contract.symbol = "AAPL"
            let stream = try await connection.marketData(contract: contract)
            var received = 0
            var checksum = 0.0
            let wallStart = ContinuousClock.now
            let cpuStart = processCPUSeconds()
            transport.startTicks()
            for try await item in stream {
                if case .data(.price(let tick)) = item { checksum += tick.price }
                received += 1
                if received == frameCount { break }
            }
            let cpu = processCPUSeconds() - cpuStart
            let wall = seconds(ContinuousClock.now - wallStart)
            if checksum == 42 { print("") }  // Keeps the work observable.
            return (received, wall, cpu)
        }
    }

    /// 4 KiB chunks of `frameCount` market-data frames of the tick mix, all for the subscription's request id.
    private static func tickChunks(root: URL, frameCount: Int) throws -> [ByteBuffer] {
        let mixURL = root.appendingPathComponent("Benchmarks/tick-mix.json")
        guard let mix = try JSONSerialization.jsonObject(with: Data(contentsOf: mixURL)) as? [String: Any],
              let entries = mix["mix"] as? [[Any]]
        else { throw BenchError("cannot read \(mixURL.path)") }
        let vectorsURL = root.appendingPathComponent("Tests/Fixtures/protocol/vectors/server_to_client.v178.jsonl")
        var fieldsByName: [String: [String]] = [:]
        for line in try String(contentsOf: vectorsURL, encoding: .utf8).split(separator: "\n") {
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let name = object["name"] as? String, let fields = object["fields"] as? [String] else { continue }
            fieldsByName[name] = fields
        }
        var cycle: [[UInt8]] = []
        for entry in entries {
            guard let name = entry.first as? String, let weight = entry.last as? Int,
                  name.hasPrefix("tick"), var fields = fieldsByName[name], fields.count > 2
            else { continue }
            fields[2] = "\(subscriptionRequestID)"  // version, then the ticker id
            let frame = Array(TWSFrame.framed(TWSFrame.payload(fields: fields)).readableBytesView)
            cycle += Array(repeating: frame, count: weight)
        }
        guard !cycle.isEmpty else { throw BenchError("no tick messages in the mix") }
        var stream: [UInt8] = []
        for index in 0..<frameCount { stream += cycle[index % cycle.count] }
        var chunks: [ByteBuffer] = []
        var offset = 0
        while offset < stream.count {
            let end = min(offset + 4096, stream.count)
            var chunk = ByteBufferAllocator().buffer(capacity: 4096)
            chunk.writeBytes(stream[offset..<end])
            chunks.append(chunk)
            offset = end
        }
        return chunks
    }
}

/// An in-process TWS peer: answers the hello with version 178, nextValidId and managedAccounts; streams the tick
/// chunks when told to.
private final class ScriptedTransport: TWSTransport, @unchecked Sendable {
    // The continuation is Sendable and the chunks immutable; the class is shared by the connection and the bench.
    let inbound: AsyncThrowingStream<ByteBuffer, any Error>
    let continuation: AsyncThrowingStream<ByteBuffer, any Error>.Continuation
    let ticks: [ByteBuffer]

    init(ticks: [ByteBuffer]) {
        (inbound, continuation) = AsyncThrowingStream.makeStream(of: ByteBuffer.self)
        self.ticks = ticks
    }

    func startTicks() {
        for chunk in ticks { continuation.yield(chunk) }
    }

    func withConnection<Result: Sendable>(
        host: String, port: Int, _ body: @Sendable (TWSTransportChannel) async throws -> Result
    ) async throws -> Result {
        let writer = Writer(continuation: continuation)
        defer { continuation.finish() }
        return try await body(TWSTransportChannel(inbound: inbound, outbound: writer))
    }

    private final class Writer: TWSTransportWriter, @unchecked Sendable {
        // Written from the connection's isolation only.
        let continuation: AsyncThrowingStream<ByteBuffer, any Error>.Continuation
        var sawHello = false

        init(continuation: AsyncThrowingStream<ByteBuffer, any Error>.Continuation) {
            self.continuation = continuation
        }

        func write(_ bytes: ByteBuffer) throws {
            guard !sawHello else { return }
            sawHello = true
            var reply = ByteBufferAllocator().buffer(capacity: 128)
            for fields in [["178", "20250115 09:30:00 EST"], ["15", "1", "DU123456"], ["9", "1", "1"]] {
                var frame = TWSFrame.framed(TWSFrame.payload(fields: fields))
                reply.writeBuffer(&frame)
            }
            continuation.yield(reply)
        }
    }
}
