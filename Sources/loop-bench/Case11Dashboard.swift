import CLibevent
import Foundation
import LoopScheduler
import PodcastEngine
import PodcastFeeds
import PodcastStore
import PodcastWeb

/// Case 10: the web dashboard (`run --http`).
/// - `/api/feeds` over 2,000 feeds, requests per second over one keep-alive connection, beside a
///   bare evhttp handler (a C callback) answering a fixed body of the same size on the same kind
///   of loop: what our router, view models and JSON cost on top of libevent's HTTP.
/// - SSE fan-out: per client per loop iteration in which one feed changed (the web view's diff,
///   one `update` event built once, written to every stream, flushed to the sockets), beside
///   `send(2)` of the same event bytes to as many sockets (the floor of fanning out a message).
enum DashboardBench {
    static func run(_ settings: RunSettings) -> [Row] {
        let feeds = settings.size(2_000, quick: 100)
        let requests = settings.size(300, quick: 100)
        let clients = settings.size(100, quick: 10)
        let iterations = settings.size(200, quick: 40)
        let api = ApiFixture(feeds: feeds)
        defer { api.stop() }
        let (ours, bare) = measurePair(
            runs: settings.runs, { api.requestsPerSecond(port: api.ourPort, count: requests) },
            { api.requestsPerSecond(port: api.barePort, count: requests) })
        let (fan, floor) = measurePair(
            runs: settings.runs, { fanOut(feeds: feeds, clients: clients, iterations: iterations, web: true) },
            { fanOut(feeds: feeds, clients: clients, iterations: iterations, web: false) })
        return [
            Row(
                name: "11 GET /api/feeds (\(feeds) feeds)", unit: "requests/s", better: .higher, value: ours,
                baselineName: "bare evhttp handler, fixed body", baseline: bare,
                note: "\(requests) requests on one keep-alive connection; \(api.bodyBytes) bytes per answer"),
            Row(
                name: "11 SSE fan-out per client per iteration", unit: "ns/client", better: .lower, value: fan,
                baselineName: "send(2) of the same event", baseline: floor,
                note: "\(clients) event streams, \(iterations) iterations each changing one of \(feeds) feeds"),
        ]
    }

    // MARK: /api/feeds

    final class ApiFixture: @unchecked Sendable {
        let loop: EventLoop
        let dir: String
        var server: HTTPServer?
        var bare: OpaquePointer?
        var ourPort: UInt16 = 0
        var barePort: UInt16 = 0
        var bodyBytes = 0
        let done = DispatchSemaphore(value: 0)
        var view: AnyObject?

