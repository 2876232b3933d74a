import Foundation
import PodcastEngine
import PodcastFeeds
import PodcastStore

extension CommandRunner {
    /// `list`'s line for a feed whose hook failed and will be retried (`nil` when none is owed):
    /// the soonest retry, "retry 2/4 at TIME" (the attempt to run and the limit of the run that
    /// recorded it), how the last attempt ended, and how many episodes owe one when several do.
    /// A hook that gave up is `hook failing: …` instead (`FeedRecord.hookError`).
    static func hookRetryLine(_ retries: [PendingHookRetry]) -> String? {
        guard let next = retries.first else { return nil }
        let of = next.attempts.map { "/\($0)" } ?? ""
        var line = "    hook failing, retry \(next.attempt)\(of) at \(OrderedJSON.iso8601(next.due))"
        if let error = next.lastError { line += ": " + TerminalText.line(error) }
        if retries.count > 1 { line += " (\(retries.count) episodes owe a hook run)" }
        return line + "\n"
    }

    /// `list --json`'s `hook_retry` of one feed (present only while one is owed): the soonest
    /// owed attempt as `{"attempt", "attempts" (null when unknown), "due", "error", "pending"
    /// (episodes owing one)}`.
    static func hookRetryJSON(_ retries: [PendingHookRetry]) -> OrderedJSON {
        guard let next = retries.first else { return .null }
        return .object([
            ("attempt", .int(Int64(next.attempt))), ("attempts", .int(next.attempts.map(Int64.init))),
            ("due", .date(next.due)), ("error", .string(next.lastError)), ("pending", .int(Int64(retries.count))),
        ])
    }
}
