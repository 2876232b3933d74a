import CCurl
import Foundation
import LoopScheduler
import PodcastStore

/// Fetches feeds over HTTP(S) with libcurl's multi interface, driven by a libevent loop
/// (`CURLMOPT_SOCKETFUNCTION` / `CURLMOPT_TIMERFUNCTION` feeding `curl_multi_socket_action`,
/// completions from `curl_multi_info_read`: the pattern of curl's hiperfifo example). Many
/// fetches run at once on one thread, sharing connections.
///
/// Per fetch: redirects followed by hand up to `FetchLimits.maxRedirects` (a leading run of
/// 301/308 is reported as `permanentRedirect`; 302/307 are not), gzip/deflate decoding
/// (`CURLOPT_ACCEPT_ENCODING ""`), TLS peer and host verification, connect and total timeouts,
/// wire and decoded size caps, conditional GET, `User-Agent: podcast-watch/0.1`. `file://` URLs
/// and plain paths are read from disk without libcurl (only regular files), on the
/// `OffLoopExecutor` when one is given so a slow disk never blocks the loop.
///
/// Thread rules: create it, call `fetch`, cancel, and release it on the loop's thread;
/// completions run on that thread, never synchronously inside `fetch`.
public final class HTTPFetcher {
    private let driver: FetchLoopDriver
    private let multi: UnsafeMutableRawPointer
    private var transfers: [UnsafeMutableRawPointer: CurlTransfer] = [:]
    private var watches: [curl_socket_t: Cancellable] = [:]
    private var timer: Cancellable?
    private var fileFetches: [Int: Cancellable] = [:]
    private var nextID = 0
    private let fileReader: OffLoopExecutor?
    private let handles = EasyHandlePool()

    /// A fetcher bound to `loop`: its sockets and timer are `loop` registrations. Local files
    /// are read on `fileReader` (a `WorkerPool` delivering to `loop`), or, without one, on the
    /// loop thread.
    public convenience init(loop: EventLoop, fileReader: OffLoopExecutor? = nil) {
        self.init(driver: EventLoopFetchDriver(loop: loop), fileReader: fileReader)
    }

    /// A fetcher on a raw libevent `event_base` (for a base owned by C code; `EventLoop.base`
    /// also works). The base must outlive the fetcher and run on the thread that uses it. Local
    /// files are read on `fileReader` (delivering to that thread), or, without one, in place.
    public convenience init(eventBase: OpaquePointer, fileReader: OffLoopExecutor? = nil) {
        self.init(driver: LibeventFetchDriver(base: eventBase), fileReader: fileReader)
    }

    init(driver: FetchLoopDriver, fileReader: OffLoopExecutor? = nil) {
        HTTPFetcher.globalInit
        self.driver = driver
        self.fileReader = fileReader
        guard let multi = curl_multi_init() else {
            // Only fails on out-of-memory.
            fatalError("curl_multi_init failed")
        }
        self.multi = multi
        let me = Unmanaged.passUnretained(self).toOpaque()
        pw_multi_setopt_socketfunction(multi) { _, socket, what, context, _ in
            guard let context else { return 0 }
            Unmanaged<HTTPFetcher>.fromOpaque(context).takeUnretainedValue().socketChanged(socket, what)
            return 0
        }
        pw_multi_setopt_ptr(multi, CURLMOPT_SOCKETDATA, me)
        pw_multi_setopt_timerfunction(multi) { _, milliseconds, context in
            guard let context else { return 0 }
            Unmanaged<HTTPFetcher>.fromOpaque(context).takeUnretainedValue().timerChanged(milliseconds)
            return 0
        }
        pw_multi_setopt_ptr(multi, CURLMOPT_TIMERDATA, me)
    }

    deinit {
        for (easy, _) in transfers { curl_multi_remove_handle(multi, easy) }
        transfers.removeAll()
        curl_multi_cleanup(multi)
        watches.removeAll()
        timer = nil
        for token in fileFetches.values { token.cancel() }
        fileFetches.removeAll()
    }

