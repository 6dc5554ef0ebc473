import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a program to its end with `posix_spawn` and `wait4`: the wall time is taken around the child alone
/// (Foundation's `Process.waitUntilExit` polls on Linux, which would blur a half-second run) and the child's own
/// resource usage comes back with it.
enum ChildProcess {
    struct Outcome {
        var wallSeconds: Double
        /// The child's user + system CPU seconds.
        var cpuSeconds: Double
        var usage: rusage
    }

    /// Runs `arguments` (the first is the program's path) with stdout sent to `stdout` (a path; `/dev/null` by
    /// default) and extra environment variables.
    /// - Throws: `BenchError` when it cannot start or exits non-zero.
    static func run(_ arguments: [String], stdout: String = "/dev/null", environment: [String: String] = [:]) throws -> Outcome {
        var pid = pid_t()
        var fileActions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&fileActions)
        defer { posix_spawn_file_actions_destroy(&fileActions) }
        posix_spawn_file_actions_addopen(&fileActions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var merged = ProcessInfo.processInfo.environment
        for (key, value) in environment { merged[key] = value }
        let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in envp { free(pointer) } }
        let clock = ContinuousClock()
        let start = clock.now
        let spawned = posix_spawn(&pid, arguments[0], &fileActions, nil, argv, envp)
        guard spawned == 0 else { throw BenchError("cannot start \(arguments[0]): error \(spawned)") }
        var status: Int32 = 0
        var usage = rusage()
        guard wait4(pid, &status, 0, &usage) == pid else { throw BenchError("lost \(arguments[0])") }
        let wall = seconds(clock.now - start)
        guard status == 0 else { throw BenchError("\(arguments.joined(separator: " ")) failed (status \(status))") }
        let cpu = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        return Outcome(wallSeconds: wall, cpuSeconds: cpu, usage: usage)
    }
}
