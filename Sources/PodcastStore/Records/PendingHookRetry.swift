import Foundation

/// A hook attempt still owed to an announced episode: a retry waiting out its backoff, or an
/// attempt killed at shutdown (see `HookRunner.shutDown`). Kept in the store so it survives a
/// stop, a restart or a crash; `run` reads them back at start (`FeedStore.pendingHookRetries`).
public struct PendingHookRetry: Equatable, Sendable {
    /// The episode the hook runs for (`StoredEpisode.id`).
    public var episodeID: Int64
    /// The attempt to run next, 1-based (attempt `n` is retry `n - 1`).
    public var attempt: Int
    /// When it is due (wall clock); one in the past runs at once.
    public var due: Date
    /// How the previous attempt ended ("exited with status 3"), for messages.
    public var lastError: String?
    /// The attempt limit of the run that recorded it (`--hook-retries` + 1); `nil` when unknown
    /// (recorded before the store kept it). For `list`'s "retry 2/4".
    public var attempts: Int?

    /// A pending retry.
    public init(episodeID: Int64, attempt: Int, due: Date, lastError: String?, attempts: Int? = nil) {
        self.episodeID = episodeID
        self.attempt = attempt
        self.due = due
        self.lastError = lastError
        self.attempts = attempts
    }
}
