import PodcastStore

extension FeedRecord {
    /// The conditional GET for this feed's next poll: its URL with the stored `ETag` and
    /// `Last-Modified` (both `nil` after a failure, so that refresh is unconditional).
    public func fetchRequest(limits: FetchLimits = FetchLimits()) -> FetchRequest {
        FetchRequest(url: url, etag: etag, lastModified: lastModified, limits: limits)
    }
}
