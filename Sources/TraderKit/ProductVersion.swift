/// This build's version, as `ibtrader --version` prints it and `scripts/dist.sh` names its tarball: semantic
/// versioning, raised by the commit that makes a release (docs/operations.md, *A binary without Swift*).
public enum ProductVersion {
    public static let number = "0.1.0"
}
