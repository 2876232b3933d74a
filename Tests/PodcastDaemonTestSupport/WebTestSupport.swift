import Foundation
import LoopScheduler
import PodcastEngine
import PodcastStore
import PodcastTestSupport
import PodcastWeb

/// A daemon on a manual clock with two feeds polled once (feed 1 fetched with episodes g1 and
/// g2, feed 2 failing with 404), and the web router over it.
package final class WebFixture {
    package static let now = Date(timeIntervalSince1970: 1_700_000_000)  // 2023-11-14T22:13:20Z
    package let dir = TemporaryDirectory("web")
    package let store: FeedStore
    package let scheduler = ManualScheduler()
    package let fetcher = ScriptedFetcher()
    package let daemon: PodcastDaemon<ManualScheduler>
    package let data: WebLibraryData
    package let metrics = WebMetrics()
    package let control: DaemonWebControl<ManualScheduler>
    package var access: WebAccess

    package init(token: String? = nil, poll: Bool = true) throws {
        store = try FeedStore(path: dir.file("state.sqlite"))
        try store.add(url: "http://h/a")
        try store.add(url: "http://h/b")
        daemon = PodcastDaemon(
            store: store, fetcher: fetcher, parse: parseGuids, scheduler: scheduler, now: { WebFixture.now },
            random: noJitter)
        try daemon.start()
        if poll {
            fetcher.respond("http://h/a", ok("http://h/a", "g1,g2"))
            fetcher.respond("http://h/b", httpError("http://h/b", 404))
        }
        data = WebLibraryData(library: daemon.library, store: store)
        control = DaemonWebControl(store: store, daemon: daemon)
        access = WebAccess(token: token, csrfSecret: "s3cret")
    }

    package var router: WebRouter {
        WebRouter(data: data, control: control, access: access, metrics: metrics, hub: nil)
    }

    /// The response to `method target` from a loopback client (Host 127.0.0.1:8080).
    package func send(
        _ method: String, _ target: String, headers: [String: String] = [:], body: String = ""
    ) -> HTTPResponse {
        var all = ["Host": "127.0.0.1:8080"]
        for (k, v) in headers { all[k] = v }
        let request = HTTPRequest(method: method, target: target, headers: all, body: Array(body.utf8))
        switch router.reply(request) {
        case .response(let response): return response
        case .deferred(let start):
            // The router's default executor runs the work in place: the answer is there at once.
            var answer: HTTPResponse?
            start { answer = $0 }
            guard let answer else { fatalError("no answer yet for \(target)") }
            return answer
        case .stream: fatalError("a stream for \(target)")
        }
    }

    package func json(_ method: String, _ target: String, _ body: String) -> HTTPResponse {
        send(method, target, headers: ["Content-Type": "application/json"], body: body)
    }
}

/// An event-stream client that records what it is sent; `backedUp` plays a slow reader.
package final class RecordingSSEClient: SSEClient {
    package var isOpen = true
    package var backedUp = false
    /// Backed up: far more pending than any bound plus snapshot.
    package var pendingBytes: Int { backedUp ? Int.max / 2 : 0 }
    package let bufferLimit = 64 * 1024
    package var onDrained: (() -> Void)?
    package var onClose: (() -> Void)?
    package private(set) var writes: [String] = []

    /// An open client that is not backed up.
    package init() {}

    package func write(_ text: String) { writes.append(text) }

    /// The events written (`retry` hints and comments left out): (name, data).
    package var events: [(name: String, data: String)] {
        writes.compactMap { chunk in
            var name: String?
            var data: String?
            for line in chunk.split(separator: "\n") {
                if line.hasPrefix("event: ") { name = String(line.dropFirst(7)) }
                if line.hasPrefix("data: ") { data = String(line.dropFirst(6)) }
            }
            guard let name, let data else { return nil }
            return (name, data)
        }
    }

    package func drain() {
        backedUp = false
        onDrained?()
    }
}

/// `text` as a JSON object (test helper; traps on non-JSON).
package func jsonObject(_ text: String) -> [String: Any] {
    (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
}
