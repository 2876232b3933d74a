import Foundation
import PodcastTestSupport
import Testing

@testable import PodcastCommandLine
@testable import PodcastStore

/// Intervals past 30 days from the command line: an OPML `pw:interval` is clamped with a warning,
/// `--interval` is refused (the engine's clamps are in `DeadlineClampTests`).
@Suite struct IntervalClampTests {
    let dir = TemporaryDirectory("clamp-cli")
    let store: FeedStore

    init() throws {
        store = try FeedStore(path: dir.file("state.sqlite"))
    }

    @Test func importClampsPwIntervalWithAWarning() throws {
        let opml = dir.file("subs.opml")
        try Data(
            """
            <opml version="2.0" xmlns:pw="https://podcast-watch.invalid/opml/1"><body><outline text="Slow" xmlUrl="http://h/slow" pw:interval="10000000000"/></body></opml>
            """.utf8
        ).write(to: URL(fileURLWithPath: opml))
        let captured = CapturedConsole()
        #expect(
            CommandRunner(console: captured.console(), environment: [:]).run([
                "--state", dir.file("state"), "import", opml,
            ]) == .success)
        #expect(
            captured.err
                == "podcast-watch: warning: outline \"Slow\" (xmlUrl http://h/slow): pw:interval 10000000000 s is longer than 30 days; using 30 days\n"
        )
        let imported = try FeedStore(path: dir.file("state/" + StateLocation.databaseName))
        #expect(try imported.feeds().map(\.intervalSeconds) == [2_592_000])
        // The store clamps too, for any other caller.
        #expect(try store.add(url: "http://h/x", intervalSeconds: Int.max).intervalSeconds == 2_592_000)
    }

    @Test func cliRefusesIntervalsPastThirtyDays() {
        let captured = CapturedConsole()
        #expect(
            CommandRunner(console: captured.console(), environment: [:]).run([
                "--state", dir.path, "run", "--interval", "31d",
            ]) == .usage)
        #expect(
            captured.err.hasPrefix(
                "podcast-watch: option '--interval' needs a duration such as 900, 15m or 2h (1 s to 30 d), not '31d'\n")
        )
    }
}
