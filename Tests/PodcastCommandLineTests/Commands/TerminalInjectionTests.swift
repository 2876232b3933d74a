import Foundation
import PodcastDaemonTestSupport
import PodcastTestSupport
import Testing

@testable import PodcastCommandLine
@testable import PodcastEngine
@testable import PodcastFeeds
@testable import PodcastStore

/// Feed and server text reached the terminal raw (`list`, `show`, `run`'s
/// stderr and table): an HTML-typed title decoding to ESC, or a reason phrase such as
/// `500 Bad\e]0;TITLE\a\e[2J`, renamed the terminal, cleared it and wrote the clipboard.
@Suite struct TerminalInjectionTests {
    static let reason = "HTTP 500 Bad\u{1B}]0;TITLE\u{07}\u{1B}[2J"
    static let title = "Show\u{1B}]52;c;cHduZWQ=\u{07}\u{9B}31m\u{202E}txt.exe"

    /// No byte that starts or carries an escape sequence, no bidi override.
    static func isInert(_ text: String) -> Bool {
        !text.unicodeScalars.contains { TerminalText.isUnsafe($0) && $0 != "\n" }
    }

    @Test func lineAndBlockReplaceEveryUnsafeScalarVisibly() {
        #expect(TerminalText.line(Self.reason) == "HTTP 500 Bad␛]0;TITLE␇␛[2J")
        #expect(TerminalText.line(Self.title) == "Show␛]52;c;cHduZWQ=␇\u{FFFD}31m\u{FFFD}txt.exe")
        #expect(TerminalText.line("a\r\nb\tc\nd\u{7F}\u{2066}e") == "a b c d␡\u{FFFD}e")
        #expect(TerminalText.block("a\r\nb\tc\rd\u{1B}") == "a\nb\tc\nd␛")
        #expect(TerminalText.line("Ça va — 日本 ✓") == "Ça va — 日本 ✓")  // untouched
        #expect(!TerminalText.isAcceptableTitle("a\u{202E}b"))
        #expect(!TerminalText.isAcceptableTitle("a\u{85}b"))
        #expect(TerminalText.isAcceptableTitle("Ça va — 日本"))
    }

    @Test func stderrIsNeutralised() {
        let captured = CapturedConsole()
        captured.console().err("podcast-watch: feed failed: \(Self.reason)\n")
        #expect(captured.err == "podcast-watch: feed failed: HTTP 500 Bad␛]0;TITLE␇␛[2J\n")
    }

