import Analytics
import Research
import Storage

/// The files of an optimisation (`--out DIR`) and its rows in a SQLite sweep store (`--store PATH`).
public enum OptimizeOutput {
    /// Saves the rows of `results.csv` in the SQLite sweep store.
    /// - Returns: the number of rows saved.
    public static func save(_ results: SweepResults, shard: Shard, to path: String) throws(TraderError) -> Int {
        let lines = results.csv().split(separator: "\n").map {
            $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
        guard let columns = lines.first else { return 0 }
        let run = SweepResultStore.Run(
            fingerprint: results.header.fingerprint, strategy: results.header.strategy,
            objective: results.header.objective.description, shard: "\(shard)", columns: columns)
        do {
            return try SweepResultStore(path: path).save(run, rows: Array(lines.dropFirst()))
        } catch {
            throw TraderError("\(error)")
        }
    }

    /// Writes results.csv, best.json and report.html.
    public static func write(
        _ results: SweepResults, to out: String, heatmap: (x: String, y: String)?, bestEquity: [TimedEquity]?,
        dataDescription: String, top: Int
    ) throws(TraderError) {
        // Each file is replaced whole (written aside, then renamed), best.json last: it names the sweep and the
        // shard, so a retried shard rewrites the same bytes and a merge reads a shard only once it is complete.
        try TextFiles.write(results.csv(), to: out + "/results.csv")
        let html = ResearchReports.optimizeHTML(
            results, heatmap: heatmap, bestEquity: bestEquity, dataDescription: dataDescription, top: top)
        try TextFiles.write(html, to: out + "/report.html")
        try TextFiles.write(results.bestJSON(), to: out + "/best.json")
    }
}
