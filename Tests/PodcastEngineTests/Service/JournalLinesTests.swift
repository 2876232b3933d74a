import XCTest

@testable import PodcastEngine

/// `JournalLines`: the `<N>` level prefixes journald reads, and text neutralised on the way.
final class JournalLinesTests: XCTestCase {
    func testLevels() {
        XCTAssertEqual(JournalLines.level(of: "podcast-watch: warning: the feed lists 9 items"), 4)
        XCTAssertEqual(JournalLines.level(of: "podcast-watch: skipped outline 3: no URL"), 4)
        XCTAssertEqual(
            JournalLines.level(
                of: "podcast-watch: hook exited with status 1 for \"T\" (attempt 1 of 4); retrying in 15 s"), 4)
        XCTAssertEqual(
            JournalLines.level(of: "podcast-watch: hook exited with status 1 for \"T\"; gave up after 4 attempts"), 3)
        XCTAssertEqual(JournalLines.level(of: "podcast-watch: no subscriptions yet; add one"), 5)
        XCTAssertEqual(JournalLines.level(of: "podcast-watch: stopping: waiting up to 5 s for 1 running hook"), 5)
        XCTAssertEqual(
            JournalLines.level(of: "podcast-watch: warning: hook for \"T\" was still running at shutdown; killed"), 4)
        XCTAssertEqual(JournalLines.level(of: "podcast-watch: feed failed: X"), 3)
        XCTAssertEqual(JournalLines.level(of: "Usage: podcast-watch list"), 6)
        XCTAssertEqual(JournalLines.format("podcast-watch: a\n\nb\n"), "<3>podcast-watch: a\n<6>b\n")
        XCTAssertFalse(JournalLines.isJournal(fd: 2, environment: ["JOURNAL_STREAM": "junk"]))
    }
}
