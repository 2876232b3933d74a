import Foundation
import PodcastDaemonTestSupport
import PodcastTestSupport
import Testing

@testable import PodcastCommandLine
@testable import PodcastEngine
@testable import PodcastFeeds
@testable import PodcastStore

/// Credentials in feed URLs were printed everywhere. They are kept for fetching
/// and for `export` (a backup must round-trip) and shown as `user:***@` everywhere else.
@Suite struct CredentialMaskTests {
    static let secret = "https://alice:s3cret@feeds.example/private.xml"
    static let masked = "https://alice:***@feeds.example/private.xml"

    @Test func maskingRules() {
        #expect(MaskedURL.string(Self.secret) == Self.masked)
        #expect(MaskedURL.string("https://TOKEN@h/f") == "https://***@h/f")
        #expect(MaskedURL.string("https://h/f?u=a@b") == "https://h/f?u=a@b")  // no userinfo
        #expect(MaskedURL.string("https://a:b:c@d@h:8080/f") == "https://a:***@h:8080/f")
        #expect(MaskedURL.string("/tmp/feed@home.xml") == "/tmp/feed@home.xml")
        #expect(MaskedURL.string("https://h/f") == "https://h/f")
    }

    func run(_ state: String, _ args: String...) -> (ExitCode, String, String) {
        let captured = CapturedConsole()
        let code = CommandRunner(console: captured.console(), environment: [:]).run(["--state", state] + args)
        return (code, captured.out, captured.err)
    }

