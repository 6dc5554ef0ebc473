/// IB execution ids, `<hex>.<hex>.<nn>.<revision>`: a correction of an execution keeps everything but the last
/// part and raises the revision, and replaces the execution it corrects.
public enum ExecutionIdentity {
    /// The id without its revision (the id itself when it is not in IB's four-part form).
    public static func base(of executionID: String) -> Substring {
        let parts = executionID.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, let last = executionID.lastIndex(of: ".") else { return Substring(executionID) }
        return executionID[..<last]
    }

    /// The revision (`01` → 1), 0 when the id is not in IB's form.
    public static func revision(of executionID: String) -> Int {
        let parts = executionID.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, let last = parts.last, let value = Int(last, radix: 16) else { return 0 }
        return value
    }
}
