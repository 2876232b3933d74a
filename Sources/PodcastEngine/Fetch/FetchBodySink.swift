import LoopScheduler

/// Where a streamed fetch's body goes instead of memory (`HTTPFetcher.stream`): an episode
/// download writes it to a file. Every method runs on the loop thread, from inside libcurl's
/// callbacks, so each must return quickly and must not call back into the fetcher synchronously
/// (pausing is done by returning `.pause`, resuming later with `StreamControl.resume()`).
protocol FetchBodySink: AnyObject {
    /// The final hop's 2xx response began (headers complete, names lower-cased; `status` 200 or
    /// 206). Called once per fetch, before the first `receive`. Returning false aborts the fetch
    /// (a `.network` error; the sink knows why): a 206 for the wrong range, say.
    func responseStarted(status: Int, headers: [String: String]) -> Bool
    /// Body bytes of that response, in order, on the wire encoding (streams ask for `identity`).
    /// The buffer is valid only during the call.
    func receive(_ bytes: UnsafeRawBufferPointer) -> FetchSinkVerdict
    /// libcurl's transfer progress (`CURLOPT_XFERINFOFUNCTION`): body bytes of this response so
    /// far and the expected total (0 when unknown). Called many times a second per transfer.
    func progress(received: Int64, expected: Int64)
}

/// What a `FetchBodySink` did with bytes.
enum FetchSinkVerdict {
    /// Taken; go on.
    case accepted
    /// Not taken: pause the transfer (libcurl's `CURL_WRITEFUNC_PAUSE`) and offer the same
    /// bytes again after `StreamControl.resume()`.
    case pause
    /// Abort the fetch (a `.network` error; the sink keeps its own reason).
    case abort
}

/// How a streamed fetch differs from a feed fetch: where it starts and how fast it may go.
struct StreamOptions: Equatable {
    /// First byte wanted (`Range: bytes=N-`, RFC 9110 §14.2); 0 asks for the whole body.
    var rangeStart: Int64 = 0
    /// Validator sent as `If-Range` with a range (RFC 9110 §13.1.5): a strong `ETag` or a
    /// `Last-Modified` date, so a changed file comes back whole (200) rather than spliced.
    var ifRange: String?
    /// Bytes per second at most for this transfer (`CURLOPT_MAX_RECV_SPEED_LARGE`); 0: no limit.
    var maxBytesPerSecond: Int64 = 0
    /// A transfer slower than `lowSpeedBytes` per second for `lowSpeedSeconds` fails as a
    /// timeout (`CURLOPT_LOW_SPEED_LIMIT`/`_TIME`); a paused transfer is not counted.
    var lowSpeedBytes = 1
    /// See `lowSpeedBytes`.
    var lowSpeedSeconds = 60
}

/// The handle of a streamed fetch: cancel it, pause or resume the transfer, change its rate.
/// Loop thread only.
final class StreamControl: Cancellable {
    fileprivate(set) var cancelAction: (() -> Void)?
    fileprivate(set) var pauseAction: ((Bool) -> Void)?
    fileprivate(set) var rateAction: ((Int64) -> Void)?

    init(cancel: @escaping () -> Void, pause: @escaping (Bool) -> Void, rate: @escaping (Int64) -> Void) {
        cancelAction = cancel
        pauseAction = pause
        rateAction = rate
    }

    /// Stops the transfer; its completion will not run. Idempotent.
    func cancel() {
        let action = cancelAction
        cancelAction = nil
        pauseAction = nil
        rateAction = nil
        action?()
    }

    /// Lets a transfer paused by `.pause` go on (`curl_easy_pause(CURLPAUSE_CONT)`); libcurl
    /// may offer the held bytes again from inside this call.
    func resume() { pauseAction?(false) }

    /// Sets the transfer's speed limit in bytes per second (0: none).
    func setRate(_ bytesPerSecond: Int64) { rateAction?(bytesPerSecond) }
}