        init(feeds: Int) {
            loop = try! EventLoop()
            dir = NSTemporaryDirectory() + "loop-bench-web-\(getpid())"
            try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            let store = try! FeedStore(path: dir + "/state.sqlite")
            let library = LibraryViewModel()
            let now = Date()
            library.upsert(
                contentsOf: (1...feeds).map {
                    var p = Podcast(
                        id: Int64($0), url: "https://feeds.example.com/show-\($0).xml", title: "Show number \($0)",
                        status: .ok, lastCheck: now, nextPoll: now.addingTimeInterval(3600), newCount: $0 % 3)
                    p.lastError = $0 % 10 == 0 ? "HTTP 503" : nil
                    return p
                })
            let data = WebLibraryData(library: library, store: store)
            let router = WebRouter(
                data: data, control: NoControl(), access: WebAccess(token: nil), metrics: WebMetrics(), hub: nil)
            server = try! HTTPServer(loop: loop) { router.reply($0) }
            try! server!.bind(address: "127.0.0.1", port: 0)
            ourPort = server!.port
            let request = HTTPRequest(method: "GET", target: "/api/feeds", headers: ["Host": "127.0.0.1"])
            if case .response(let response) = router.reply(request) { bodyBytes = response.body.count }
            bareBody = [UInt8](repeating: UInt8(ascii: "x"), count: bodyBytes)
            bare = evhttp_new(loop.base)
            evhttp_set_gencb(
                bare,
                { request, _ in
                    // As HTTPServer does: no Nagle delay on the answers.
                    if let bev = evhttp_connection_get_bufferevent(evhttp_request_get_connection(request)) {
                        var one: Int32 = 1
                        setsockopt(
                            bufferevent_getfd(bev), Int32(IPPROTO_TCP), TCP_NODELAY, &one,
                            socklen_t(MemoryLayout<Int32>.size))
                    }
                    let buffer = evbuffer_new()
                    bareBody.withUnsafeBytes { _ = evbuffer_add(buffer, $0.baseAddress, $0.count) }
                    evhttp_add_header(evhttp_request_get_output_headers(request), "Content-Type", "application/json")
                    evhttp_send_reply(request, 200, "OK", buffer)
                    evbuffer_free(buffer)
                }, nil)
            let handle = evhttp_bind_socket_with_handle(bare, "127.0.0.1", 0)
            var storage = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    getsockname(evhttp_bound_socket_get_fd(handle), $0, &length)
                }
            }
            barePort = UInt16(bigEndian: storage.sin_port)
            let loop = self.loop
            let done = self.done
            Thread {
                try? loop.run()
                done.signal()
            }.start()
        }

        func requestsPerSecond(port: UInt16, count: Int) -> Double {
            let client = KeepAliveClient(port: port)
            let start = nowNanoseconds()
            for _ in 0..<count { blackhole(client.get("/api/feeds")) }
            let elapsed = Double(nowNanoseconds() - start) / 1e9
            return Double(count) / elapsed
        }

        func stop() {
            let finished = DispatchSemaphore(value: 0)
            let fixture = self
            loop.execute {
                fixture.server?.close()
                if let bare = fixture.bare { evhttp_free(bare) }
                finished.signal()
            }
            finished.wait()
            loop.stop()
            done.wait()
            loop.shutdown()
            try? FileManager.default.removeItem(atPath: dir)
        }
    }

    // MARK: SSE fan-out

    /// ns per client per iteration: `iterations` loop iterations, each changing one feed, with
    /// `clients` event streams connected (web), or the same event bytes sent with send(2) to as
    /// many connected sockets (floor).
    static func fanOut(feeds: Int, clients: Int, iterations: Int, web: Bool) -> Double {
        let loop = try! EventLoop()
        defer { loop.shutdown() }
        let scheduler = LoopScheduler(loop: loop)
        let dir = NSTemporaryDirectory() + "loop-bench-sse-\(getpid())"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try! FeedStore(path: dir + "/state-\(web).sqlite")
        let library = LibraryViewModel()
        library.upsert(
            contentsOf: (1...feeds).map { Podcast(id: Int64($0), url: "https://f/\($0)", title: "Show \($0)") })
        let hub = SSEHub(snapshot: { "{}" })
        let view = WebView(data: WebLibraryData(library: library, store: store), hub: hub, scheduler: scheduler)
        let server = try! HTTPServer(loop: loop, limits: HTTPLimits(maxStreams: clients + 1)) { _ in
            .stream(head: HTTPResponse(status: 200)) { hub.add($0) }
        }
        defer { server.close() }
        try! server.bind(address: "127.0.0.1", port: 0)
        // The readers: connected sockets drained by a thread, so no stream ever backs up.
        var sockets: [Int32] = []
        for _ in 0..<clients {
            let client = KeepAliveClient(port: server.port)
            client.send("GET /events HTTP/1.1\r\nHost: b\r\n\r\n")
            sockets.append(client.takeDescriptor())
        }
        let reading = Drainer(sockets)
        defer { reading.stop() }
        while web && hub.clientCount < clients { _ = loop.runOnce(blocking: true) }
        for _ in 0..<5 { _ = loop.runOnce(blocking: false) }
        // The floor's sockets: a connected pair per client, the far ends drained.
        var pairs: [(Int32, Int32)] = []
        if !web {
            for _ in 0..<clients {
                var fds: [Int32] = [0, 0]
                precondition(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
                pairs.append((fds[0], fds[1]))
            }
        }
        let floorReader = Drainer(pairs.map(\.1))
        defer {
            floorReader.stop()
            for (a, _) in pairs { close(a) }
        }
        let sample =
            "event: update\nid: 1\ndata: "
            + OrderedJSON.object([
                ("feeds", .array([WebJSON.feed(Podcast(id: 1, url: "https://f/1", title: "Show 1"), episodeCount: 0)])),
                ("removed", .array([])),
                ("counts", WebJSON.counts(library.snapshots, totalNew: 0)),
            ]).serialized + "\n\n"
        let start = nowNanoseconds()
        for i in 0..<iterations {
            let id = Int64(i % feeds + 1)
            if web {
                library.update(id: id) { $0.newCount += 1 }
                _ = loop.runOnce(blocking: false)  // the view's update: one event to every stream
                _ = loop.runOnce(blocking: false)  // the streams' buffers written to the sockets
            } else {
                for (a, _) in pairs { blackhole(sample.withCString { send(a, $0, strlen($0), Int32(MSG_NOSIGNAL)) }) }
            }
        }
        let elapsed = Double(nowNanoseconds() - start)
        withExtendedLifetime(view) {}
        return elapsed / Double(iterations * clients)
    }
}

