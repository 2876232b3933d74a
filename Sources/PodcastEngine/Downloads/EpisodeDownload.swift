import Foundation
import LoopScheduler
import PodcastStore

/// One attempt at downloading one episode: opens (or resumes) its `NAME.part`, streams the
/// enclosure into it through `HTTPFetcher.stream` (libcurl's multi interface on the loop), and
/// renames it once complete and of the announced length.
///
/// Resume rules (RFC 9110 §14): a part file with bytes is continued with `Range: bytes=N-` and
/// `If-Range` (the stored strong `ETag`, else `Last-Modified`).
/// - `206` from N, same `ETag` and total: appended.
/// - `200` (no range support, or `If-Range` saw a change): the part is emptied and the body
///   written from the start, in the same request.
/// - `416`, a `206` for another offset, or a changed `ETag` or total: the part is emptied and
///   the attempt starts again from zero (at most twice per attempt).
/// Completeness: the final size must equal what the server announced for the file
/// (`Content-Length`, or the `Content-Range` total). Without either, the body is complete when
/// the server ends it cleanly (chunked end, or end of stream): the feed's declared `length` is
/// never a completeness test, since feeds' lengths are often stale, rounded or placeholders
/// (a file refused on its first attempt for that reason was accepted on the retry, which had
/// lost the declared length; now both take it).
///
/// Size: the file may not grow past `byteLimit` (`DownloadSettings.byteLimit(declaredLength:)`:
/// the absolute cap, and about twice the declared length). A server announcing more, or a body
/// that passes it, ends the attempt as `.tooLarge`: its `.part` is deleted and it is not retried
/// (another attempt would fetch the same). Free space is `PartFile`'s: a response's announced
/// length must fit with the headroom left, and so must every write.
///
/// Threading: loop thread only.
final class EpisodeDownload: FetchBodySink {
    /// How an attempt ended.
    enum Outcome: Equatable {
        /// Complete at the record's path, with this many bytes.
        case done(bytes: Int64)
        /// Failed; the part file keeps `bytes`. `permanent`: an answer that retrying will not
        /// change soon (404, 410, 403).
        case failed(message: String, bytes: Int64, permanent: Bool)
        /// The final name is taken on disk by a file the store did not finish: pick another.
        case nameTaken
        /// The file is larger than the download may take (`byteLimit`): refused for good, its
        /// part deleted.
        case tooLarge(message: String)
    }

    private(set) var record: DownloadRecord
    private let fetcher: HTTPFetcher
    private let file: PartFile
    private let limits: FetchLimits
    private var options: StreamOptions
    private var control: StreamControl?
    private var base: Int64 = 0  // bytes in the part file before this response
    private var received: Int64 = 0  // base + body bytes taken
    private var total: Int64?
    private var started = false
    private var restartReason: String?
    private var restarts = 0
    private var fileError: String?
    private var tooLarge: String?
    private var ended = false
    /// The most bytes the file may have (see the type's rules).
    let byteLimit: Int64
    /// The enclosure's length as the feed declares it, for messages.
    let declaredLength: Int64?
    private var lastReported: Int64 = -1
    /// Wall-clock start, for `download_finished`'s seconds.
    let startTime: MonotonicInstant

    /// The response's validators and size (to store for the next resume).
    var onResponse: ((_ etag: String?, _ lastModified: String?, _ total: Int64?) -> Void)?
    /// Bytes on disk counting this response (part file before + received), and the total.
    /// Called for every libcurl progress callback and write: many times a second.
    var onProgress: ((_ bytes: Int64, _ total: Int64?) -> Void)?
    /// The transfer began from `bytes` already on disk.
    var onStarted: ((_ bytes: Int64) -> Void)?
    /// The attempt ended (once).
    var onFinish: ((Outcome) -> Void)?
    /// How many times libcurl reported progress or data to this download (the coalescing test).
    private(set) var callbackCount = 0

    init(
        record: DownloadRecord, fetcher: HTTPFetcher, file: PartFile, limits: FetchLimits, options: StreamOptions,
        byteLimit: Int64 = .max, declaredLength: Int64? = nil
    ) {
        self.record = record
        self.fetcher = fetcher
        self.file = file
        self.limits = limits
        self.options = options
        self.byteLimit = byteLimit
        self.declaredLength = declaredLength
        self.startTime = MonotonicInstant.now()
        file.onDrained = { [weak self] in self?.control?.resume() }
        file.onError = { [weak self] message in self?.failFile(message) }
    }

