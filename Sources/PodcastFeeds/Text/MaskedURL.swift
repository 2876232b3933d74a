/// A feed URL as podcast-watch shows it: credentials in its userinfo are masked
/// (`https://alice:s3cret@host/feed` shows as `https://alice:***@host/feed`, a bare token
/// `https://TOKEN@host/` as `https://***@host/`). The store keeps the real URL for fetching, and
/// `export` writes it so that a backup round-trips; every other output (`add`, `list`, `show`,
/// `run`'s table, JSON lines and stderr, the hook's `FEED_URL`) shows it masked. Episode URLs
/// (guid, enclosure, link) are masked likewise on output; the hook's `EPISODE_URL`,
/// `EPISODE_GUID` and `EPISODE_LINK` stay real so that it can download the enclosure.
///
/// Pure; any thread.
public enum MaskedURL {
    /// `url` with the password (or a lone user token) of its userinfo replaced by `***`;
    /// unchanged when it has no userinfo.
    public static func string(_ url: String) -> String {
        guard let schemeEnd = url.range(of: "://") else { return url }
        let authorityStart = schemeEnd.upperBound
        let authorityEnd =
            url[authorityStart...].firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? url.endIndex
        guard let at = url[authorityStart..<authorityEnd].lastIndex(of: "@") else { return url }
        let userinfo = url[authorityStart..<at]
        let masked = userinfo.firstIndex(of: ":").map { userinfo[..<$0] + ":***" } ?? "***"
        return String(url[..<authorityStart]) + masked + String(url[at...])
    }

    /// Whether `url`'s userinfo is what `string(_:)` writes in place of a secret (a password
    /// `***`, or a lone `***` token): a URL copied from masked output (a dashboard export without
    /// the token, `list`), which would only ever fail to authenticate. Subscribing refuses it.
    public static func isMasked(_ url: String) -> Bool {
        guard let schemeEnd = url.range(of: "://") else { return false }
        let authorityStart = schemeEnd.upperBound
        let authorityEnd =
            url[authorityStart...].firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? url.endIndex
        guard let at = url[authorityStart..<authorityEnd].lastIndex(of: "@") else { return false }
        let userinfo = url[authorityStart..<at]
        let secret = userinfo.firstIndex(of: ":").map { userinfo[userinfo.index(after: $0)...] } ?? userinfo
        return secret == "***" || secret == "%2A%2A%2A" || secret == "%2a%2a%2a"
    }
}
