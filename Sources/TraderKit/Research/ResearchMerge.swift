import Research
import TraderConfig

/// Reading shard folders back and the small choices the research commands share.
public enum ResearchMerge {
    /// The merged results of `optimize` shard folders (each with results.csv and best.json).
    /// - Throws: `TraderError` for a missing file, a malformed one, or shards that do not belong together.
    public static func optimize(_ folders: [String]) throws(TraderError) -> SweepResults {
        var parts: [SweepResults] = []
        for folder in folders {
            let csv = try TextFiles.read(folder + "/results.csv")
            let json = try TextFiles.read(folder + "/best.json")
            do throws(ResearchError) {
                parts.append(try SweepResults.parse(csv: csv, bestJSON: json, source: folder))
            } catch {
                throw TraderError(error.description)
            }
        }
        do throws(ResearchError) { return try SweepResults.merge(parts) } catch { throw TraderError(error.description) }
    }

    /// The merged record of `walkforward` shard folders (each with walkforward.json).
    public static func walkforward(_ folders: [String]) throws(TraderError) -> WalkForwardRecord {
        var parts: [WalkForwardRecord] = []
        for folder in folders {
            let path = folder + "/walkforward.json"
            let text = try TextFiles.read(path)
            do throws(ResearchError) {
                parts.append(try WalkForwardRecord.decode(text, source: path))
            } catch {
                throw TraderError(error.description)
            }
        }
        do throws(ResearchError) { return try WalkForwardRecord.merge(parts) } catch { throw TraderError(error.description) }
    }

    /// `--shard K/N`, `auto` or `auto/N` (`nil`: the whole sweep); `auto` reads the array job's index (and count)
    /// from the batch scheduler's environment (Kubernetes, Slurm, AWS Batch).
    public static func shard(_ text: String?, environment: [String: String]) throws(TraderError) -> Shard {
        guard let text else { return .whole }
        do throws(ResearchError) {
            return try Shard(parsing: text, environment: environment)
        } catch {
            throw TraderError("--shard: \(error)")
        }
    }

    /// The heatmap's axes: `x,y` of two different swept parameters (default: the first two).
    public static func heatmapAxes(_ text: String?, swept names: [String]) throws(TraderError) -> (x: String, y: String)? {
        guard let text else { return names.count >= 2 ? (names[0], names[1]) : nil }
        let parts = text.split(separator: ",").map(String.init)
        guard parts.count == 2, names.contains(parts[0]), names.contains(parts[1]), parts[0] != parts[1] else {
            throw TraderError(
                "--heatmap '\(text)': expected two different swept parameters x,y (swept: \(names.joined(separator: ", ")))")
        }
        return (parts[0], parts[1])
    }

    /// The walk-forward windows of `walkforward:`.
    public static func windowPlan(_ settings: WalkforwardSettings) throws(TraderError) -> WindowPlan {
        do throws(ResearchError) {
            return try WindowPlan(
                inSample: WindowPeriod(parsing: settings.inSample), outOfSample: WindowPeriod(parsing: settings.outOfSample),
                step: settings.step.map { (text) throws(ResearchError) in try WindowPeriod(parsing: text) },
                mode: settings.anchored ? .anchored : .rolling)
        } catch {
            throw TraderError(error.description)
        }
    }
}
