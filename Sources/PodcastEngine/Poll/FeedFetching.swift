import LoopScheduler

/// What the daemon needs from a fetcher: start one GET, get the result once on the loop thread,
/// and be able to abandon it. `HTTPFetcher` conforms; tests use scripted fetchers.
public protocol FeedFetching: AnyObject {
    /// Starts fetching `request`. `completion` runs exactly once on the loop thread (possibly
    /// before `fetch` returns), unless the returned token is cancelled first, in which case it
    /// never runs.
    func fetch(_ request: FetchRequest, completion: @escaping (FetchResult) -> Void) -> Cancellable
}

extension HTTPFetcher: FeedFetching {}
