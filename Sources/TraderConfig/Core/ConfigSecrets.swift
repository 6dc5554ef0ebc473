/// What `config show` and the logs print in place of a secret: the token, the passwords, a webhook URL (Slack's and
/// Discord's carry their token) and the `user:password@` of any URL.
public enum ConfigSecrets {
    /// A set secret, as shown.
    public static let mask = "'********'"

    /// `text` with the credentials of each URL in it replaced: `https://u:p@host/x` → `https://********@host/x`.
    public static func maskingCredentials(in text: String) -> String {
        guard text.contains("://"), text.contains("@") else { return text }
        var result = ""
        var rest = Substring(text)
        while let scheme = rest.range(of: "://") {
            result += rest[..<scheme.upperBound]
            rest = rest[scheme.upperBound...]
            // The authority ends at the first '/', '?', '#', quote or space; credentials end at its last '@'.
            let end = rest.firstIndex { "/?#'\" ".contains($0) } ?? rest.endIndex
            if let at = rest[..<end].lastIndex(of: "@") {
                result += "********"
                rest = rest[at...]
            }
        }
        return result + rest
    }
}
