import CMallocCounter
import Foundation
import NIOCore
import TWSProtocol

/// Decoded frames per second for a realistic tick mix, and heap allocations per `tickPrice` frame.
///
/// Times what a client does with bytes from the socket: hand 4 KiB chunks to the frame decoder, cut frames,
/// decode each payload into a typed `TWSResponse` (every field, as the vector tests check). The same frames
/// (Benchmarks/tick-mix.json, vectors at v178) are decoded by ib_async in `Benchmarks/python/ib_async_decode.py`.
///
/// The headline row drains with `decodeResponses(appending:)`; the other ways a client can drain the decoder
/// (`append` + `decodeResponses`, `nextResponse`, `nextPayload` + `decode(payload:)`) are timed in the same run,
/// alternating, so their ratios hold on a loaded machine. Rates are by wall clock and by thread CPU time (the
/// latter leaves out time spent waiting for a core; the Python script reports both the same way).
enum CodecBenchmark {
    struct Result {
        var framesPerSecond: Double
        var framesPerCPUSecond: Double
        var appendThenBatchFramesPerSecond: Double
        var perFrameFramesPerSecond: Double
        var slicedFramesPerSecond: Double
        var allocationsPerTickPrice: Double
        var slicedAllocationsPerTickPrice: Double
        var frames: Int
    }

    static func run(root: URL, frameCount: Int = 1_000_000, repeats: Int = 5) throws -> Result {
        let (stream, version, tickPrice) = try buildStream(root: root, frameCount: frameCount)
        let chunks = socketChunks(stream)
        var rates: [Path: [Double]] = [:]
        var cpuRates: [Path: [Double]] = [:]
        var checksum = 0
        for _ in 0..<repeats {
            // The paths alternate in the same run, so their ratios are not skewed by load on a shared machine.
            for path in Path.allCases {
                var decoded = 0
                let elapsed = try measure {
                    decoded = try decodeAll(chunks, version: version, path: path, checksum: &checksum)
                }
                guard decoded == frameCount else { throw BenchError("decoded \(decoded) of \(frameCount) frames") }
                rates[path, default: []].append(Double(decoded) / elapsed.wall)
                cpuRates[path, default: []].append(Double(decoded) / elapsed.cpu)
            }
        }
        // Allocations in steady state: one tickPrice frame at a time through the decoder.
        var decoder = TWSFrameDecoder()
        var single = ByteBufferAllocator().buffer(capacity: tickPrice.count)
        single.writeBytes(tickPrice)
        for _ in 0..<1000 { try feed(single, into: &decoder, version: version, checksum: &checksum) }
        for _ in 0..<1000 { try feedSliced(single, into: &decoder, version: version, checksum: &checksum) }
        let iterations = 100_000
        let before = ibt_allocation_count()
        for _ in 0..<iterations { try feed(single, into: &decoder, version: version, checksum: &checksum) }
        let after = ibt_allocation_count()
        for _ in 0..<iterations { try feedSliced(single, into: &decoder, version: version, checksum: &checksum) }
        let afterSliced = ibt_allocation_count()
        if checksum == 42 { print("") }  // Keeps the work observable.
        let perFrame = before < 0 ? -1 : Double(after - before) / Double(iterations)
        let slicedPerFrame = before < 0 ? -1 : Double(afterSliced - after) / Double(iterations)
        return Result(framesPerSecond: median(rates[.batch] ?? [0]),
                      framesPerCPUSecond: median(cpuRates[.batch] ?? [0]),
                      appendThenBatchFramesPerSecond: median(rates[.appendThenBatch] ?? [0]),
                      perFrameFramesPerSecond: median(rates[.perFrame] ?? [0]),
                      slicedFramesPerSecond: median(rates[.sliced] ?? [0]),
                      allocationsPerTickPrice: perFrame, slicedAllocationsPerTickPrice: slicedPerFrame,
                      frames: frameCount)
    }

    /// Nanoseconds per frame for each vector of the mix on its own (to see where time goes).
    static func breakdown(root: URL, frames: Int = 200_000) throws -> [(String, Double)] {
        let (_, version, _) = try buildStream(root: root, frameCount: 1)
        let records = try loadRecords(root: root)
        let mixURL = root.appendingPathComponent("Benchmarks/tick-mix.json")
        guard let mix = try JSONSerialization.jsonObject(with: Data(contentsOf: mixURL)) as? [String: Any],
              let entries = mix["mix"] as? [[Any]] else { throw BenchError("cannot read the mix") }
        var result: [(String, Double)] = []
        var checksum = 0
        for entry in entries {
            guard let name = entry.first as? String, let bytes = records[name] else { continue }
            var stream: [UInt8] = []
            stream.reserveCapacity(bytes.count * frames)
            for _ in 0..<frames { stream += bytes }
            let chunks = socketChunks(stream)
            var perFrame: [Double] = []
            for _ in 0..<3 {
                let elapsed = try measure { _ = try decodeAll(chunks, version: version, checksum: &checksum) }
                perFrame.append(elapsed.cpu / Double(frames) * 1e9)
            }
            result.append((name, median(perFrame)))
        }
        return result
    }

    private static func loadRecords(root: URL) throws -> [String: [UInt8]] {
        let vectorsURL = root.appendingPathComponent("Tests/Fixtures/protocol/vectors/server_to_client.v178.jsonl")
        var records: [String: [UInt8]] = [:]
        for line in try String(contentsOf: vectorsURL, encoding: .utf8).split(separator: "\n") {
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let name = object["name"] as? String, let hex = object["hex"] as? String else { continue }
            records[name] = hexBytes(hex)
        }
        return records
    }