    /// Bytes on disk (or queued for it) so far.
    var bytes: Int64 { received }

    /// Opens the part file and starts the transfer.
    func start() {
        file.open { [weak self] result in
            guard let self, !self.ended else { return }
            switch result {
            case .failure(let failure):
                self.end(.failed(message: failure.message, bytes: 0, permanent: false))
            case .success(.finalExists(let size)):
                // Renamed by an earlier run killed before it recorded it: done if the size fits.
                // A download that never started has no file yet: one there is someone else's.
                if self.record.mayOwnFiles, let total = self.record.total, total == size {
                    self.end(.done(bytes: size))
                } else {
                    self.end(.nameTaken)
                }
            case .success(.partIsNotAFile):
                // A link or a FIFO at NAME.part failed this download on every retry: it is
                // someone else's name, as a foreign file is. Take the next free one.
                self.end(.nameTaken)
            case .success(.part(let existing)) where existing > 0 && !self.record.mayOwnFiles:
                // A part this download never wrote (another store's, a deleted store's): its bytes
                // are not ours to continue, nor to delete. Leave it and take the next name.
                self.file.close { [weak self] _ in self?.end(.nameTaken) }
            case .success(.part(var existing)):
                if self.record.fromZero && existing > 0 {
                    self.file.truncate()  // the enclosure URL changed: these bytes are another file's
                    existing = 0
                }
                self.base = existing
                self.received = existing
                if let total = self.record.total, existing == total, existing > 0 {
                    self.total = total
                    self.complete()  // every byte is there already: a run died before the rename
                } else {
                    self.request()
                }
            }
        }
    }

    /// Abandons the attempt: the transfer stops, buffered bytes are written, the part is kept
    /// (`disposal` `.remove`: deleted); `onFinish` is not called. `completion` gets the bytes on
    /// disk.
    func stop(_ disposal: PartFile.Disposal = .keep, completion: ((Int64) -> Void)? = nil) {
        guard !ended else { return }
        ended = true
        control?.cancel()
        control = nil
        file.close(disposal, completion: completion)
    }

    /// Blocks until the part file's queued writes are on disk (shutdown only: the loop is done).
    func waitForFile() {
        file.waitForWrites()
    }

    /// Sets this transfer's speed limit (bytes per second, 0: none).
    func setRate(_ bytesPerSecond: Int64) {
        options.maxBytesPerSecond = bytesPerSecond
        control?.setRate(bytesPerSecond)
    }

    private func request() {
        started = false
        restartReason = nil
        var options = self.options
        options.rangeStart = base
        // If-Range needs a strong validator (RFC 9110 §13.1.5): a weak ETag cannot be used.
        if let etag = record.etag, !etag.hasPrefix("W/") {
            options.ifRange = etag
        } else {
            options.ifRange = record.lastModified
        }
        onStarted?(base)
        control = fetcher.stream(FetchRequest(url: record.url, limits: limits), options: options, into: self) {
            [weak self] result in
            self?.transferEnded(result)
        }
    }

    // MARK: FetchBodySink

    func responseStarted(status: Int, headers: [String: String]) -> Bool {
        started = true
        let etag = headers["etag"]
        let length = headers["content-length"].flatMap { Int64($0.trimmingCharacters(in: .whitespaces)) }
        if status == 206 {
            guard let range = EpisodeDownload.contentRange(headers["content-range"]), range.first == base else {
                restartReason = "the server sent another byte range than asked"
                return false
            }
            if let old = record.etag, let etag, old != etag {
                restartReason = "the file changed on the server (ETag)"
                return false
            }
            if let known = record.total, let size = range.size, known != size {
                restartReason = "the file changed on the server (length)"
                return false
            }
            total = range.size ?? record.total
        } else {
            if base > 0 { file.truncate() }  // a whole body: ranges not supported, or it changed
            base = 0
            received = 0
            total = length
        }
        if let total, total > byteLimit {
            tooLarge = "the server announces \(total) bytes, \(limitText)"
            return false
        }
        record.etag = etag
        record.lastModified = headers["last-modified"]
        onResponse?(etag, record.lastModified, total)
        if let total { file.expect(total - base) }
        return true
    }

    // "more than the N bytes this download may take (…why)".
    private var limitText: String {
        let fromDeclared = declaredLength.map { byteLimit == max($0 &* 2, $0 + DownloadSettings.declaredLengthMargin) }
        let why =
            fromDeclared == true
            ? "twice the \(declaredLength ?? 0) bytes the feed declares, or that plus 64 MiB"
            : "download-max-size"
        return "more than the \(byteLimit) bytes this download may take (\(why))"
    }

