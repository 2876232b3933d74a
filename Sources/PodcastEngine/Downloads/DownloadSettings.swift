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
    /// The most bytes one downloaded file may have, whatever the feed or the server says
    /// (`--download-max-size`, config `download-max-size`). Default 8 GiB.
    public var maxFileBytes: Int64
    /// Bytes to leave free on the file system downloads write to: a write that would leave less
    /// fails (the `.part` keeps what was written; the download is retried later). `nil`: 5% of
    /// the file system's size, at most 1 GiB (`DownloadSettings.headroom(fileSystemBytes:)`).
    public var keepFreeBytes: Int64?

    /// The default `maxFileBytes`.
    public static let defaultMaxFileBytes: Int64 = 8 << 30

    /// How far past the feed's declared length a download may grow: its own size again, and at
    /// least 64 MiB (declared lengths are often stale or rounded, never ten times off).
    public static let declaredLengthMargin: Int64 = 64 << 20

    /// The most bytes a download may take: `maxFileBytes`, and when the feed declares a length
    /// (the enclosure's `length`, in bytes) at most `max(2 × length, length + 64 MiB)`. A body
    /// or a `Content-Length` past it is refused for good: a retry would fetch the same.
    public func byteLimit(declaredLength: Int64?) -> Int64 {
        guard let declared = declaredLength, declared > 0 else { return maxFileBytes }
        let (doubled, over) = declared.multipliedReportingOverflow(by: 2)
        let bound = over ? Int64.max : max(doubled, declared + Self.declaredLengthMargin)
        return min(maxFileBytes, bound)
    }

    /// The default free-space headroom for a file system of `fileSystemBytes`: 5% of it, at most
    /// 1 GiB.
    public static func headroom(fileSystemBytes: Int64) -> Int64 {
        min(1 << 30, max(0, fileSystemBytes / 20))
    }

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
        self.maxFileBytes = Self.defaultMaxFileBytes
        self.keepFreeBytes = nil
    }
}
