/// An error from the SQLite store. Every case carries enough text to tell a user what went wrong
/// and where; `description` gives that text.
public enum StoreError: Error, Equatable, CustomStringConvertible {
    /// SQLite returned `code` (a primary or extended result code) while doing `context`;
    /// `message` is `sqlite3_errmsg` at that moment.
    case sqlite(code: Int32, message: String, context: String)
    /// The file at `path` exists but is not an SQLite database, or is corrupt (`SQLITE_NOTADB`,
    /// `SQLITE_CORRUPT`). The file is left untouched.
    case notADatabase(path: String, message: String)
    /// The database was written by a newer version of this program (`PRAGMA user_version`
    /// `found` is above the `supported` schema version). Nothing was changed.
    case schemaTooNew(path: String, found: Int, supported: Int)
    /// The SQLite database at `path` belongs to another program (its `PRAGMA application_id`
    /// is not ours, or it has tables but none of ours). Nothing was changed.
    case foreignDatabase(path: String, reason: String)
    /// A subscription URL that `FeedLocation.normalize` refuses (empty, another scheme, no
    /// host...), with its reason.
    case invalidURL(String, reason: String)
    /// `url` is already subscribed, as feed `id`.
    case alreadySubscribed(url: String, id: Int64)
    /// No subscribed feed matches `key` (an id or a URL).
    case noSuchFeed(String)

    /// A one-line, human-readable explanation.
    public var description: String {
        switch self {
        case .sqlite(let code, let message, let context):
            return "SQLite error \(code) while \(context): \(message)"
        case .notADatabase(let path, let message):
            return "\(path) is not a podcast-watch database or is corrupt (\(message)); it was left untouched"
        case .schemaTooNew(let path, let found, let supported):
            return "\(path) has schema version \(found), newer than the supported \(supported); upgrade podcast-watch"
        case .foreignDatabase(let path, let reason):
            return "\(path) is an SQLite database of another program (\(reason)); it was left untouched"
        case .invalidURL(let url, let reason):
            return "invalid feed URL \"\(url)\": \(reason)"
        case .alreadySubscribed(let url, let id):
            return "\(url) is already subscribed (feed #\(id))"
        case .noSuchFeed(let key):
            return "no subscribed feed matches \(key)"
        }
    }
}
