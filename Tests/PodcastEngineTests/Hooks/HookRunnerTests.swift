import Foundation
import Testing

@testable import PodcastEngine

@Suite struct HookRunnerTests {
    func tempFile() -> String {
        NSTemporaryDirectory() + "hook-\(UUID().uuidString).txt"
    }

    func waitForAll(_ runner: HookRunner) {
        // Children end on their own; poll reap() with a generous deadline (not a timing assertion).
        let deadline = Date().addingTimeInterval(10)
        while runner.runningCount + runner.queuedCount > 0 && Date() < deadline {
            runner.reap()
            usleep(2000)
        }
    }

    @Test func detailsArriveOnlyAsEnvironmentVariables() throws {
        let out = tempFile()
        defer { try? FileManager.default.removeItem(atPath: out) }
        // A hostile title: if it were interpolated into the shell string it would run.
        let marker = tempFile()
        let title = "$(touch \(marker)); `touch \(marker)` \"'"
        let runner = HookRunner(
            command:
                "printf '%s|%s|%s|%s|%s' \"$EPISODE_TITLE\" \"$PODCAST_TITLE\" \"$EPISODE_URL\" \"$EPISODE_PUBLISHED\" \"$EPISODE_LENGTH\" > \(out)"
        )
        var ended: [HookRunner.Termination] = []
        runner.onTermination = { _, how in ended.append(how) }
        runner.run(
            for: EpisodeAnnouncement(
                time: Date(), feedURL: "http://h/f", podcastTitle: "Show", title: title, guid: "g",
                url: "http://h/1.mp3",
                published: Date(timeIntervalSince1970: 0), length: 42))
        waitForAll(runner)
        #expect(ended == [.exited(0)])
        #expect(
            try String(contentsOfFile: out, encoding: .utf8) == "\(title)|Show|http://h/1.mp3|1970-01-01T00:00:00Z|42")
        #expect(!FileManager.default.fileExists(atPath: marker))
    }

    @Test func exitStatusesAndQueueing() {
        let runner = HookRunner(command: "exit $EPISODE_LENGTH", maxConcurrent: 1)
        var ended: [(String?, HookRunner.Termination)] = []
        runner.onTermination = { e, how in ended.append((e.guid, how)) }
        for (i, code) in [0, 3, 7].enumerated() {
            runner.run(
                for: EpisodeAnnouncement(
                    time: Date(), feedURL: "f", podcastTitle: nil, title: nil, guid: "g\(i)", url: nil,
                    length: Int64(code)))
        }
        #expect(runner.runningCount == 1)
        #expect(runner.queuedCount == 2)
        waitForAll(runner)
        #expect(ended.map(\.0) == ["g0", "g1", "g2"])
        #expect(ended.map(\.1) == [.exited(0), .exited(3), .exited(7)])
    }

    @Test func signalsAndSpawnFailuresAreReported() {
        let killed = HookRunner(command: "kill -TERM $$")
        var how: [HookRunner.Termination] = []
        killed.onTermination = { how.append($1) }
        killed.run(
            for: EpisodeAnnouncement(time: Date(), feedURL: "f", podcastTitle: nil, title: nil, guid: nil, url: nil))
        waitForAll(killed)
        #expect(how == [.signalled(SIGTERM)])

        let missing = HookRunner(command: "true", shell: "/nonexistent/sh")
        var failed: [HookRunner.Termination] = []
        missing.onTermination = { failed.append($1) }
        missing.run(
            for: EpisodeAnnouncement(time: Date(), feedURL: "f", podcastTitle: nil, title: nil, guid: nil, url: nil))
        waitForAll(missing)
        #expect(failed == [.spawnFailed(ENOENT)])
    }

    @Test(arguments: [true, false]) func hookInheritsOnlyStandardDescriptors(closeFrom: Bool) throws {
        // A descriptor the daemon holds without close-on-exec, as libcurl holds its sockets.
        let leaked = open("/dev/null", O_RDONLY)
        #expect(leaked > 2)
        defer { close(leaked) }
        let out = tempFile()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let runner = HookRunner(command: "ls /proc/self/fd > \(out)")
        runner.usesCloseFrom = closeFrom
        runner.run(
            for: EpisodeAnnouncement(time: Date(), feedURL: "f", podcastTitle: nil, title: nil, guid: nil, url: nil))
        waitForAll(runner)
        // 0-2, and the directory ls itself opened.
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "0\n1\n2\n3\n")
    }

    @Test func environmentNamesAndEmptyDefaults() {
        let env = HookRunner.environment(
            for: EpisodeAnnouncement(
                time: Date(), feedURL: "f", podcastTitle: nil, title: "a\0b", guid: nil, url: nil, duration: 90))
        #expect(
            env.map(\.0) == [
                "PODCAST_TITLE", "FEED_URL", "EPISODE_TITLE", "EPISODE_URL", "EPISODE_GUID", "EPISODE_LINK",
                "EPISODE_PUBLISHED", "EPISODE_DURATION", "EPISODE_MIME_TYPE", "EPISODE_LENGTH", "HOOK_EVENT",
                "EPISODE_FILE",
            ])
        #expect(env.map(\.1) == ["", "f", "ab", "", "", "", "", "90", "", "", "new_episode", ""])
    }
}
