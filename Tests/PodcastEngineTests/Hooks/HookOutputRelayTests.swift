import Foundation
import Synchronization
import Testing

@testable import PodcastEngine

/// A hook's output without a hook log: read through pipes, each line neutralised
/// (a hook echoing `$EPISODE_TITLE` passed feed escape sequences to the journal raw) and, under
/// journald, prefixed `<6>` (its stdout) or `<4>` (its stderr).
@Suite struct HookOutputRelayTests {
    final class Lines: Sendable {
        let value = Mutex<[String]>([])
        func append(_ s: String) { value.withLock { $0.append(s) } }
    }

    func pipePair() throws -> (Int32, Int32) {
        var fds: [Int32] = [-1, -1]
        try #require(pipe(&fds) == 0)
        return (fds[0], fds[1])
    }

    func put(_ fd: Int32, _ text: String) {
        _ = Array(text.utf8).withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) }
    }

    @Test func linesAreNeutralisedAndPrefixedUnderTheJournal() throws {
        let out = try pipePair()
        let err = try pipePair()
        let lines = Lines()
        let relay = HookOutputRelay(journal: true) { lines.append($0) }
        put(out.1, "title \u{1B}[2Jgone\nhalf")
        put(err.1, "oops\r\n")
        close(out.1)
        close(err.1)
        relay.pump([(out.0, false), (err.0, true)])
        #expect(lines.value.withLock { $0.sorted() } == ["<4>oops\n", "<6>half\n", "<6>title ␛[2Jgone\n"])
        // In order within one stream.
        #expect(lines.value.withLock { $0.filter { $0.hasPrefix("<6>") } } == ["<6>title ␛[2Jgone\n", "<6>half\n"])
    }

    @Test func plainOutsideTheJournalAndLongLinesAreCut() throws {
        let out = try pipePair()
        let err = try pipePair()
        let lines = Lines()
        var relay = HookOutputRelay(journal: false) { lines.append($0) }
        relay.maxLine = 4
        put(out.1, "abcdefghij\n\u{7}x\n")
        close(out.1)
        close(err.1)
        relay.pump([(out.0, false), (err.0, true)])
        #expect(lines.value.withLock { $0 } == ["abcd\n", "efgh\n", "ij\n", "␇x\n"])
    }

    /// Through a real hook: its output arrives neutralised, attributed to its stream.
    @Test func aRunnersHookOutputGoesThroughTheRelay() throws {
        let lines = Lines()
        let runner = HookRunner(
            command: "printf 'T: %s\\n' \"$EPISODE_TITLE\"; echo bad >&2", policy: .init(retries: 0))
        runner.outputRelay = HookOutputRelay(journal: true) { lines.append($0) }
        let episode = EpisodeAnnouncement(
            time: Date(), feedURL: "http://h/f", podcastTitle: "P", title: "x\u{1B}]0;pwned\u{7}y", guid: "g", url: nil)
        var done = false
        runner.onOutcome = { _, _ in done = true }
        runner.run(for: episode)
        let deadline = Date().addingTimeInterval(10)
        while (!done || lines.value.withLock { $0.count } < 2) && Date() < deadline {
            _ = runner.reap()
            usleep(5_000)
        }
        #expect(lines.value.withLock { $0.sorted() } == ["<4>bad\n", "<6>T: x␛]0;pwned␇y\n"])
    }
}
