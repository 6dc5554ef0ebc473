import Foundation
import Testing

@testable import InteractiveBrokers

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
}