    func receive(_ bytes: UnsafeRawBufferPointer) -> FetchSinkVerdict {
        if fileError != nil || tooLarge != nil { return .abort }
        if received + Int64(bytes.count) > byteLimit {
            // A body that never ends, or a length the server did not announce: cut here.
            tooLarge = "the body passed \(byteLimit) bytes, \(limitText)"
            return .abort
        }
        if file.mustWait() { return .pause }
        callbackCount += 1
        file.append(bytes)
        received += Int64(bytes.count)
        lastReported = received
        onProgress?(received, total)
        return .accepted
    }

    func progress(received: Int64, expected: Int64) {
        callbackCount += 1
        // Bytes are reported by `receive`; a progress tick without new bytes changes nothing.
        guard self.received != lastReported else { return }
        lastReported = self.received
        onProgress?(self.received, total)
    }

    // MARK: Ending

    private func transferEnded(_ result: FetchResult) {
        control = nil
        guard !ended else { return }
        if let tooLarge {
            // Bytes of a file we will not take: deleted, so they hold no disk space.
            file.close(.remove) { [weak self] _ in self?.end(.tooLarge(message: tooLarge)) }
            return
        }
        if let fileError {
            end(.failed(message: fileError, bytes: received, permanent: false))
            return
        }
        switch result {
        case .success(let response):
            if !started { _ = responseStarted(status: response.status, headers: response.headers) }
            if let reason = restartReason {
                restart(reason)
                return
            }
            complete()
        case .failure(let error):
            if let reason = restartReason {
                restart(reason)
                return
            }
            if case .httpStatus(416) = error.kind, base > 0 {
                restart("the server refused the range (HTTP 416)")
                return
            }
            var permanent = false
            if case .httpStatus(let status) = error.kind { permanent = [403, 404, 410].contains(status) }
            let message = error.message
            file.close(.removeIfEmpty) { [weak self] size in
                self?.end(.failed(message: message, bytes: size, permanent: permanent))
            }
        }
    }

    private func restart(_ reason: String) {
        restarts += 1
        guard restarts <= 2 else {
            file.close(.removeIfEmpty) { [weak self] size in
                self?.end(.failed(message: reason, bytes: size, permanent: false))
            }
            return
        }
        file.truncate()
        base = 0
        received = 0
        total = nil
        record.etag = nil
        record.lastModified = nil
        record.total = nil
        request()
    }

    private func complete() {
        // The server's length only (see the type's rules): `total` is this response's, or the
        // stored one the part was checked against.
        let expected = total
        file.complete(expectedBytes: expected) { [weak self] result in
            guard let self, !self.ended else { return }
            switch result {
            case .success(let size): self.end(.done(bytes: size))
            case .failure(let failure):
                // What is on disk is what a resume continues from (a write error left less).
                self.file.close(.removeIfEmpty) { [weak self] size in
                    self?.end(.failed(message: failure.message, bytes: size, permanent: false))
                }
            }
        }
    }

    private func failFile(_ message: String) {
        guard fileError == nil else { return }
        fileError = message
        // A transfer still running is cut now; its completion reports the file's error.
        if let control {
            control.cancel()
            self.control = nil
            file.close(.removeIfEmpty) { [weak self] size in
                self?.end(.failed(message: message, bytes: size, permanent: false))
            }
        }
    }

    private func end(_ outcome: Outcome) {
        guard !ended else { return }
        ended = true
        onFinish?(outcome)
    }

    /// `Content-Range: bytes FIRST-LAST/SIZE` (SIZE may be `*`), RFC 9110 §14.4.
    static func contentRange(_ value: String?) -> (first: Int64, last: Int64, size: Int64?)? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), value.lowercased().hasPrefix("bytes ") else {
            return nil
        }
        let spec = value.dropFirst(6).trimmingCharacters(in: .whitespaces)
        let parts = spec.split(separator: "/", maxSplits: 1)
        guard parts.count == 2 else { return nil }
        let bounds = parts[0].split(separator: "-", maxSplits: 1)
        guard bounds.count == 2, let first = Int64(bounds[0]), let last = Int64(bounds[1]), first <= last else {
            return nil
        }
        let size = parts[1] == "*" ? nil : Int64(parts[1])
        return (first, last, size)
    }
}
