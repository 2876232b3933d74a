/// A permanent move the fetcher found while following redirects (a leading run of 301/308), which
/// `FeedStore.apply(update:)` commits once the poll at the new URL succeeded.
public struct PermanentRedirect: Sendable, Equatable {
    /// The new absolute URL: the target of the last hop of the leading 301/308 run.
    public var url: String
    /// The first hop's status: 301 or 308.
    public var status: Int

    /// A move to `url` by a `status` redirect.
    public init(url: String, status: Int) {
        self.url = url
        self.status = status
    }
}
