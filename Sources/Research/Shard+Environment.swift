/// `--shard auto`: the shard of an array job, read from the batch scheduler's environment.
///
/// | Scheduler | Index | Count |
/// |---|---|---|
/// | Kubernetes Indexed Job | `JOB_COMPLETION_INDEX` | `JOB_COMPLETIONS` (set it in the manifest to `spec.completions`; Kubernetes does not) |
/// | Slurm job array | `SLURM_ARRAY_TASK_ID` − `SLURM_ARRAY_TASK_MIN` | `SLURM_ARRAY_TASK_COUNT` |
/// | AWS Batch array job | `AWS_BATCH_JOB_ARRAY_INDEX` | `AWS_BATCH_JOB_ARRAY_SIZE` |
///
/// `auto/N` takes the count from the command line (and checks it against the scheduler's, where there is one).
extension Shard {
    /// The shard of `text` (`K/N`, `auto` or `auto/N`) in `environment`.
    /// - Throws: `ResearchError.invalidShard` saying which variable is missing or out of range.
    public init(parsing text: String, environment: [String: String]) throws(ResearchError) {
        let trimmed = text.trimmingSpaces
        guard trimmed == "auto" || trimmed.hasPrefix("auto/") else {
            try self.init(parsing: text)
            return
        }
        var given: Int?
        if trimmed.hasPrefix("auto/") {
            guard let count = Int(trimmed.dropFirst("auto/".count)), count >= 1 else { throw .invalidShard(text) }
            given = count
        }
        let found = try Self.scheduler(environment)
        guard let count = given ?? found.count else {
            throw .shardFromEnvironment(
                "\(text): \(found.source) gives the index but not the count; write --shard auto/N or set "
                    + (found.source == "JOB_COMPLETION_INDEX" ? "JOB_COMPLETIONS to the Job's completions" : "the count"))
        }
        if let given, let scheduled = found.count, given != scheduled {
            throw .shardFromEnvironment("\(text): the scheduler runs \(scheduled) shards, not \(given)")
        }
        guard found.index < count else {
            throw .shardFromEnvironment("\(text): \(found.source) is \(found.index), but there are only \(count) shards")
        }
        try self.init(index: found.index, count: count)
    }

    /// The index (0-based) and count of the array job, and the variable that gave the index.
    static func scheduler(_ environment: [String: String]) throws(ResearchError) -> (index: Int, count: Int?, source: String) {
        func number(_ name: String) throws(ResearchError) -> Int? {
            guard let text = environment[name], !text.isEmpty else { return nil }
            guard let value = Int(text.trimmingSpaces), value >= 0, value <= 10_000_000 else {
                throw .shardFromEnvironment("auto: \(name)=\(text) is not a whole number from 0 to 10000000")
            }
            return value
        }
        var found: [(index: Int, count: Int?, source: String)] = []
        if let index = try number("JOB_COMPLETION_INDEX") {
            found.append((index, try number("JOB_COMPLETIONS"), "JOB_COMPLETION_INDEX"))
        }
        if let id = try number("SLURM_ARRAY_TASK_ID") {
            let minimum = try number("SLURM_ARRAY_TASK_MIN") ?? 0
            guard id >= minimum else { throw .shardFromEnvironment("auto: SLURM_ARRAY_TASK_ID \(id) is below SLURM_ARRAY_TASK_MIN \(minimum)") }
            found.append((id - minimum, try number("SLURM_ARRAY_TASK_COUNT"), "SLURM_ARRAY_TASK_ID"))
        }
        if let index = try number("AWS_BATCH_JOB_ARRAY_INDEX") {
            found.append((index, try number("AWS_BATCH_JOB_ARRAY_SIZE"), "AWS_BATCH_JOB_ARRAY_INDEX"))
        }
        guard let first = found.first else {
            throw .shardFromEnvironment(
                "auto: no array-job index in the environment (JOB_COMPLETION_INDEX, SLURM_ARRAY_TASK_ID or "
                    + "AWS_BATCH_JOB_ARRAY_INDEX); give --shard K/N")
        }
        guard found.allSatisfy({ $0.index == first.index && $0.count == first.count }) else {
            throw .shardFromEnvironment("auto: the environment names two array jobs (\(found.map(\.source).joined(separator: ", ")))")
        }
        return first
    }

    /// Checks that `shards` are all of one split and none is missing or given twice.
    /// - Throws: `ResearchError.inconsistentShards` naming the shard.
    public static func checkComplete(_ shards: [Shard]) throws(ResearchError) {
        guard let count = shards.first?.count else { throw .inconsistentShards("nothing to merge") }
        guard shards.allSatisfy({ $0.count == count }) else {
            throw .inconsistentShards(
                "the folders come from different splits (\(shards.map(\.description).joined(separator: ", ")))")
        }
        var seen = Set<Int>()
        for shard in shards where !seen.insert(shard.index).inserted {
            throw .inconsistentShards("shard \(shard) is given twice")
        }
        if let missing = (0..<count).first(where: { !seen.contains($0) }) {
            throw .inconsistentShards("shard \(missing)/\(count) is missing (\(seen.count) of \(count) folders given)")
        }
    }
}
