import Foundation

/// How `run` downloads episodes (`--download DIR`, `--download-name`, `--download-jobs`,
/// `--download-per-host`, `--download-rate`, `--keep`).
public struct DownloadSettings: Sendable, Equatable {
    /// The absolute directory files go under.
    public var directory: String
    /// Download every feed's new episodes (`run --download DIR`); when false only feeds set with
    /// `add --download` (or `pw:download="true"` in OPML) do. A feed set `--no-download` never does.
    public var allFeeds: Bool
    /// The file-name template.
    public var naming: DownloadNaming
    /// Downloads in flight at most. Default 4.
    public var maxConcurrent: Int
    /// Downloads in flight at most against one host and port. Default 2.
    public var maxPerHost: Int
    /// Total receive rate in bytes per second, shared evenly by the downloads in flight
    /// (libcurl `CURLOPT_MAX_RECV_SPEED_LARGE` each); 0: no limit.
    public var bytesPerSecond: Int64
    /// Completed files kept per feed (the newest), unless the feed has its own; `nil`: all.
    public var keep: Int?
    /// Backoff between failed attempts: `PollPolicy.backoff` (1 min doubling up to 6 h by default).
    public var retry: PollPolicy
    /// Attempts before a download stays failed (403/404/410 give up after 3). Default 10.
    public var maxAttempts: Int
    /// Fetch limits: 30 s to connect, a week in all, 16 GiB on the wire, 5 redirects.
    public var limits: FetchLimits
    /// A transfer slower than 1 byte/s for this many seconds fails (and is retried). Default 60.
    public var stallSeconds: Int

    /// Settings for `directory`; the defaults are `run --download DIR`'s.
    public init(
        directory: String, allFeeds: Bool = true, naming: DownloadNaming = .standard,
        maxConcurrent: Int = 4, maxPerHost: Int = 2, bytesPerSecond: Int64 = 0, keep: Int? = nil
    ) {
        self.directory = directory
        self.allFeeds = allFeeds
        self.naming = naming
        self.maxConcurrent = max(1, maxConcurrent)
        self.maxPerHost = max(1, maxPerHost)
        self.bytesPerSecond = max(0, bytesPerSecond)
        self.keep = keep
        self.retry = PollPolicy(jitterFraction: 0.1, initialBackoff: 60, backoffMultiplier: 2, maxBackoff: 6 * 3600)
        self.maxAttempts = 10
        self.limits = FetchLimits(
            connectTimeout: 30, totalTimeout: 7 * 86_400, maxResponseBytes: 16 << 30, maxDecodedBytes: 16 << 30)
        self.stallSeconds = 60
    }
}