    // curl_global_init is not thread-safe against other libcurl calls; a static let runs once.
    private static let globalInit: Void = { curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()

    /// Fetches `request`; `completion` runs exactly once on the loop's thread with the response
    /// (2xx or 304) or a `FetchError`, unless the returned token is cancelled first (then never).
    /// A 4xx/5xx status is a `.httpStatus` error.
    @discardableResult
    public func fetch(_ request: FetchRequest, completion: @escaping (FetchResult) -> Void) -> Cancellable {
        nextID += 1
        let id = nextID
        switch FetchTarget(request.url) {
        case .http:
            break
        case .file(let path) where fileReader != nil:
            fileFetches[id] = fileReader!.submit(
                { FileFetch.read(path: path, request: request) },
                completion: { [weak self] result in
                    self?.fileFetches[id] = nil
                    completion(result)
                })
            return FetchToken { [weak self] in
                self?.fileFetches[id]?.cancel()
                self?.fileFetches[id] = nil
            }
        case .file(let path):
            // Read now, deliver on the next loop pass so completion is never synchronous.
            let result = FileFetch.read(path: path, request: request)
            fileFetches[id] = driver.timer(milliseconds: 0) { [weak self] in
                self?.fileFetches[id] = nil
                completion(result)
            }
            return FetchToken { [weak self] in self?.fileFetches[id] = nil }
        case .invalid(let reason):
            let error = FetchError(kind: .invalidURL, url: request.url, message: reason)
            fileFetches[id] = driver.timer(milliseconds: 0) { [weak self] in
                self?.fileFetches[id] = nil
                completion(.failure(error))
            }
            return FetchToken { [weak self] in self?.fileFetches[id] = nil }
        }
        guard let transfer = CurlTransfer(id: id, request: request, pool: handles, completion: completion) else {
            let error = FetchError(kind: .network, url: request.url, message: "curl_easy_init failed")
            fileFetches[id] = driver.timer(milliseconds: 0) { [weak self] in
                self?.fileFetches[id] = nil
                completion(.failure(error))
            }
            return FetchToken { [weak self] in self?.fileFetches[id] = nil }
        }
        start(transfer)
        let easy = transfer.easy
        return FetchToken { [weak self, weak transfer] in
            guard let self, let transfer, self.transfers[easy] === transfer else { return }
            self.remove(transfer)
        }
    }

    /// Streams the body of `request` (HTTP(S) only) into `sink` instead of memory: the episode
    /// downloads. Redirects, TLS and the wire cap (`limits.maxResponseBytes`) work as for
    /// `fetch`; the body is asked for without content coding, from `options.rangeStart`, with
    /// `If-Range`, a rate limit and a stall timeout (`StreamOptions`); `limits.totalTimeout`
    /// still bounds the whole transfer. `completion` runs once on the loop thread, unless the
    /// control is cancelled first: a `FetchResponse` with an empty body for a 2xx (its status
    /// and headers), else a `FetchError` (a 416 is `.httpStatus(416)`; a refusal by the sink is
    /// `.network`). Loop thread.
    func stream(
        _ request: FetchRequest, options: StreamOptions, into sink: FetchBodySink,
        completion: @escaping (FetchResult) -> Void
    ) -> StreamControl {
        nextID += 1
        let id = nextID
        let refuse = { [weak self] (error: FetchError) -> StreamControl in
            self?.fileFetches[id] = self?.driver.timer(milliseconds: 0) { [weak self] in
                self?.fileFetches[id] = nil
                completion(.failure(error))
            }
            return StreamControl(
                cancel: { [weak self] in self?.fileFetches[id] = nil }, pause: { _ in }, rate: { _ in })
        }
        guard case .http = FetchTarget(request.url) else {
            return refuse(FetchError(kind: .invalidURL, url: request.url, message: "not an http(s) URL"))
        }
        guard
            let transfer = CurlTransfer(
                id: id, request: request, sink: sink, stream: options, pool: handles, completion: completion)
        else {
            return refuse(FetchError(kind: .network, url: request.url, message: "curl_easy_init failed"))
        }
        start(transfer)
        let easy = transfer.easy
        return StreamControl(
            cancel: { [weak self, weak transfer] in
                guard let self, let transfer, self.transfers[easy] === transfer else { return }
                self.remove(transfer)
            },
            pause: { [weak self, weak transfer] paused in
                guard let self, let transfer, self.transfers[easy] === transfer else { return }
                curl_easy_pause(easy, paused ? CURLPAUSE_RECV : CURLPAUSE_CONT)
                // Unpausing can finish a transfer (its held bytes were the last): collect it.
                self.drainCompletions()
            },
            rate: { [weak transfer] rate in transfer?.setRate(rate) })
    }

    /// Fetches in flight (HTTP transfers and pending file reads).
    public var activeCount: Int { transfers.count + fileFetches.count }

    /// Cancels every fetch in flight; none of their completions will run.
    public func cancelAll() {
        for transfer in Array(transfers.values) { remove(transfer) }
        // Explicitly: a worker pool's token does not cancel when released.
        for token in fileFetches.values { token.cancel() }
        fileFetches.removeAll()
    }

    private func start(_ transfer: CurlTransfer) {
        transfers[transfer.easy] = transfer
        let rc = curl_multi_add_handle(multi, transfer.easy)
        if rc != CURLM_OK {
            transfers[transfer.easy] = nil
            let error = transfer.failure(.network, "curl_multi_add_handle: " + String(cString: curl_multi_strerror(rc)))
            fileFetches[transfer.id] = driver.timer(milliseconds: 0) { [weak self] in
                self?.fileFetches[transfer.id] = nil
                transfer.completion(.failure(error))
            }
        }
    }

    private func remove(_ transfer: CurlTransfer) {
        curl_multi_remove_handle(multi, transfer.easy)
        transfers[transfer.easy] = nil
    }

    // MARK: libcurl → loop

    /// `CURLMOPT_SOCKETFUNCTION`: (re)register or drop the watch on `socket`.
    private func socketChanged(_ socket: curl_socket_t, _ what: Int32) {
        watches[socket]?.cancel()
        watches[socket] = nil
        guard what != CURL_POLL_REMOVE else { return }
        let read = what == CURL_POLL_IN || what == CURL_POLL_INOUT
        let write = what == CURL_POLL_OUT || what == CURL_POLL_INOUT
        watches[socket] = driver.watch(fd: socket, read: read, write: write) { [weak self] readable, writable in
            var flags: Int32 = 0
            if readable { flags |= CURL_CSELECT_IN }
            if writable { flags |= CURL_CSELECT_OUT }
            self?.socketAction(socket, flags)
        }
    }

    /// `CURLMOPT_TIMERFUNCTION`: one loop timer, replaced on each call, removed for -1.
    private func timerChanged(_ milliseconds: Int) {
        timer?.cancel()
        timer = nil
        guard milliseconds >= 0 else { return }
        timer = driver.timer(milliseconds: milliseconds) { [weak self] in
            self?.socketAction(CURL_SOCKET_TIMEOUT, 0)
        }
    }

    private func socketAction(_ socket: curl_socket_t, _ flags: Int32) {
        var running: Int32 = 0
        curl_multi_socket_action(multi, socket, flags, &running)
        drainCompletions()
    }

    /// Reads finished hops; follows redirects; then calls completions, outside any libcurl call.
    private func drainCompletions() {
        var finished: [(CurlTransfer, FetchResult)] = []
        var restart: [CurlTransfer] = []
        var queued: Int32 = 0
        while let message = curl_multi_info_read(multi, &queued) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
                let transfer = transfers[easy]
            else { continue }
            let code = message.pointee.data.result
            switch transfer.finishHop(code: code) {
            case .finished(let result):
                finished.append((transfer, result))
            case .redirect:
                restart.append(transfer)
            }
        }
        for (transfer, _) in finished { remove(transfer) }
        for transfer in restart {
            remove(transfer)
            if transfer.prepareHop() {
                start(transfer)
            } else {
                let limits = transfer.request.limits
                finished.append(
                    (
                        transfer,
                        .failure(
                            transfer.failure(
                                .timeout, "timed out after \(limits.totalTimeout) s while following redirects"))
                    ))
            }
        }
        for (transfer, result) in finished { transfer.completion(result) }
    }
}

/// The token `HTTPFetcher.fetch` returns; `cancel()` on the loop thread, idempotent.
private final class FetchToken: Cancellable {
    private var action: (() -> Void)?
    init(_ action: @escaping () -> Void) { self.action = action }
    func cancel() {
        let a = action
        action = nil
        a?()
    }
}
