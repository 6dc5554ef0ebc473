import Foundation
import Testing

@testable import InteractiveBrokers
@testable import TraderCLI

@Suite("latency.cpuWakeLatency: the PM QoS request")
struct CPUWakeLatencyTests {
    #if os(Linux)
        @Test("the bound is written as a native Int32, as /dev/cpu_dma_latency expects")
        func writesTheBound() throws {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("qos-\(UUID().uuidString)")
            #expect(FileManager.default.createFile(atPath: file.path, contents: nil))
            defer { try? FileManager.default.removeItem(at: file) }
            let request = try CPUWakeLatencyRequest(microseconds: 17, device: file.path)
            request.release()
            let bytes = try Data(contentsOf: file)
            #expect(bytes.count == 4)
            #expect(bytes.withUnsafeBytes { $0.load(as: Int32.self) } == 17)
        }

        @Test("a device that cannot be opened is an error naming it (the run goes on with a warning)")
        func missingDevice() {
            #expect(throws: CPUWakeLatencyError.self) {
                _ = try CPUWakeLatencyRequest(microseconds: 0, device: "/nonexistent/cpu_dma_latency")
            }
            do {
                _ = try CPUWakeLatencyRequest(microseconds: 0, device: "/nonexistent/cpu_dma_latency")
            } catch {
                #expect(error.description.contains("/nonexistent/cpu_dma_latency"))
            }
        }
    #endif

    @Test("latency.busyPoll, busyPollCPU and keepWarm: off by default; CPU and keepWarm need busyPoll")
    func busyPollSettings() throws {
        let off = try load("")
        #expect(!off.busyPoll && off.busyPollCPU == nil && !off.keepWarm)
        let on = try load("latency: {busyPoll: true, busyPollCPU: 1, keepWarm: true}")
        #expect(on.busyPoll && on.busyPollCPU == 1 && on.keepWarm)
        for (bad, key) in [
            ("latency: {busyPollCPU: 1}", "latency.busyPollCPU"), ("latency: {keepWarm: true}", "latency.keepWarm"),
            ("latency: {busyPoll: true, busyPollCPU: -2}", "latency.busyPollCPU"),
            ("latency: {busyPoll: maybe}", "latency.busyPoll"),
        ] {
            do {
                _ = try load(bad)
                Issue.record("\(bad) accepted")
            } catch {
                #expect("\(error)".contains(key) && "\(error)".contains("/c/run.yaml"), "\(error)")
            }
        }
    }

    private func load(_ text: String) throws -> RunSettings {
        try RunSettings.load(
            text: "universe: {symbols: [AAPL]}\n" + text, source: "/c/run.yaml", baseDirectory: nil, environment: [:])
    }

    @Test("off unless configured; 0…1000000 µs; anything else names the key and the file")
    func settings() throws {
        #expect(try load("").cpuWakeLatency == nil)
        #expect(try load("latency: {cpuWakeLatency: 0}").cpuWakeLatency == 0)
        #expect(try load("latency: {cpuWakeLatency: 20}").cpuWakeLatency == 20)
        for bad in ["-1", "2000000", "soon"] {
            do {
                _ = try load("latency: {cpuWakeLatency: \(bad)}")
                Issue.record("\(bad) accepted")
            } catch {
                #expect("\(error)".contains("latency.cpuWakeLatency") && "\(error)".contains("/c/run.yaml"), "\(error)")
            }
        }
    }
}
