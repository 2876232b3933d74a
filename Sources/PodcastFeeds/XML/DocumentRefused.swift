/// A feed document the daemon refuses to parse or to finish parsing, because its cost is out of
/// proportion: the poll fails as unparseable (retried with backoff), nothing is stored.
public struct DocumentRefused: Error, Sendable, Equatable, CustomStringConvertible {
    /// Why the document was refused.
    public enum Reason: Sendable, Equatable {
        /// Its parse was still running when its budget (`PodcastDaemon.Configuration.parseBudget`,
        /// seconds from when a worker took it) ran out; the late result is dropped.
        case parseBudget(seconds: Double)
        /// A start tag holds more attributes than `StartTagLimit.maxAttributes`: libxml2 2.9
        /// checks an element's attributes pairwise (quadratic time) before any callback can
        /// stop it, so such a tag could hold a worker for minutes.
        case tooManyAttributes(limit: Int)
        /// Its namespace declarations, nested, would cost libxml2 more than `limit` comparisons
        /// (`StartTagLimit.maxNamespaceWork`): each declaration is compared with every one in
        /// scope, inside the start tag, where no callback can stop it.
        case tooManyNamespaces(limit: Int)
    }

    /// Why.
    public var reason: Reason

    /// A refusal for `reason`.
    public init(_ reason: Reason) { self.reason = reason }

    /// `"refused: …"`, naming the limit.
    public var description: String {
        switch reason {
        case .parseBudget(let seconds):
            let shown = abs(seconds) < 1e15 && seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
            return "refused: parsing took longer than \(shown) s"
        case .tooManyAttributes(let limit):
            return "refused: an element has more than \(limit) attributes"
        case .tooManyNamespaces:
            return "refused: too many nested namespace declarations (libxml2 would compare them pairwise)"
        }
    }
}
