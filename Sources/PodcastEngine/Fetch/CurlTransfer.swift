import CCurl
import Foundation
import LoopScheduler
import PodcastFeeds
import PodcastStore

/// One fetch in flight on the multi handle: the easy handle, its buffers, and the redirect
/// bookkeeping across hops (redirects are followed by hand so each hop's status is seen).
/// Used only on the loop thread.
final class CurlTransfer {
    let id: Int
    let request: FetchRequest
    let completion: (FetchResult) -> Void
    let easy: UnsafeMutableRawPointer
    let deadline: MonotonicInstant
    private(set) var currentURL: String
    private var visited: Set<String>
    private(set) var redirects = 0
    private(set) var permanentRedirect: PermanentRedirect?
    private var permanentRunBroken = false
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private var hasValidators = false  // If-None-Match or If-Modified-Since was sent
    let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)

    // Per hop.
    var body = Data()
    var headers: [String: String] = [:]
    var reason = ""
    /// Set by the write/progress callbacks when they abort a transfer for size.
    var exceeded: SizeCap?
    /// Where a streamed fetch's body goes (`HTTPFetcher.stream`); `nil`: into `body`.
    let sink: FetchBodySink?
    let stream: StreamOptions
    // Per hop, streamed fetches: whether this hop's body goes to the sink (a 2xx) or is dropped
    // (a redirect's or an error's body), decided at its first byte.
    private var hopRouting: HopRouting = .undecided
    private enum HopRouting { case undecided, sink, drop }
    /// Set when the sink aborted the transfer.
    var sinkAborted = false

    enum SizeCap {
        /// `maxResponseBytes`, counted on the wire.
        case wire
        /// `maxDecodedBytes`, counted after decoding.
        case decoded
    }

    /// Where the easy handle comes from and goes back to.
    private let pool: EasyHandlePool

    init?(
        id: Int, request: FetchRequest, sink: FetchBodySink? = nil, stream: StreamOptions = StreamOptions(),
        pool: EasyHandlePool, completion: @escaping (FetchResult) -> Void
    ) {
        guard let easy = pool.take() else { return nil }
        self.pool = pool
        self.sink = sink
        self.stream = stream
        self.id = id
        self.request = request
        self.completion = completion
        self.easy = easy
        self.currentURL = request.url
        self.visited = [request.url]
        self.deadline = MonotonicInstant.now().advanced(by: .seconds(max(0.001, request.limits.totalTimeout)))
        errorBuffer.initialize(to: 0)
        configure()
    }

    deinit {
        // The fetcher removed it from the multi handle before letting it go.
        pool.give(easy)
        curl_slist_free_all(headerList)
        errorBuffer.deallocate()
    }

    static let userAgent = "podcast-watch/0.1"
    static let accept = "application/rss+xml, application/atom+xml, application/xml;q=0.9, text/xml;q=0.9, */*;q=0.8"

    private func configure() {
        let limits = request.limits
        let me = Unmanaged.passUnretained(self).toOpaque()
        pw_easy_setopt_long(easy, CURLOPT_NOSIGNAL, 1)
        pw_easy_setopt_long(easy, CURLOPT_FOLLOWLOCATION, 0)
        pw_easy_setopt_str(easy, CURLOPT_PROTOCOLS_STR, "http,https")
        if sink == nil {
            pw_easy_setopt_str(easy, CURLOPT_ACCEPT_ENCODING, "")  // every encoding libcurl decodes
        } else {
            // A stream is stored as sent (identity), so a byte range means the same on resume.
            configureStream()
        }
        pw_easy_setopt_str(easy, CURLOPT_USERAGENT, CurlTransfer.userAgent)
        pw_easy_setopt_long(easy, CURLOPT_SSL_VERIFYPEER, 1)
        pw_easy_setopt_long(easy, CURLOPT_SSL_VERIFYHOST, 2)
        pw_easy_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, CurlTransfer.milliseconds(limits.connectTimeout))
        pw_easy_setopt_off(easy, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(max(1, limits.maxResponseBytes)))
        pw_easy_setopt_ptr(easy, CURLOPT_ERRORBUFFER, errorBuffer)
        pw_easy_setopt_write(easy) { data, size, count, context in
            guard let context, let data else { return 0 }
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
            let n = size * count
            if transfer.sink != nil { return transfer.streamed(data, n) }
            if transfer.body.count + n > max(1, transfer.request.limits.maxDecodedBytes) {
                transfer.exceeded = .decoded
                return 0  // makes libcurl fail the transfer with CURLE_WRITE_ERROR
            }
            data.withMemoryRebound(to: UInt8.self, capacity: n) { transfer.body.append($0, count: n) }
            return n
        }
        pw_easy_setopt_ptr(easy, CURLOPT_WRITEDATA, me)
        pw_easy_setopt_header(easy) { data, size, count, context in
            guard let context, let data else { return 0 }
            let n = size * count
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
            data.withMemoryRebound(to: UInt8.self, capacity: n) {
                transfer.headerLine(UnsafeBufferPointer(start: $0, count: n))
            }
            return n
        }
        pw_easy_setopt_ptr(easy, CURLOPT_HEADERDATA, me)
        // Counts body bytes as received, before content decoding: the wire-size cap.
        pw_easy_setopt_long(easy, CURLOPT_NOPROGRESS, 0)
        pw_easy_setopt_xferinfo(easy) { context, total, downloaded, _, _ in
            guard let context else { return 0 }
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
            if downloaded > curl_off_t(max(1, transfer.request.limits.maxResponseBytes)) {
                transfer.exceeded = .wire
                return 1  // CURLE_ABORTED_BY_CALLBACK
            }
            if let sink = transfer.sink, transfer.hopRouting == .sink {
                sink.progress(received: Int64(downloaded), expected: Int64(total))
            }
            return 0
        }
        pw_easy_setopt_ptr(easy, CURLOPT_XFERINFODATA, me)

        var list: UnsafeMutablePointer<curl_slist>?
        list = curl_slist_append(list, "Accept: " + (sink == nil ? CurlTransfer.accept : "*/*"))
        if sink != nil, stream.rangeStart > 0, let validator = stream.ifRange, !validator.isEmpty,
            !validator.contains("\n"), !validator.contains("\r")
        {
            list = curl_slist_append(list, "If-Range: " + validator)
        }
        if let etag = request.etag?.trimmingCharacters(in: .whitespacesAndNewlines), !etag.isEmpty, !etag.contains("\n")
        {
            list = curl_slist_append(list, "If-None-Match: " + etag)
            hasValidators = true
        }
        if let date = request.lastModified?.trimmingCharacters(in: .whitespacesAndNewlines), !date.isEmpty,
            !date.contains("\n")
        {
            list = curl_slist_append(list, "If-Modified-Since: " + date)
            hasValidators = true
        }
        headerList = list
        pw_easy_setopt_slist(easy, CURLOPT_HTTPHEADER, list)
        prepareHop()
    }

    // Streams: a range (with If-Range), a rate limit, a stall timeout instead of a short total.
    private func configureStream() {
        if stream.rangeStart > 0 {
            pw_easy_setopt_str(easy, CURLOPT_RANGE, "\(stream.rangeStart)-")
        }
        // Larger reads than libcurl's 16 kB default (curl(1) uses 100 kB): fewer callbacks per MB.
        pw_easy_setopt_long(easy, CURLOPT_BUFFERSIZE, 256 * 1024)
        pw_easy_setopt_long(easy, CURLOPT_LOW_SPEED_LIMIT, max(1, stream.lowSpeedBytes))
        pw_easy_setopt_long(easy, CURLOPT_LOW_SPEED_TIME, max(1, stream.lowSpeedSeconds))
        setRate(stream.maxBytesPerSecond)
    }

    /// Sets the transfer's receive speed limit in bytes per second (0: none).
    func setRate(_ bytesPerSecond: Int64) {
        pw_easy_setopt_off(easy, CURLOPT_MAX_RECV_SPEED_LARGE, curl_off_t(max(0, bytesPerSecond)))
    }

    // The write callback of a stream: a 2xx hop's bytes go to the sink, others are dropped.
    private func streamed(_ data: UnsafeMutablePointer<CChar>, _ n: Int) -> Int {
        guard let sink else { return 0 }
        if hopRouting == .undecided {
            var status = 0
            pw_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
            if (200..<300).contains(status) {
                hopRouting = .sink
                guard sink.responseStarted(status: status, headers: headers) else {
                    sinkAborted = true
                    return 0
                }
            } else {
                hopRouting = .drop
            }
        }
        guard hopRouting == .sink else { return n }
        switch sink.receive(UnsafeRawBufferPointer(start: data, count: n)) {
        case .accepted: return n
        case .pause: return Int(CURL_WRITEFUNC_PAUSE)
        case .abort:
            sinkAborted = true
            return 0
        }
    }

    /// Points the handle at `currentURL` with the time left, and clears the per-hop state.
    /// Returns false when no time is left.
    @discardableResult
    func prepareHop() -> Bool {
        body = Data()
        headers = [:]
        reason = ""
        exceeded = nil
        hopRouting = .undecided
        errorBuffer[0] = 0
        let left = MonotonicInstant.now().distance(to: deadline)
        guard left.nanoseconds > 0 else { return false }
        pw_easy_setopt_str(easy, CURLOPT_URL, currentURL)
        pw_easy_setopt_long(easy, CURLOPT_TIMEOUT_MS, max(1, Int(left.nanoseconds / 1_000_000)))
        return true
    }

    /// What a finished hop means: the final result, or go on to `currentURL`.
    enum HopOutcome {
        case finished(FetchResult)
        case redirect
    }

    func finishHop(code: CURLcode) -> HopOutcome {
        if code != CURLE_OK { return .finished(.failure(error(for: code))) }
        var status = 0
        pw_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
        // RFC 9110 §8.6: repeated Content-Length values that differ make the framing unknowable.
        if let lengths = headers["content-length"],
            Set(lengths.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }).count > 1
        {
            return .finished(
                .failure(failure(.network, "conflicting Content-Length headers (\(lengths))", status: status)))
        }
        // A 304 answers a conditional request only: to one without validators it would make a
        // feed never fetched look synced (and its first full fetch announce every episode).
        if status == 304 && !hasValidators {
            return .finished(
                .failure(
                    failure(.httpStatus(304), "HTTP 304 Not Modified to a request without validators", status: status)))
        }
        if (200..<300).contains(status) || status == 304 {
            var effective: UnsafeMutablePointer<CChar>?
            pw_easy_getinfo_str(easy, CURLINFO_EFFECTIVE_URL, &effective)
            return .finished(
                .success(
                    FetchResponse(
                        status: status, headers: headers, body: status == 304 ? Data() : body,
                        requestedURL: request.url,
                        effectiveURL: effective.map { String(cString: $0) } ?? currentURL,
                        permanentRedirect: permanentRedirect)))
        }
        if (300..<400).contains(status) {
            var location: UnsafeMutablePointer<CChar>?
            pw_easy_getinfo_str(easy, CURLINFO_REDIRECT_URL, &location)
            guard let location else {
                return .finished(
                    .failure(
                        failure(
                            .httpStatus(status), "HTTP \(status) \(reason) without a Location header", status: status)))
            }
            let target = String(cString: location)
            let scheme = target.prefix { $0 != ":" }.lowercased()
            guard scheme == "http" || scheme == "https" else {
                return .finished(
                    .failure(
                        failure(.invalidURL, "redirect to unsupported URL \(MaskedURL.string(target))", status: status))
                )
            }
            redirects += 1
            if visited.contains(target) {
                return .finished(
                    .failure(
                        failure(
                            .redirectLoop, "redirect loop: \(MaskedURL.string(target)) was already visited",
                            status: status)))
            }
            if redirects > request.limits.maxRedirects {
                return .finished(
                    .failure(
                        failure(.tooManyRedirects, "more than \(request.limits.maxRedirects) redirects", status: status)
                    ))
            }
            visited.insert(target)
            if !permanentRunBroken && (status == 301 || status == 308) {
                permanentRedirect = PermanentRedirect(url: target, status: permanentRedirect?.status ?? status)
            } else {
                permanentRunBroken = true
            }
            currentURL = target
            return .redirect
        }
        let text = reason.isEmpty ? "HTTP \(status)" : "HTTP \(status) \(reason)"
        return .finished(.failure(failure(.httpStatus(status), text, status: status)))
    }

    func failure(_ kind: FetchError.Kind, _ message: String, status: Int? = nil) -> FetchError {
        FetchError(
            kind: kind, url: currentURL, message: message, status: status, permanentRedirect: permanentRedirect,
            headers: status == nil ? [:] : headers)
    }

    private func error(for code: CURLcode) -> FetchError {
        let detail = errorBuffer[0] != 0 ? String(cString: errorBuffer) : String(cString: curl_easy_strerror(code))
        let limits = request.limits
        switch code {
        case CURLE_WRITE_ERROR where sinkAborted:
            return failure(.network, "the download's file refused the data")
        case CURLE_WRITE_ERROR where exceeded == .decoded:
            return failure(.tooLarge(decoded: true), "decoded body larger than \(limits.maxDecodedBytes) bytes")
        case CURLE_ABORTED_BY_CALLBACK where exceeded == .wire, CURLE_FILESIZE_EXCEEDED:
            return failure(.tooLarge(decoded: false), "response larger than \(limits.maxResponseBytes) bytes")
        case CURLE_OPERATION_TIMEDOUT:
            return failure(
                .timeout, "timed out (connect \(limits.connectTimeout) s, total \(limits.totalTimeout) s): \(detail)")
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            return failure(.dns, detail)
        case CURLE_COULDNT_CONNECT:
            return failure(.connect, detail)
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
            CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_ISSUER_ERROR,
            CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CRL_BADFILE,
            CURLE_SSL_SHUTDOWN_FAILED:
            return failure(.tls, detail)
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT:
            return failure(.invalidURL, detail)
        case CURLE_BAD_CONTENT_ENCODING:
            return failure(.decoding, detail)
        default:
            return failure(.network, detail)
        }
    }

    // One header line as libcurl gives it (CRLF included), parsed on its bytes: Foundation's
    // `trimmingCharacters` here was 38% of the loop thread's instructions on a 304 poll. Only
    // ASCII space, tab, CR and LF are trimmed (RFC 9110's optional whitespace, and the line end).
    func headerLine(_ line: UnsafeBufferPointer<UInt8>) {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A }
        func trimmed(_ range: Range<Int>) -> Range<Int> {
            var lower = range.lowerBound
            var upper = range.upperBound
            while lower < upper && isSpace(line[lower]) { lower += 1 }
            while upper > lower && isSpace(line[upper - 1]) { upper -= 1 }
            return lower..<upper
        }
        func text(_ range: Range<Int>) -> String {
            String(decoding: UnsafeBufferPointer(rebasing: line[range]), as: UTF8.self)
        }
        let whole = trimmed(0..<line.count)
        if whole.count >= 5, line[whole.lowerBound] == UInt8(ascii: "H"),
            text(whole.lowerBound..<whole.lowerBound + 5) == "HTTP/"
        {
            // A new response (an interim 100, or the next hop) starts: forget the previous one.
            // The reason phrase is what follows the second space (`HTTP/1.1 404 Not Found`).
            headers = [:]
            var spaces = 0
            var position = whole.lowerBound
            while position < whole.upperBound && spaces < 2 {
                if line[position] == 0x20 { spaces += 1 }
                position += 1
            }
            reason = spaces == 2 ? text(trimmed(position..<whole.upperBound)) : ""
            return
        }
        guard let colon = line[whole].firstIndex(of: UInt8(ascii: ":")) else { return }
        let name = text(trimmed(whole.lowerBound..<colon)).lowercased()
        let value = text(trimmed(colon + 1..<whole.upperBound))
        if let old = headers[name] {
            headers[name] = old + ", " + value
        } else {
            headers[name] = value
        }
    }

    static func milliseconds(_ seconds: Double) -> Int {
        let ms = seconds * 1000
        return ms >= Double(Int.max) ? Int.max : max(1, Int(ms.rounded()))
    }
}
