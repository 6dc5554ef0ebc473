import Foundation
import Testing
import TWSTestSupport

#if os(Linux)
    /// At its file descriptor limit the gateway pauses accepting instead of spinning (reliability audit, campaign 1c:
    /// 100 % of a core in failing accept4 calls). Runs the built `ibtrader gateway`, lowers its descriptor limit with
    /// `prlimit`, and holds more sockets open than it may have.
    @Suite struct AcceptBackoffProcessTests {
        static var executable: URL? {
            for folder in [Bundle.main.bundleURL.deletingLastPathComponent(), Bundle.main.bundleURL] {
                let url = folder.appendingPathComponent("ibtrader")
                if FileManager.default.isExecutableFile(atPath: url.path) { return url }
            }
            return nil
        }

        static func cpuTicks(_ pid: Int32) -> Int? {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return nil }
            // Fields after the command name (which is in parentheses): utime is the 12th, stime the 13th.
            let fields = stat.split(separator: ")").last?.split(separator: " ") ?? []
            guard fields.count > 13, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
            return user + system
        }

        @Test func theGatewayDoesNotSpinAtItsDescriptorLimit() async throws {
            let prlimit = URL(fileURLWithPath: "/usr/bin/prlimit")
            let binary = try #require(Self.executable, "the ibtrader executable is built with the tests")
            try #require(FileManager.default.isExecutableFile(atPath: prlimit.path), "prlimit (util-linux) is needed")
            let process = Process()
            process.executableURL = binary
            process.arguments = ["gateway", "--port", "0", "--log-level", "error"]
            let output = Pipe()
            process.standardOutput = output
            let errors = FileManager.default.temporaryDirectory.appendingPathComponent("accept-backoff-\(UUID()).log")
            _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
            defer { try? FileManager.default.removeItem(at: errors) }
            process.standardError = try FileHandle(forWritingTo: errors)
            /// The gateway's last words, for a failure message.
            func stderrTail() -> String {
                let text = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
                return text.split(separator: "\n").suffix(12).joined(separator: "\n")
            }
            try process.run()
            defer { process.terminate() }
            // "ibtrader gateway listening on 127.0.0.1:PORT (…"
            let text = await output.fileHandleForReading.text(until: " (")
            let address = try #require(text.split(separator: " ").first { $0.hasPrefix("127.0.0.1:") })
            let port = try #require(Int(address.dropFirst("127.0.0.1:".count)))
            // The limit is lowered once the gateway runs, 10 above the descriptors it holds then (it may have
            // inherited some from the test process), so the sockets below exhaust it.
            let pid = process.processIdentifier
            let open = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count
            let limit = Process()
            limit.executableURL = prlimit
            limit.arguments = ["--pid", "\(pid)", "--nofile=\(open + 10)"]
            try limit.run()
            await limit.exited()
            try #require(limit.terminationStatus == 0)
            var sockets: [Int32] = []
            defer { for socket in sockets { close(socket) } }
            for _ in 0..<60 {
                let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
                var address = sockaddr_in()
                address.sin_family = sa_family_t(AF_INET)
                address.sin_port = in_port_t(UInt16(port).bigEndian)
                address.sin_addr.s_addr = inet_addr("127.0.0.1")
                let connected = withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                    }
                }
                guard connected == 0 else {
                    close(fd)
                    break
                }
                sockets.append(fd)
            }
            // The gateway's CPU use over two seconds of wall time: what this test measures is a real process's
            // (a kept real-socket test), so the wall clock is the one to wait on.
            try await Task.sleep(for: .milliseconds(500))
            try #require(process.isRunning, "the gateway exited with \(process.terminationStatus): \(stderrTail())")
            let before = try #require(Self.cpuTicks(pid))
            try await Task.sleep(for: .seconds(2))
            try #require(process.isRunning, "the gateway exited with \(process.terminationStatus): \(stderrTail())")
            let after = try #require(Self.cpuTicks(pid))
            let share = Double(after - before) / Double(sysconf(Int32(_SC_CLK_TCK))) / 2
            // Spinning took a whole core (92 % on a loaded machine); pausing takes about 1 %.
            #expect(share < 0.1, "the gateway used \(Int(share * 100)) % of a core at its descriptor limit")
            #expect(process.isRunning, "\(stderrTail())")
        }
    }
#endif
