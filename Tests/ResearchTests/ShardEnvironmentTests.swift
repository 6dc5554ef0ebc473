import Research
import Testing

/// `--shard auto`: the array job's shard from each batch scheduler's environment, and the merge's completeness check.
@Suite struct ShardEnvironmentTests {
    func shard(_ text: String, _ environment: [String: String]) throws(ResearchError) -> Shard {
        try Shard(parsing: text, environment: environment)
    }

    @Test func eachScheduler() throws {
        #expect(try shard("auto", ["JOB_COMPLETION_INDEX": "3", "JOB_COMPLETIONS": "8"]) == Shard(index: 3, count: 8))
        #expect(try shard("auto/8", ["JOB_COMPLETION_INDEX": "3"]) == Shard(index: 3, count: 8))
        #expect(
            try shard("auto", ["SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_COUNT": "10"])
                == Shard(index: 4, count: 10))
        #expect(try shard("auto", ["SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_COUNT": "2"]) == Shard(index: 0, count: 2))
        #expect(
            try shard("auto", ["AWS_BATCH_JOB_ARRAY_INDEX": "999", "AWS_BATCH_JOB_ARRAY_SIZE": "1000"])
                == Shard(index: 999, count: 1000))
        #expect(try shard("2/4", ["JOB_COMPLETION_INDEX": "0"]) == Shard(index: 2, count: 4))
    }

    @Test(arguments: [
        ([:], "no array-job index"),
        (["JOB_COMPLETION_INDEX": "3"], "JOBS_COMPLETIONS"),
        (["JOB_COMPLETION_INDEX": "8", "JOB_COMPLETIONS": "8"], "only 8 shards"),
        (["AWS_BATCH_JOB_ARRAY_INDEX": "-1", "AWS_BATCH_JOB_ARRAY_SIZE": "4"], "not a whole number"),
        (["SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_MIN": "2", "SLURM_ARRAY_TASK_COUNT": "4"], "below SLURM_ARRAY_TASK_MIN"),
        (["JOB_COMPLETION_INDEX": "1", "JOB_COMPLETIONS": "4", "AWS_BATCH_JOB_ARRAY_INDEX": "2", "AWS_BATCH_JOB_ARRAY_SIZE": "4"], "two array jobs"),
    ])
    func errorsNameTheVariable(environment: [String: String], message: String) {
        do {
            _ = try shard("auto", environment)
            Issue.record("\(environment) gave a shard")
        } catch {
            let text = message == "JOBS_COMPLETIONS" ? "JOB_COMPLETIONS" : message
            #expect(error.description.contains(text), "\(error)")
        }
    }

    @Test func autoWithACountChecksTheSchedulers() {
        #expect(throws: ResearchError.self) {
            try shard("auto/4", ["SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "8"])
        }
        #expect(throws: ResearchError.self) { try shard("auto/0", ["JOB_COMPLETION_INDEX": "0"]) }
    }

    @Test func mergesNeedEveryShardOnce() throws {
        let four = try (0..<4).map { (k) throws(ResearchError) in try Shard(index: k, count: 4) }
        try Shard.checkComplete(four)
        #expect(throws: ResearchError.inconsistentShards("shard 3/4 is missing (3 of 4 folders given)")) {
            try Shard.checkComplete(Array(four.prefix(3)))
        }
        #expect(throws: ResearchError.inconsistentShards("shard 1/4 is given twice")) {
            try Shard.checkComplete([four[0], four[1], four[1], four[2], four[3]])
        }
        #expect(throws: ResearchError.self) { try Shard.checkComplete([four[0], try Shard(index: 1, count: 2)]) }
        try Shard.checkComplete([.whole])
    }
}
