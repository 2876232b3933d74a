import Foundation
import LoopScheduler
import PodcastEngine
import PodcastFeeds
import PodcastStore

/// A virtual-clock scheduler for daemon tests: actions run only inside `advance(by:)`, in time
/// order (FIFO for equal times).
package final class ManualScheduler: Scheduler {
    package typealias SchedulerTimeType = MonotonicInstant
    package typealias SchedulerOptions = Never

    package private(set) var now = MonotonicInstant(nanoseconds: 0)
    package var minimumTolerance: MonotonicInstant.Stride { .nanoseconds(0) }

    /// A scheduler at virtual time 0.
    package init() {}
    private var queue: [(at: MonotonicInstant, seq: Int, action: () -> Void)] = []
    private var seq = 0

    package func schedule(options: Never?, _ action: @escaping () -> Void) {
        schedule(after: now, tolerance: .nanoseconds(0), options: nil, action)
    }

    package func schedule(
        after date: MonotonicInstant, tolerance: MonotonicInstant.Stride, options: Never?,
        _ action: @escaping () -> Void
    ) {
        seq += 1
        queue.append((date, seq, action))
    }

    /// Repeats `action` every `interval` (at least 1 ns) from `date` until the token is cancelled.
    package func schedule(
        after date: MonotonicInstant, interval: MonotonicInstant.Stride, tolerance: MonotonicInstant.Stride,
        options: Never?, _ action: @escaping () -> Void
    ) -> Cancellable {
        seq += 1
        let key = seq
        let step = max(interval, .nanoseconds(1))
        repeating[key] = step
        queue.append((date, key, action))
        return AnyCancellable { [weak self] in
            self?.queue.removeAll { $0.seq == key }
            self?.repeating[key] = nil
        }
    }
    private var repeating: [Int: MonotonicInstant.Stride] = [:]

    /// Seconds from now of the pending actions, sorted.
    package var pendingDelays: [Double] { queue.map { now.distance(to: $0.at).seconds }.sorted() }

    /// Actions pending (a repeating one counts once).
    package var pendingCount: Int { queue.count }

    package func advance(by seconds: Double) {
        let end = now.advanced(by: .seconds(seconds))
        while let next = queue.filter({ $0.at <= end }).min(by: { ($0.at, $0.seq) < ($1.at, $1.seq) }) {
            queue.removeAll { $0.seq == next.seq }
            now = max(now, next.at)
            if let step = repeating[next.seq] { queue.append((next.at.advanced(by: step), next.seq, next.action)) }
            next.action()
        }
        now = end
    }
}

/// A fetcher whose answers the test gives: each request waits until `respond` (or answers at
/// once through `autoRespond`).
package final class ScriptedFetcher: FeedFetching {
    package private(set) var requests: [FetchRequest] = []
    private var pending: [(id: Int, request: FetchRequest, completion: (FetchResult) -> Void)] = []
    private var nextID = 0
    package private(set) var cancelled = 0
    package var autoRespond: ((FetchRequest) -> FetchResult)?

    /// A fetcher with nothing scripted yet.
    package init() {}

    package var pendingURLs: [String] { pending.map(\.request.url) }

    package func fetch(_ request: FetchRequest, completion: @escaping (FetchResult) -> Void) -> Cancellable {
        requests.append(request)
        if let auto = autoRespond {
            completion(auto(request))
            return AnyCancellable {}
        }
        nextID += 1
        let id = nextID
        pending.append((id, request, completion))
        return AnyCancellable { [weak self] in
            guard let self, self.pending.contains(where: { $0.id == id }) else { return }
            self.pending.removeAll { $0.id == id }
            self.cancelled += 1
        }
    }

    /// Completes the oldest pending request for `url`.
    package func respond(_ url: String, _ result: FetchResult) {
        guard let index = pending.firstIndex(where: { $0.request.url == url }) else {
            fatalError("no request for \(url)")
        }
        let entry = pending.remove(at: index)
        entry.completion(result)
    }

    /// Completes every pending request (in order) with `result(url)`.
    package func respondAll(_ result: (String) -> FetchResult) {
        let all = pending
        pending.removeAll()
        for entry in all { entry.completion(result(entry.request.url)) }
    }
}

/// A 200 whose body lists episode guids, comma-separated; `parseGuids` reads it.
package func ok(_ url: String, _ guids: String, etag: String? = nil, redirect: PermanentRedirect? = nil) -> FetchResult
{
    var headers: [String: String] = [:]
    if let etag { headers["etag"] = etag }
    return .success(
        FetchResponse(
            status: 200, headers: headers, body: Data(guids.utf8), requestedURL: url,
            effectiveURL: redirect?.url ?? url, permanentRedirect: redirect))
}

package func notModified(_ url: String) -> FetchResult {
    .success(FetchResponse(status: 304, requestedURL: url, effectiveURL: url))
}

package func httpError(_ url: String, _ status: Int) -> FetchResult {
    .failure(FetchError(kind: .httpStatus(status), url: url, message: "HTTP \(status)", status: status))
}

package struct NotAFeed: Error, CustomStringConvertible { package var description: String { "no channel" } }

/// Episode `gN` is published N days after the epoch.
package func parseGuids(_ response: FetchResponse) throws -> ParsedFeed {
    let text = String(decoding: response.body, as: UTF8.self)
    if text == "garbage" { throw NotAFeed() }
    let guids = text.split(separator: ",").map(String.init)
    return ParsedFeed(
        format: .rss, channel: Channel(title: "Show of \(response.requestedURL)"),
        episodes: guids.map {
            Episode(
                guid: $0, title: "Episode \($0)",
                published: Date(timeIntervalSince1970: Double(Int($0.dropFirst()) ?? 0) * 86_400),
                enclosures: [Enclosure(url: "http://media/\($0).mp3", length: 100, mimeType: "audio/mpeg")])
        })
}

/// u = 0.5: jitter adds nothing, so delays are exact.
package func noJitter() -> UInt64 { 1 << 63 }