nonisolated(unsafe) private var bareBody: [UInt8] = []

/// The router's actions in the benchmark: none are called.
final class NoControl: WebControl {
    func addFeed(url: String, title: String?) throws -> FeedRecord { throw StoreError.noSuchFeed(url) }
    func removeFeed(id: Int64) throws {}
    func pollFeed(id: Int64) -> Bool { false }
    func pollAll() {}
    func importOutlines(_ outlines: [OPMLOutline]) throws -> WebImportSummary { WebImportSummary() }
    func exportOPML(revealingCredentials: Bool) throws -> String { "" }
}

/// A blocking HTTP/1.1 client keeping one connection open.
private final class KeepAliveClient {
    private var fd: Int32
    private var buffer: [UInt8] = []

    init(port: UInt16) {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        precondition(result == 0, "cannot connect to the benchmark server")
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    deinit { if fd >= 0 { close(fd) } }

    func send(_ text: String) {
        _ = text.withCString { Glibc.send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
    }

    func takeDescriptor() -> Int32 {
        defer { fd = -1 }
        return fd
    }

    /// GETs `path`; returns the body length.
    func get(_ path: String) -> Int {
        send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            if let end = find([13, 10, 13, 10]) {
                let head = String(decoding: buffer[..<end], as: UTF8.self).lowercased()
                let length =
                    head.components(separatedBy: "content-length: ").dropFirst().first
                    .flatMap { Int($0.prefix { $0.isNumber }) } ?? 0
                if buffer.count >= end + 4 + length {
                    buffer.removeFirst(end + 4 + length)
                    return length
                }
            }
            let n = recv(fd, &chunk, chunk.count, 0)
            precondition(n > 0, "the benchmark server closed the connection")
            buffer += chunk[..<n]
        }
    }

    private func find(_ needle: [UInt8]) -> Int? {
        guard buffer.count >= needle.count else { return nil }
        for i in 0...(buffer.count - needle.count) where buffer[i] == needle[0] {
            if Array(buffer[i..<(i + needle.count)]) == needle { return i }
        }
        return nil
    }
}

/// Reads and discards whatever arrives on `fds` on a thread of its own until stopped (then
/// closes them).
private final class Drainer: @unchecked Sendable {
    private let fds: [Int32]
    private let stopping = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private var stopFlag = false
    private let lock = NSLock()

    init(_ fds: [Int32]) {
        self.fds = fds
        Thread { [self] in
            var polls = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while !lock.withLock({ stopFlag }) {
                guard !polls.isEmpty else { break }
                if poll(&polls, nfds_t(polls.count), 20) > 0 {
                    for i in polls.indices where polls[i].revents != 0 {
                        _ = recv(polls[i].fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
                    }
                }
            }
            finished.signal()
        }.start()
    }

    func stop() {
        lock.withLock { stopFlag = true }
        finished.wait()
        for fd in fds { close(fd) }
    }
}
