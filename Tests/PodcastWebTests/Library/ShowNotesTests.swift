import Foundation
import PodcastDaemonTestSupport
import PodcastTestSupport
import Testing

@testable import PodcastEngine
@testable import PodcastFeeds
@testable import PodcastStore
@testable import PodcastWeb

/// Show notes on the dashboard: stored as the sanitiser's output (column `show_notes_html`),
/// served by `GET /api/episodes/ID` with the security headers, never with script, event
/// handlers or `javascript:` URLs, and offered by the newest-episodes list.
@Suite struct ShowNotesTests {
    static let t0 = Date(timeIntervalSince1970: 1_700_000_000)
    /// Show notes with everything a hostile feed tries, around some harmless markup.
    static let hostile = """
        <p>Guests: <b>Ada</b> &amp; <a href="https://ada.example/talk" onclick="steal()">her talk</a></p>\
        <script>alert(document.cookie)</script><img src="https://t.example/x.gif" onerror="steal()">\
        <a href="javascript:alert(1)">click</a><iframe src="https://evil.example/"></iframe>\
        <p style="x" onmouseover="steal()">Links: <a href="JaVaScRiPt:alert(2)">two</a></p>
        """

    static func assertNeutral(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let lower = text.lowercased()
        for bad in ["<script", "onclick", "onerror", "onmouseover", "javascript:", "<iframe", "steal()", "style="] {
            #expect(!lower.contains(bad), "\(bad) served in \(text)", sourceLocation: sourceLocation)
        }
    }

    func feed(_ episodes: [Episode]) -> ParsedFeed {
        ParsedFeed(format: .rss, channel: Channel(title: "Show"), episodes: episodes)
    }

    func episode(_ n: Int, html: String?) -> Episode {
        Episode(
            guid: "g\(n)", title: "Episode \(n)", description: "plain \(n)", descriptionHTML: html,
            published: ShowNotesTests.t0,
            enclosures: [Enclosure(url: "https://cdn.example/\(n).mp3", length: 10, mimeType: "audio/mpeg")])
    }

    func stored(_ store: FeedStore, _ guid: String) throws -> (id: Int64, html: String?) {
        let row = try store.database.prepare(
            "SELECT id, show_notes_html FROM episodes WHERE guid = ?1", .text(guid))
        guard try row.step(), let id = row.int64(0) else { throw StoreError.noSuchFeed(guid) }
        return (id, row.string(1))
    }

    /// The stored HTML is exactly the sanitiser's output, and reads back unchanged; an item
    /// without an HTML body stores NULL.
    @Test func storedShowNotesRoundTrip() throws {
        let dir = TemporaryDirectory()
        let store = try FeedStore(path: dir.file("s.sqlite"))
        let f = try store.add(url: "https://a.example/feed.xml", added: ShowNotesTests.t0)
        _ = try store.apply(
            update: FeedUpdate(
                feedID: f.id,
                outcome: .fetched(
                    feed([episode(1, html: ShowNotesTests.hostile), episode(2, html: nil)]), etag: nil,
                    lastModified: nil), checkedAt: ShowNotesTests.t0))
        let expected = HTMLSanitizer.sanitize(ShowNotesTests.hostile)
        #expect(expected.hasPrefix("<p>Guests: <b>Ada</b> &amp; <a href=\"https://ada.example/talk\" rel="))
        let one = try stored(store, "g1")
        #expect(one.html == expected)
        #expect(try stored(store, "g2").html == nil)
        let data = WebLibraryData(library: LibraryViewModel(), store: store)
        let read = try #require(try data.episode(id: one.id))
        #expect(read.showNotesHTML == expected)
        #expect(read.episode.guid == "g1")
        #expect(read.episode.description == "plain 1")
        #expect(try data.episode(id: 999) == nil)
    }

    /// An episode stored before the column existed (NULL) gets its show notes on the next
    /// fetch of its feed; one that has them keeps them (the store never rewrites them).
    @Test func showNotesOfEarlierEpisodesAreFilledOnTheNextFetch() throws {
        let dir = TemporaryDirectory()
        let store = try FeedStore(path: dir.file("s.sqlite"))
        let f = try store.add(url: "https://a.example/feed.xml", added: ShowNotesTests.t0)
        func fetch(_ html: String) throws {
            _ = try store.apply(
                update: FeedUpdate(
                    feedID: f.id, outcome: .fetched(feed([episode(1, html: html)]), etag: nil, lastModified: nil),
                    checkedAt: ShowNotesTests.t0))
        }
        try fetch("<p>first</p>")
        try store.database.run("UPDATE episodes SET show_notes_html = NULL")
        try fetch("<p>second</p>")
        #expect(try stored(store, "g1").html == "<p>second</p>")
        try fetch("<p>third</p>")
        #expect(try stored(store, "g1").html == "<p>second</p>")
    }

