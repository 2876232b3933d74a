import Foundation
import Testing

@testable import PodcastCommandLine
@testable import PodcastEngine

/// The session's termination handler must not keep its HookRunner alive (it did: a cycle).
struct HookRunnerLifetimeTests {
    @Test func theTerminationHandlerDoesNotRetainTheRunner() {
        weak var weakRunner: HookRunner?
        var finishedCalls = 0
        do {
            let runner = HookRunner(command: "true")
            DaemonSession.reportTerminations(of: runner, to: Console(out: { _ in }, err: { _ in })) { _ in
                finishedCalls += 1
            }
            weakRunner = runner
            #expect(weakRunner != nil)
        }
        #expect(weakRunner == nil)
        #expect(finishedCalls == 0)
    }

    @Test func theHandlerStillReportsWhileTheRunnerLives() {
        let runner = HookRunner(command: "true")
        let errors = Box()
        var finished: [ObjectIdentifier] = []
        DaemonSession.reportTerminations(of: runner, to: Console(out: { _ in }, err: { errors.append($0) })) {
            finished.append(ObjectIdentifier($0))
        }
        let episode = EpisodeAnnouncement(
            time: Date(), feedURL: "f", podcastTitle: nil, title: "T", guid: nil, url: nil)
        // The failure is reported with its outcome (after any retries); the end of each run
        // calls `finished`.
        runner.onTermination?(episode, .exited(3))
        runner.onOutcome?(episode, .failed(.exited(3), attempts: 1))
        #expect(errors.text == "podcast-watch: hook exited with status 3 for \"T\"\n")
        #expect(finished == [ObjectIdentifier(runner)])
    }

    final class Box: @unchecked Sendable {
        var text = ""
        func append(_ s: String) { text += s }
    }
}
