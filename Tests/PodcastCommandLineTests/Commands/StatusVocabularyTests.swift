import Foundation
import PodcastDaemonTestSupport
import PodcastTestSupport
import Testing

@testable import PodcastCommandLine
@testable import PodcastEngine
@testable import PodcastStore

/// One status vocabulary (ok, backing-off, failing, disabled) for the store's records, `list`,
/// `list --json` and the `feed_error` events: a 500 is not "failing" in one and "backing-off"
/// in the other.
struct StatusVocabularyTests {
    @Test func storedFailuresReadAsThePolicysHealth() throws {
        let dir = TemporaryDirectory()
        let store = try FeedStore(path: dir.file("s.sqlite"))
        let cases: [(Int?, PollPolicy.Health)] = [
            (500, .backingOff), (503, .backingOff), (nil, .backingOff), (429, .backingOff),
            (408, .backingOff), (404, .failing), (403, .failing), (410, .disabled),
        ]
        for (index, (status, expected)) in cases.enumerated() {
            let feed = try store.add(url: "http://h.example/\(index)")
            #expect(try store.feed(id: feed.id)?.health == .ok)
            let applied = try store.apply(
                update: FeedUpdate(feedID: feed.id, outcome: .failed(FeedFailure(httpStatus: status, message: "x"))))
            #expect(applied.feed.health == expected, "\(String(describing: status))")
            #expect(PollPolicy.Health.afterFailure(httpStatus: status) == expected)
        }
        // The daemon's decision for the same answers uses the same words.
        let policy = PollPolicy()
        #expect(
            policy.decide(after: .httpError(status: 503, retryAfter: nil), previousFailures: 0, interval: nil).health
                == .backingOff)
        #expect(
            policy.decide(after: .httpError(status: 404, retryAfter: nil), previousFailures: 0, interval: nil).health
                == .failing)
        #expect(policy.decide(after: .networkError, previousFailures: 0, interval: nil).health == .backingOff)

        let list = try store.feeds().map(\.health.rawValue)
        #expect(
            list == [
                "backing-off", "backing-off", "backing-off", "backing-off", "backing-off", "failing", "failing",
                "disabled",
            ])
    }

    @Test func listPrintsTheSameWords() throws {
        let dir = TemporaryDirectory()
        do {
            let store = try FeedStore(path: dir.file(StateLocation.databaseName))
            for (path, status) in [("a", 500), ("b", 404), ("c", 410)] {
                let feed = try store.add(url: "http://h.example/\(path)")
                try store.apply(
                    update: FeedUpdate(
                        feedID: feed.id, outcome: .failed(FeedFailure(httpStatus: status, message: "HTTP \(status)"))))
            }
        }
        let captured = CapturedConsole()
        let runner = CommandRunner(
            console: captured.console(), environment: ["HOME": "/nonexistent"], currentDirectory: dir.path)
        #expect(runner.run(["--state", dir.path, "list", "--json"]) == .success)
        let statuses = captured.out.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["status"] as? String
        }
        #expect(statuses == ["backing-off", "failing", "disabled"])
    }
}
