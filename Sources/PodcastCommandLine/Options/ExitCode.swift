/// The process exit statuses of `podcast-watch`. They are part of the CLI contract: scripts may
/// test them, so values never change meaning.
public enum ExitCode: Int32, Sendable, Equatable, CaseIterable {
    /// Everything asked for succeeded.
    case success = 0
    /// The command ran, but a feed failed (`run --once`, `show`, `demo`) or a named subscription
    /// does not exist (`remove`), or `add` found it already subscribed (by its URL, or the same
    /// show by its `podcast:guid` under another URL), or `add --replace` found no one
    /// subscription with the feed's `podcast:guid` to move.
    case feedFailed = 1
    /// The command line is wrong: unknown command or flag, missing or malformed value.
    case usage = 2
    /// The state directory or the database could not be created, opened, read or written.
    case stateError = 3
    /// An input file (OPML to import) is missing, unreadable or not OPML.
    case inputError = 4
    /// The output could not be written (stdout closed, disk full, reader of the pipe gone). In
    /// `run` nothing that failed to be written counts as announced: it stays pending.
    case outputError = 5
    /// `run` (or `demo`) found its state directory locked by another running daemon.
    case stateLocked = 6
    /// `run --http` could not listen on its address (port in use, address not on this host,
    /// permission).
    case addressUnavailable = 7
    /// `add` fetched the URL and found no feed there: an HTTP error, a host that does not resolve
    /// or a connection that failed, a document that is neither a feed nor a page linking one, or
    /// a page linking several feeds (they are listed; add one of them). `add --no-check`
    /// subscribes without fetching.
    case notAFeed = 8
    /// `run --once` (or `demo`) stopped by SIGINT before every feed was polled (128 + SIGINT,
    /// the shell's convention).
    case interrupted = 130
    /// `run --once` (or `demo`) stopped by SIGTERM before every feed was polled (128 + SIGTERM).
    case terminated = 143
    /// The daemon stopped because of an unexpected internal error (event loop failure).
    case internalError = 70
}
