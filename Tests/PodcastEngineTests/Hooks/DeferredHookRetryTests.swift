import Foundation
import XCTest

@testable import PodcastEngine

/// A hook runner that defers retries (`run --once`) reports the retry for its caller to keep and
/// waits for nothing (the session's side: `OnceHookRetryTests`).
final class DeferredHookRetryTests: XCTestCase {
    /// The runner's side, on a virtual clock: a deferred retry is reported (for the caller to
    /// keep) and nothing waits for it; the same failure without deferral waits 15 s.
    func testADeferringRunnerReportsTheRetryAndSchedulesNothing() throws {
        for defers in [true, false] {
            let clock = ManualClock()
            let runner = HookRunner(command: "exit 3", policy: .init(retries: 2, firstRetryDelay: 15))
            runner.after = clock.after
            runner.defersRetries = defers
            var outcomes: [HookRunner.Outcome] = []
            runner.onOutcome = { _, outcome in outcomes.append(outcome) }
            var episode = EpisodeAnnouncement(
                time: Date(), feedURL: "http://h/f", podcastTitle: nil, title: "T", guid: "g", url: nil)
            episode.feedID = 1
            runner.run(for: episode)
            let deadline = Date().addingTimeInterval(20)
            while runner.runningCount > 0 && Date() < deadline {
                runner.reap()
                usleep(2_000)
            }
            XCTAssertEqual(outcomes, [.retrying(.exited(3), attempt: 1, delay: 15)])
            XCTAssertEqual(runner.retryingCount, defers ? 0 : 1)
            XCTAssertEqual(clock.requested, defers ? [] : [15])
        }
    }
}
