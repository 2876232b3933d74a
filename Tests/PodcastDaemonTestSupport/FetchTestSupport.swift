import Foundation
import LoopScheduler
import PodcastEngine
import PodcastTestSupport

/// An `EventLoop` and an `HTTPFetcher` used on the calling thread, plus a loopback server.
package final class FetchHarness {
    package let loop: EventLoop
    package let fetcher: HTTPFetcher
    package let server: TestHTTPServer

    package init() throws {
        loop = try EventLoop()
        fetcher = HTTPFetcher(loop: loop)
        server = try TestHTTPServer()
    }

    /// Runs the loop until `count` fetches completed (or a 10 s watchdog fires); returns the
    /// results in completion order.
    package func run(_ requests: [FetchRequest]) -> [FetchResult] {
        var results: [FetchResult] = []
        var tokens: [Cancellable] = []
        for request in requests {
            tokens.append(fetcher.fetch(request) { results.append($0) })
        }
        var expired = false
        let watchdog = loop.scheduleTimer(after: .seconds(10)) { expired = true }
        while results.count < requests.count && !expired {
            loop.runOnce(blocking: true)
        }
        watchdog.cancel()
        _ = tokens
        return results
    }

    package func fetch(_ request: FetchRequest) -> FetchResult? {
        run([request]).first
    }

    package func fetch(_ path: String, limits: FetchLimits = FetchLimits(connectTimeout: 2, totalTimeout: 5))
        -> FetchResult?
    {
        fetch(FetchRequest(url: server.url(path), limits: limits))
    }
}

extension Result {
    package var value: Success? {
        if case .success(let v) = self { return v }
        return nil
    }
    package var error: Failure? {
        if case .failure(let e) = self { return e }
        return nil
    }
}
