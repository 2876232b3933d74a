import Foundation
import PodcastFeeds
import PodcastStore

/// What one poll's fetch and parse came to, in the two vocabularies that act on it: the store's
/// `FeedUpdate.Outcome` and the scheduler's `PollPolicy.Outcome`, with the permanent redirect to
/// commit. The first step of the daemon's poll pipeline; pure (the clock comes in as `checkedAt`).
///
/// - A 304 to a request that sent no validators is a failure: nothing was asked conditionally,
///   so it cannot mean "unchanged", and taking it as a sync would spend the first-sync limit.
/// - A 301/308 is committed only with a successful poll at its target (a feed, or a 304): a
///   redirect loop, a chain past the limit or a failing target moves nothing.
/// - A body that is not a feed fails as unparseable; the parser's own errors say what is wrong,
///   any other error gets the prefix "not a feed: ".
/// - `Retry-After` counts only with a 429 or 503 (RFC 9110 §10.2.3).
struct PollClassification {
    /// What the store records.
    var update: FeedUpdate.Outcome
    /// What the poll policy schedules by.
    var policy: PollPolicy.Outcome
    /// The move to commit with this update, if any.
    var redirect: PermanentRedirect?

    /// Whether the poll failed (a `once` pass counts it).
    var failed: Bool {
        if case .failed = update { return true }
        return false
    }

    /// Classifies `result`; `parsed` is the parse of a 2xx body (`nil` for a 304, a failure, or
    /// a parse that never finished), `sentValidators` whether the request was conditional.
    init(_ result: FetchResult, parsed: Result<ParsedFeed, Error>?, sentValidators: Bool, checkedAt: Date) {
        switch result {
        case .success(let response):
            self = Self.classify(response, parsed: parsed, sentValidators: sentValidators)
        case .failure(let error):
            self = Self.classify(error, checkedAt: checkedAt)
        }
    }

    private init(_ update: FeedUpdate.Outcome, _ policy: PollPolicy.Outcome, redirect: PermanentRedirect? = nil) {
        self.update = update
        self.policy = policy
        self.redirect = redirect
    }

    private static func classify(_ response: FetchResponse, parsed: Result<ParsedFeed, Error>?, sentValidators: Bool)
        -> PollClassification
    {
        if response.isNotModified && !sentValidators {
            return PollClassification(
                .failed(FeedFailure(httpStatus: 304, message: "HTTP 304 Not Modified to a request without validators")),
                .httpError(status: 304, retryAfter: nil))
        }
        if response.isNotModified {
            return PollClassification(.notModified, .notModified, redirect: response.permanentRedirect)
        }
        do {
            guard let parsed else { throw DocumentRefused(.parseBudget(seconds: 0)) }
            let feed = try parsed.get()
            return PollClassification(
                .fetched(feed, etag: response.etag, lastModified: response.lastModified), .fetched,
                redirect: response.permanentRedirect)
        } catch {
            // The new URL did not give a feed: do not move there.
            let message =
                error is FeedParseError || error is DocumentRefused || error is TruncatedDocument
                ? "\(error)" : "not a feed: \(error)"
            return PollClassification(.failed(FeedFailure(httpStatus: nil, message: message)), .unparseable)
        }
    }

    private static func classify(_ error: FetchError, checkedAt: Date) -> PollClassification {
        let failure = FeedUpdate.Outcome.failed(FeedFailure(httpStatus: error.status, message: error.message))
        guard case .httpStatus(let status) = error.kind else { return PollClassification(failure, .networkError) }
        // The server's own "come back later" only means that on these.
        let retryAfter = status == 429 || status == 503 ? error.retryAfter(now: checkedAt) : nil
        return PollClassification(failure, .httpError(status: status, retryAfter: retryAfter))
    }
}