    /// `sanitizingShowNotes()` (run by the daemon on its worker) fills exactly the episodes
    /// with HTML, and the store takes what it computed.
    @Test func showNotesArePrecomputedOffTheStore() {
        let parsed = feed([episode(1, html: "<p onclick=\"x\">a</p>"), episode(2, html: nil)]).sanitizingShowNotes()
        #expect(parsed.episodes.map(\.precomputedShowNotesHTML) == ["<p>a</p>", nil])
        var marked = episode(3, html: "<p>raw</p>")
        marked.precomputedShowNotesHTML = "<p>computed</p>"
        #expect(marked.showNotesHTML == "<p>computed</p>")
        #expect(episode(4, html: nil).showNotesHTML == nil)
    }

    /// `GET /api/episodes/ID`: the episode, its sanitised show notes, the security headers; a
    /// state file whose column was edited to hold raw HTML is sanitised on the way out too.
    @Test func endpointServesSanitisedShowNotesWithSecurityHeaders() throws {
        let web = try WebFixture()
        let id = try stored(web.store, "g2").id
        try web.store.database.run(
            "UPDATE episodes SET show_notes_html = ?1 WHERE id = ?2",
            .text(HTMLSanitizer.sanitize(ShowNotesTests.hostile)), .integer(id))
        let response = web.send("GET", "/api/episodes/\(id)")
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "application/json; charset=utf-8")
        #expect(response.header("Content-Security-Policy") == WebRouter.contentSecurityPolicy)
        #expect(response.header("X-Content-Type-Options") == "nosniff")
        #expect(response.header("Cache-Control") == "no-store")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        let episode = try #require(object["episode"] as? [String: Any])
        #expect(episode["id"] as? Int == Int(id))
        #expect(episode["guid"] as? String == "g2")
        let html = try #require(episode["show_notes_html"] as? String)
        #expect(html == HTMLSanitizer.sanitize(ShowNotesTests.hostile))
        #expect(html.contains("<b>Ada</b>"))
        ShowNotesTests.assertNeutral(html)
        ShowNotesTests.assertNeutral(String(decoding: response.body, as: UTF8.self))

        // Tampered: the raw hostile HTML written straight into the state file.
        try web.store.database.run(
            "UPDATE episodes SET show_notes_html = ?1 WHERE id = ?2", .text(ShowNotesTests.hostile), .integer(id))
        let tampered = web.send("GET", "/api/episodes/\(id)")
        #expect(tampered.status == 200)
        ShowNotesTests.assertNeutral(String(decoding: tampered.body, as: UTF8.self))

        // No show notes: null, with the plain description beside it.
        let other = try stored(web.store, "g1").id
        let none = try #require(
            try JSONSerialization.jsonObject(with: Data(web.send("GET", "/api/episodes/\(other)").body))
                as? [String: Any])
        #expect((none["episode"] as? [String: Any])?["show_notes_html"] is NSNull)

        #expect(web.send("GET", "/api/episodes/999").status == 404)
        #expect(web.send("GET", "/api/episodes/abc").status == 404)
        // One spelling per episode: digits only, no sign, no leading zero, no trailing slash.
        for path in ["/api/episodes/+\(id)", "/api/episodes/0\(id)", "/api/episodes/\(id)/", "//api/episodes/\(id)"] {
            #expect(web.send("GET", path).status == 404, "\(path)")
        }
        #expect(web.send("DELETE", "/api/episodes/\(id)").status == 405)
    }

    /// The daemon stores what its worker sanitised: a poll of a feed with hostile show notes
    /// leaves only the sanitiser's output in the store.
    @Test func daemonStoresSanitisedShowNotes() throws {
        let dir = TemporaryDirectory()
        let store = try FeedStore(path: dir.file("s.sqlite"))
        try store.add(url: "http://h/a")
        let fetcher = ScriptedFetcher()
        let daemon = PodcastDaemon(
            store: store, fetcher: fetcher,
            parse: { _ in
                ParsedFeed(
                    format: .rss, channel: Channel(title: "Show"),
                    episodes: [
                        Episode(
                            guid: "g1", title: "One", descriptionHTML: ShowNotesTests.hostile,
                            enclosures: [Enclosure(url: "http://media/1.mp3", length: 1, mimeType: "audio/mpeg")])
                    ])
            }, scheduler: ManualScheduler(), now: { ShowNotesTests.t0 }, random: noJitter)
        try daemon.start()
        fetcher.respond("http://h/a", ok("http://h/a", "g1"))
        let html = try #require(try stored(store, "g1").html)
        #expect(html == HTMLSanitizer.sanitize(ShowNotesTests.hostile))
        ShowNotesTests.assertNeutral(html)
        daemon.stop()
    }

    /// The newest-episodes list offers the show notes of a stored episode (page and event
    /// stream agree on the episode id); an announcement not from the store offers none.
    @Test func newestEpisodesOfferShowNotes() {
        var a = EpisodeAnnouncement(
            time: ShowNotesTests.t0, feedURL: "http://h/a", podcastTitle: "Show", title: "One", guid: "g1", url: nil)
        #expect(!DashboardPage.item(a).contains("<details"))
        #expect(WebJSON.announcement(a).serialized.contains("\"episode_id\":null"))
        a.episodeID = 42
        #expect(
            DashboardPage.item(a).contains(
                "<details class=\"notes\" data-episode=\"42\"><summary>Show notes</summary></details>"))
        #expect(WebJSON.announcement(a).serialized.contains("\"episode_id\":42"))
    }
}