    @Test func addListAndJSONMaskExportKeeps() throws {
        let dir = TemporaryDirectory("creds")
        let (code, out, _) = run(dir.path, "add", "--no-check", Self.secret)
        #expect(code == .success)
        #expect(out == "Subscribed to \(Self.masked) (feed #1, default interval)\n")
        let list = run(dir.path, "list").1
        #expect(list.contains("    \(Self.masked)\n"))
        #expect(!list.contains("s3cret"))
        let json = run(dir.path, "list", "--json").1
        #expect(json.contains("\"url\":\"\(Self.masked)\""))
        #expect(!json.contains("s3cret"))
        #expect(
            run(dir.path, "add", "--no-check", Self.secret).2
                == "podcast-watch: \(Self.masked) is already subscribed (feed #1)\n")
        #expect(run(dir.path, "export").1.contains("xmlUrl=\"\(Self.secret)\""))
        // The store keeps the real URL: that is what is fetched.
        let store = try FeedStore(path: dir.file(StateLocation.databaseName))
        #expect(try store.feeds().map(\.url) == [Self.secret])
        #expect(run(dir.path, "remove", "--id", "1").1 == "Unsubscribed from \(Self.masked) (\(Self.masked))\n")
    }

    /// A masked URL (from a dashboard export without the token, or copied from `list`) would
    /// subscribe to a feed that can never authenticate: `add` and `import` refuse it and say why.
    @Test func maskedURLsAreNotSubscribed() throws {
        #expect(MaskedURL.isMasked(Self.masked))
        #expect(MaskedURL.isMasked("https://***@h/f"))
        #expect(MaskedURL.isMasked("https://alice:%2A%2A%2A@h/f"))
        #expect(!MaskedURL.isMasked(Self.secret))
        #expect(!MaskedURL.isMasked("https://h/f?u=a:***@b"))  // not userinfo
        #expect(!MaskedURL.isMasked("https://alice:****@h/f"))
        let dir = TemporaryDirectory("masked")
        let reason =
            "its credentials are masked (`***`, copied from masked output such as a dashboard export without the token); `podcast-watch export` writes the real URLs"
        let (code, _, err) = run(dir.path, "add", "--no-check", Self.masked)
        #expect(code != .success)
        #expect(err.contains(reason), "\(err)")
        let opml = dir.file("masked.opml")
        try """
        <?xml version="1.0"?><opml version="2.0"><body>
        <outline type="rss" text="Private" xmlUrl="\(Self.masked)"/>
        <outline type="rss" text="Open" xmlUrl="https://feeds.example/open.xml"/>
        </body></opml>
        """.write(toFile: opml, atomically: true, encoding: .utf8)
        let imported = run(dir.path, "import", opml)
        #expect(imported.0 == .success)
        #expect(imported.1 == "Imported 1 feed from \(opml) (0 already subscribed, 1 skipped)\n")
        #expect(imported.2 == "podcast-watch: skipped outline \"Private\" (xmlUrl \(Self.masked)): \(reason)\n")
        let store = try FeedStore(path: dir.file(StateLocation.databaseName))
        #expect(try store.feeds().map(\.url) == ["https://feeds.example/open.xml"])
    }

    @Test func runEventsHookAndTableMask() {
        let t = Date(timeIntervalSince1970: 0)
        let e = EpisodeAnnouncement(time: t, feedURL: Self.secret, podcastTitle: nil, title: "E", guid: "g", url: nil)
        #expect(FeedEvent.newEpisode(e).jsonLine.contains("\"feed_url\":\"\(Self.masked)\""))
        #expect(
            FeedEvent.feedMoved(FeedMoveReport(time: t, from: Self.secret, to: "https://bob:pw@h/", reason: "http-301"))
                .jsonLine
                == "{\"event\":\"feed_moved\",\"time\":\"1970-01-01T00:00:00Z\",\"from\":\"\(Self.masked)\",\"to\":\"https://bob:***@h/\",\"reason\":\"http-301\"}\n"
        )
        #expect(HookRunner.environment(for: e).first { $0.0 == "FEED_URL" }?.1 == Self.masked)
        let podcast = Podcast(id: 1, url: Self.secret, status: .ok)
        #expect(podcast.label == Self.masked)
        let frame = TerminalRenderer(width: 100, ansi: false).render(podcasts: [podcast], newest: [e], totalNew: 1)
        #expect(frame.contains(Self.masked))
        #expect(!frame.contains("s3cret"))
    }

    /// Episode URLs (a guid that is a URL, the enclosure, the link) carry the feed's
    /// credentials when the host needs them: masked in JSON lines and the table; the hook gets
    /// the real enclosure URL (it runs as the user and must be able to download it).
    @Test func episodeURLsAreMaskedOnOutputNotForTheHook() {
        let t = Date(timeIntervalSince1970: 0)
        var e = EpisodeAnnouncement(
            time: t, feedURL: Self.secret, podcastTitle: "P", title: nil,
            guid: "https://alice:s3cret@feeds.example/e/1",
            url: "https://TOK@cdn.example/1.mp3")
        e.link = "https://alice:s3cret@feeds.example/e/1.html"
        #expect(
            FeedEvent.newEpisode(e).jsonLine
                == "{\"event\":\"new_episode\",\"time\":\"1970-01-01T00:00:00Z\",\"feed_url\":\"\(Self.masked)\",\"podcast_title\":\"P\",\"episode_title\":null,\"episode_guid\":\"https://alice:***@feeds.example/e/1\",\"episode_url\":\"https://***@cdn.example/1.mp3\",\"episode_link\":\"https://alice:***@feeds.example/e/1.html\",\"published\":null,\"duration\":null,\"mime_type\":null,\"length\":null}\n"
        )
        let failed = FeedEvent.hookFailed(
            HookFailureReport(time: t, episode: e, error: "exit 1", attempt: 1, attempts: 1, retryAt: nil, gaveUp: true)
        )
        #expect(failed.jsonLine.contains("\"episode_guid\":\"https://alice:***@feeds.example/e/1\""))
        #expect(!failed.jsonLine.contains("s3cret"))
        let frame = TerminalRenderer(width: 120, ansi: false).render(podcasts: [], newest: [e], totalNew: 1)
        #expect(frame.contains("????-??-??  P: https://alice:***@feeds.example/e/1\n"), "\(frame)")
        #expect(!frame.contains("s3cret"))
        var noGuid = e
        noGuid.guid = nil
        let second = TerminalRenderer(width: 120, ansi: false).render(podcasts: [], newest: [noGuid], totalNew: 1)
        #expect(second.contains("????-??-??  P: https://***@cdn.example/1.mp3\n"), "\(second)")
        let environment = HookRunner.environment(for: e)
        #expect(environment.first { $0.0 == "EPISODE_URL" }?.1 == "https://TOK@cdn.example/1.mp3")
        #expect(environment.first { $0.0 == "FEED_URL" }?.1 == Self.masked)
    }

    @Test func showMasks() {
        let parsed = ParsedFeed(format: .rss, channel: Channel(title: "T"))
        let response = FetchResponse(
            status: 200, requestedURL: Self.secret, effectiveURL: "https://alice:s3cret@cdn.example/p.xml",
            permanentRedirect: PermanentRedirect(url: "https://alice:s3cret@cdn.example/p.xml", status: 301))
        #expect(!FeedReport.text(parsed, response: response).contains("s3cret"))
        #expect(!FeedReport.json(parsed, response: response).serialized.contains("s3cret"))
        #expect(FeedReport.text(parsed, response: response).contains("url: \(Self.masked)\n"))
    }
}
