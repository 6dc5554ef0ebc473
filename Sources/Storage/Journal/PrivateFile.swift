import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Files that hold account codes, orders, fills and P&L are created readable by their owner only (0600), whatever
/// the umask: every local user could read the journal and the logs (reliability audit, campaign 5).
public enum PrivateFile {
    /// The permissions of a journal or log file.
    public static let permissions: mode_t = 0o600

    /// Creates an empty file with `permissions` if there is none; an existing file is left as it is.
    /// - Parameter path: the file.
    /// - Throws: `CocoaError` when the file cannot be created (the folder is missing or not writable).
    public static func createIfMissing(atPath path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, permissions)
        if descriptor >= 0 {
            close(descriptor)
            return
        }
        guard errno == EEXIST else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path, "errno": errno])
        }
    }
}