    private static func feed(_ frame: ByteBuffer, into decoder: inout TWSFrameDecoder, version: Int, checksum: inout Int) throws {
        try decoder.decodeResponses(appending: frame, serverVersion: version) { response in
            if case .tickPrice(let tick) = response { checksum &+= tick.requestID }
        }
    }

    private static func feedSliced(_ frame: ByteBuffer, into decoder: inout TWSFrameDecoder, version: Int, checksum: inout Int) throws {
        decoder.append(frame)
        while let payload = try decoder.nextPayload() {
            if case .tickPrice(let tick) = try TWSResponse.decode(payload: payload, serverVersion: version) {
                checksum &+= tick.requestID
            }
        }
    }

    /// How the benchmark drains the frame decoder after each chunk.
    enum Path: CaseIterable {
        /// `decodeResponses(appending:serverVersion:)`: the chunk's frames decoded in place in one pass (only frames
        /// split across chunks are copied).
        case batch
        /// `append(_:)` then `decodeResponses(serverVersion:)`: the chunk copied into the decoder, then one pass.
        case appendThenBatch
        /// `nextResponse(serverVersion:)` per frame, decoded in place.
        case perFrame
        /// `nextPayload()` slices decoded with `TWSResponse.decode(payload:)`.
        case sliced
    }

    /// Feeds 4 KiB socket-sized chunks and drains the frame decoder after each chunk along `path`.
    ///
    /// The chunks are cut before timing, as the socket would hand them over (a `ByteBuffer` per read): what is timed
    /// is the decoder's work, including its copy of each chunk into its own buffer, not the harness's.
    private static func decodeAll(_ chunks: [ByteBuffer], version: Int, path: Path = .batch, checksum: inout Int) throws -> Int {
        let batch = path == .batch
        let sliced = path == .sliced
        var decoder = TWSFrameDecoder()
        var count = 0
        for chunk in chunks {
            if batch {
                count += try decoder.decodeResponses(appending: chunk, serverVersion: version) { response in
                    switch response {
                    case .tickPrice(let tick): checksum &+= tick.requestID
                    default: checksum &+= 1
                    }
                }
                continue
            }
            decoder.append(chunk)
            if path == .appendThenBatch {
                count += try decoder.decodeResponses(serverVersion: version) { response in
                    switch response {
                    case .tickPrice(let tick): checksum &+= tick.requestID
                    default: checksum &+= 1
                    }
                }
            } else if sliced {
                while let payload = try decoder.nextPayload() {
                    switch try TWSResponse.decode(payload: payload, serverVersion: version) {
                    case .tickPrice(let tick): checksum &+= tick.requestID
                    default: checksum &+= 1
                    }
                    count += 1
                }
            } else {
                while let response = try decoder.nextResponse(serverVersion: version) {
                    switch response {
                    case .tickPrice(let tick): checksum &+= tick.requestID
                    default: checksum &+= 1
                    }
                    count += 1
                }
            }
        }
        return count
    }

    /// Cuts a stream into 4 KiB socket-sized chunks.
    private static func socketChunks(_ stream: [UInt8]) -> [ByteBuffer] {
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

    private static func buildStream(root: URL, frameCount: Int) throws -> ([UInt8], Int, [UInt8]) {
        let mixURL = root.appendingPathComponent("Benchmarks/tick-mix.json")
        guard let mix = try JSONSerialization.jsonObject(with: Data(contentsOf: mixURL)) as? [String: Any],
              let entries = mix["mix"] as? [[Any]], let mixVersion = mix["server_version"] as? Int
        else { throw BenchError("cannot read \(mixURL.path)") }
        var records = try loadRecords(root: root)
        var version = mixVersion
        // BENCH_PROTOBUF=1: the same messages as a server at 226 sends them (binary ids, protobuf bodies).
        if ProcessInfo.processInfo.environment["BENCH_PROTOBUF"] == "1" {
            for (name, bytes) in records {
                let response = try TWSResponse.decode(payload: ByteBuffer(bytes: bytes.dropFirst(4)), serverVersion: version)
                records[name] = Array(try response.encode(serverVersion: 226).readableBytesView)
            }
            version = 226
        }
        var cycle: [[UInt8]] = []
        for entry in entries {
            guard let name = entry.first as? String, let weight = entry.last as? Int, let bytes = records[name] else {
                throw BenchError("tick mix names an unknown vector: \(entry)")
            }
            cycle += Array(repeating: bytes, count: weight)
        }
        var stream: [UInt8] = []
        for index in 0..<frameCount { stream += cycle[index % cycle.count] }
        guard let tickPrice = records["tickPrice_bid"] else { throw BenchError("no tickPrice_bid vector") }
        return (stream, version, tickPrice)
    }

    private static func hexBytes(_ hex: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var iterator = hex.utf8.makeIterator()
        while let high = iterator.next(), let low = iterator.next() {
            bytes.append(UInt8(nibble(high) << 4 | nibble(low)))
        }
        return bytes
    }

    private static func nibble(_ c: UInt8) -> UInt8 { c <= 57 ? c - 48 : (c | 0x20) - 87 }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Runs `body` once: wall-clock seconds and this thread's CPU seconds. On a shared machine the CPU time leaves out
/// the time the thread waited for a core (the Python script reports both the same way).
func measure(_ body: () throws -> Void) rethrows -> (wall: Double, cpu: Double) {
    let wallStart = ContinuousClock.now
    let cpuStart = threadCPUSeconds()
    try body()
    let cpu = threadCPUSeconds() - cpuStart
    return (seconds(ContinuousClock.now - wallStart), cpu)
}

/// CPU time consumed by the calling thread.
func threadCPUSeconds() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) * 1e-9
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
}