    @Test func listNeutralisesAndListJSONEscapesExactly() throws {
        let dir = TemporaryDirectory("inject")
        let store = try FeedStore(path: dir.file(StateLocation.databaseName))
        let feed = try store.add(url: "http://h/f")
        _ = try store.apply(
            update: FeedUpdate(
                feedID: feed.id,
                outcome: .fetched(
                    ParsedFeed(format: .rss, channel: Channel(title: Self.title)), etag: nil, lastModified: nil),
                checkedAt: Date(timeIntervalSince1970: 0)))
        _ = try store.apply(
            update: FeedUpdate(
                feedID: feed.id, outcome: .failed(FeedFailure(httpStatus: 500, message: Self.reason)),
                checkedAt: Date(timeIntervalSince1970: 60)))
        let text = CapturedConsole()
        #expect(
            CommandRunner(console: text.console(), environment: [:]).run(["--state", dir.path, "list"]) == .success)
        #expect(
            text.out == """
                1  Show␛]52;c;cHduZWQ=␇\u{FFFD}31m\u{FFFD}txt.exe
                    http://h/f
                    backing-off, checked 1970-01-01T00:01:00Z, 0 episodes, default interval
                    last error: HTTP 500 Bad␛]0;TITLE␇␛[2J

                """)
        let json = CapturedConsole()
        #expect(
            CommandRunner(console: json.console(), environment: [:]).run(["--state", dir.path, "list", "--json"])
                == .success)
        #expect(Self.isInert(json.out))
        #expect(json.out.contains(#""title":"Show\u001b]52;c;cHduZWQ=\u0007\u009b31m\u202etxt.exe""#))
        let decoded = try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any]
        #expect(decoded?["title"] as? String == Self.title)  // exact once decoded
        #expect(decoded?["last_error"] as? String == Self.reason)
    }

    @Test func showTextIsNeutralised() {
        // `&amp;#27;` in an HTML-typed title decodes to ESC: the parser keeps it, show must not print it.
        let parsed = ParsedFeed(
            format: .rss, channel: Channel(title: Self.title, description: "line one\n\u{1B}[2Jline two"),
            episodes: [
                Episode(guid: "g\u{1B}[1m", title: "Ep\u{9D}0;x\u{9C}")
            ])
        let response = FetchResponse(
            status: 200, headers: ["etag": "\"\u{1B}[5m\""], requestedURL: "http://h/f", effectiveURL: "http://h/f")
        let text = FeedReport.text(parsed, response: response)
        #expect(Self.isInert(text))
        #expect(text.contains("title: Show␛]52;c;cHduZWQ=␇\u{FFFD}31m\u{FFFD}txt.exe\n"))
        #expect(text.contains("description: line one\n             ␛[2Jline two\n"))
        #expect(text.contains("title: Ep\u{FFFD}0;x\u{FFFD}\n"))
    }

    @Test func liveTableIsNeutralised() {
        let r = TerminalRenderer(width: 80, ansi: false, timeZone: TimeZone(identifier: "UTC")!)
        let frame = r.render(
            podcasts: [
                Podcast(id: 1, url: "http://h/f", title: Self.title, status: .backingOff, lastError: Self.reason)
            ],
            newest: [
                EpisodeAnnouncement(
                    time: Date(), feedURL: "http://h/f", podcastTitle: Self.title, title: "\u{1B}[2J", guid: "g",
                    url: nil)
            ],
            totalNew: 1)
        #expect(Self.isInert(frame))
        #expect(frame.contains("  ! HTTP 500 Bad␛]0;TITLE␇␛[2J\n"))
    }

    @Test func importedTitlesGetTheAddTitleCheck() throws {
        let dir = TemporaryDirectory("inject-opml")
        let opml = dir.file("subs.opml")
        try Data(
            """
            <opml version="2.0"><body><outline text="Evil&#x202E;gpj.exe" xmlUrl="http://h/evil"/><outline text="Fine" xmlUrl="http://h/fine"/><outline text="Two&#10;lines&#x85;" xmlUrl="http://h/two"/></body></opml>
            """.utf8
        ).write(to: URL(fileURLWithPath: opml))
        let captured = CapturedConsole()
        #expect(
            CommandRunner(console: captured.console(), environment: [:]).run([
                "--state", dir.file("state"), "import", opml,
            ]) == .success)
        #expect(
            captured.err == """
                podcast-watch: warning: outline "Evil\u{FFFD}gpj.exe" (xmlUrl http://h/evil): title not imported, it holds control characters or bidi overrides
                podcast-watch: warning: outline "Two lines\u{FFFD}" (xmlUrl http://h/two): title not imported, it holds control characters or bidi overrides

                """)
        let store = try FeedStore(path: dir.file("state/" + StateLocation.databaseName))
        #expect(try store.feeds().map(\.title) == [nil, "Fine", nil])
        #expect(try store.feeds().map(\.url) == ["http://h/evil", "http://h/fine", "http://h/two"])
    }

    @Test func addTitleRefusesBidiOverridesToo() {
        let dir = TemporaryDirectory("inject-add")
        let captured = CapturedConsole()
        #expect(
            CommandRunner(console: captured.console(), environment: [:]).run([
                "--state", dir.path, "add", "http://h/f", "--title", "a\u{202E}b",
            ]) == .usage)
    }
}
