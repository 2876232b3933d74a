import Foundation
import PodcastDaemonTestSupport
import Testing

@testable import PodcastCommandLine
@testable import PodcastStore

/// `enable` / `disable`: by URL or `--id`, shown in `list`, history kept.
@Suite struct EnableDisableTests {
    let state = temporaryDirectory()

    func run(_ args: String...) -> (ExitCode, String, String) { runCommand(state: state, args) }

    @Test func parsesURLAndID() throws {
        #expect(
            try CommandLineParser.parse(["enable", "--id", "3"]).command == .setEnabled(key: .id(3), enabled: true))
        #expect(
            try CommandLineParser.parse(["disable", "http://a/f"]).command
                == .setEnabled(key: .url("http://a/f"), enabled: false))
        #expect(try CommandLineParser.parse(["disable", "1"]).command == .setEnabled(key: .url("1"), enabled: false))
        #expect(throws: UsageError.self) { try CommandLineParser.parse(["enable", "--id", "0"]) }
        #expect(throws: UsageError.self) { try CommandLineParser.parse(["enable", "--id", "2", "http://a/f"]) }
        #expect(throws: UsageError.self) { try CommandLineParser.parse(["disable"]) }
        #expect(run("enable").0 == .usage)
    }

    @Test func disableThenEnableByURLAndID() throws {
        #expect(run("add", "--no-check", "http://a.example/f").0 == .success)
        #expect(
            run("disable", "http://a.example/f")
                == (
                    .success,
                    "Disabled feed #1 http://a.example/f <http://a.example/f>; a running 'podcast-watch run' picks this up on SIGHUP\n",
                    ""
                ))
        #expect(
            run("list").1 == """
                1  http://a.example/f
                    http://a.example/f
                    disabled (by 'disable'; 'podcast-watch enable --id 1' resumes), never checked, 0 episodes, default interval

                """)
        #expect(
            run("list", "--json").1.hasSuffix(
                "\"status\":\"disabled\",\"interval\":null,\"last_check\":null,\"last_success\":null,\"last_error\":null,\"episodes\":0,\"new_episodes\":0,\"enabled\":false,\"hook_error\":null}\n"
            ))
        #expect(
            run("disable", "--id", "1") == (
                .success, "Already disabled: feed #1 http://a.example/f <http://a.example/f>\n", ""
            ))
        #expect(
            run("enable", "--id", "1")
                == (
                    .success,
                    "Enabled feed #1 http://a.example/f <http://a.example/f>; a running 'podcast-watch run' picks this up on SIGHUP\n",
                    ""
                ))
        #expect(run("list", "--json").1.contains("\"status\":\"ok\""))
        #expect(
            run("enable", "--id", "9") == (.feedFailed, "", "podcast-watch: no feed #9 (see 'podcast-watch list')\n"))
        #expect(
            run("disable", "http://b.example/f") == (
                .feedFailed, "", "podcast-watch: not subscribed: http://b.example/f (see 'podcast-watch list')\n"
            ))
    }

    /// A 410 used to be final short of remove + add (which lost the episodes): `enable` resets
    /// it to ok, due now, with its failures cleared and its episodes kept.
    @Test func enableBringsBackAGoneFeedWithItsHistory() throws {
        #expect(run("add", "--no-check", "http://a.example/f").0 == .success)
        do {
            let store = try FeedStore(path: state + "/" + StateLocation.databaseName)
            try store.database.execute(
                """
                UPDATE feeds SET status = 'gone', enabled = 0, failure_count = 5, last_http_status = 410,
                    last_error = 'HTTP 410', next_poll = 99999999999 WHERE id = 1;
                INSERT INTO episodes (feed_id, identity, guid, first_seen) VALUES (1, 'guid:x', 'x', 0);
                """)
        }
        #expect(run("list").1.contains("disabled (410 Gone; 'podcast-watch enable --id 1' retries it)"))
        #expect(run("enable", "http://a.example/f").0 == .success)
        let store = try FeedStore(path: state + "/" + StateLocation.databaseName)
        let feed = try #require(try store.feed(id: 1))
        #expect(feed.enabled && feed.status == .ok && feed.failureCount == 0 && feed.nextPoll == nil)
        #expect(feed.health == .ok)
        #expect(try store.episodes(feedID: 1).map(\.guid) == ["x"])
        #expect(try store.dueFeeds(at: Date()).map(\.id) == [1])
    }

    /// Disabling keeps the schedule; enabling a disabled (not gone) feed makes it due now.
    @Test func disabledFeedIsNotDueUntilEnabled() throws {
        let store = try FeedStore(path: state + "/t.sqlite")
        let feed = try store.add(url: "http://a.example/f")
        try store.setNextPoll(Date(timeIntervalSince1970: 4_000_000_000), id: feed.id)
        try store.setEnabled(false, id: feed.id)
        #expect(try store.dueFeeds(at: Date(timeIntervalSince1970: 5_000_000_000)).isEmpty)
        try store.setEnabled(true, id: feed.id)
        #expect(try store.feed(id: feed.id)?.nextPoll == nil)
        #expect(throws: StoreError.self) { try store.setEnabled(true, id: 42) }
    }
}
