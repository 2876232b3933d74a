import Foundation
import PodcastDaemonTestSupport
import Testing

@testable import PodcastCommandLine
@testable import PodcastEngine

@Suite struct TerminalRendererTests {
    let utc = TimeZone(identifier: "UTC")!

    @Test func tableAndNewestEpisodes() {
        let r = TerminalRenderer(width: 60, ansi: false, timeZone: utc, newestLimit: 2)
        let podcasts = [
            Podcast(
                id: 1, url: "http://a/f", title: "Alpha Show", status: .ok,
                lastCheck: Date(timeIntervalSince1970: 3723), newCount: 3),
            Podcast(
                id: 2, url: "http://b/a-very-long-feed-url-that-does-not-fit.xml", status: .failing,
                lastError: "HTTP 404 Not Found"),
            Podcast(id: 3, url: "http://c/f", title: "Gamma\u{1B}[31m", status: .waiting),
        ]
        let newest = [
            EpisodeAnnouncement(
                time: Date(), feedURL: "http://a/f", podcastTitle: "Alpha Show", title: "Three", guid: "3", url: nil,
                published: Date(timeIntervalSince1970: 86_400 * 3)),
            EpisodeAnnouncement(
                time: Date(), feedURL: "http://a/f", podcastTitle: nil, title: nil, guid: "g2", url: nil),
            EpisodeAnnouncement(
                time: Date(), feedURL: "http://a/f", podcastTitle: "Alpha Show", title: "One", guid: "1", url: nil),
        ]
        let expected = """
            podcast-watch: 3 feeds, 3 new, 1 failing

            TITLE                           CHECKED   STATUS         NEW
            Alpha Show                      01:02:03  ok               3
            http://b/a-very-long-feed-url…  never     failing          0
              ! HTTP 404 Not Found
            Gamma␛[31m                      never     waiting          0

            Newest episodes
              1970-01-04  Alpha Show: Three
              ????-??-??  http://a/f: g2

            """
        #expect(r.render(podcasts: podcasts, newest: newest, totalNew: 3) == expected)
    }

    @Test func aNarrowTerminalGetsLinesCutNotWrapped() {
        let r = TerminalRenderer(width: 24, ansi: true, timeZone: utc)
        let podcasts = [Podcast(id: 1, url: "http://a/f", title: "A rather long show title", status: .ok)]
        let newest = [
            EpisodeAnnouncement(
                time: Date(), feedURL: "http://a/f", podcastTitle: "Show", title: "An episode with a long title",
                guid: "1", url: nil, published: Date(timeIntervalSince1970: 0))
        ]
        let frame = r.render(podcasts: podcasts, newest: newest, totalNew: 1)
        #expect(
            plain(frame) == """
                podcast-watch: 1 feed, …

                TITLE       CHECKED   S…
                A rather …  never     o…

                Newest episodes
                  1970-01-01  Show: An …

                """)
        let lines = plain(frame).split(separator: "\n")
        #expect(lines.allSatisfy { $0.count <= 24 })
        #expect(TerminalRenderer(width: 10).width == 10)  // no longer clamped up to 40
    }

    @Test func ansiFrameStartsWithClearAndHome() {
        let r = TerminalRenderer(width: 40, ansi: true, timeZone: utc)
        let frame = r.render(podcasts: [], newest: [], totalNew: 0)
        // Home, each row erased as it is written, then everything below erased: drawn in place.
        let rows = [
            "podcast-watch: 0 feeds, 0 new", "", "TITLE       CHECKED   STATUS         NEW",
            "(no subscriptions: podcast-watch add URL)", "", "Newest episodes", "  (none yet)",
        ]
        #expect(frame == "\u{1B}[H" + rows.map { "\u{1B}[2K" + $0 }.joined(separator: "\n") + "\n\u{1B}[J")
    }

    // The text of an ANSI frame: without cursor-home and the erase sequences.
    func plain(_ frame: String) -> String {
        frame.replacingOccurrences(of: TerminalRenderer.clearScreen, with: "")
            .replacingOccurrences(of: "\u{1B}[2K", with: "").replacingOccurrences(of: "\u{1B}[J", with: "")
    }

    @Test func aFrameNeverHasMoreLinesThanTheScreen() {
        let r = TerminalRenderer(width: 40, height: 12, ansi: true, timeZone: utc)
        let podcasts = (1...20).map { Podcast(id: Int64($0), url: "http://h/\($0)", title: "Show \($0)", status: .ok) }
        let newest = (1...10).map {
            EpisodeAnnouncement(
                time: Date(), feedURL: "http://h/1", podcastTitle: "Show 1", title: "E\($0)", guid: "\($0)", url: nil,
                published: Date(timeIntervalSince1970: 0))
        }
        let frame = r.render(podcasts: podcasts, newest: newest, totalNew: 10)
        // 12 rows: 5 fixed, 2 newest episodes (a third of the 7 left), 5 for the feeds ("… 16 more").
        #expect(
            plain(frame) == """
                podcast-watch: 20 feeds, 10 new

                TITLE       CHECKED   STATUS         NEW
                Show 1      never     ok               0
                Show 2      never     ok               0
                Show 3      never     ok               0
                Show 4      never     ok               0
                … 16 more

                Newest episodes
                  1970-01-01  Show 1: E1
                  1970-01-01  Show 1: E2
                """)
        #expect(!frame.hasSuffix("\n"))  // the screen is full: a newline would scroll it
        // Room to spare: everything, and "erase below" after the last line.
        let tall = TerminalRenderer(width: 40, height: 40, ansi: true, timeZone: utc).render(
            podcasts: podcasts, newest: newest, totalNew: 10)
        // + "" after the last newline.
        #expect(plain(tall).split(separator: "\n", omittingEmptySubsequences: false).count == 5 + 20 + 10 + 1)
        #expect(tall.hasSuffix("\n\u{1B}[J"))
    }

    @Test func wideAndCombiningCharactersAreMeasuredInColumns() {
        let r = TerminalRenderer(width: 40, ansi: false, timeZone: utc)
        let podcasts = [
            Podcast(id: 1, url: "http://h/1", title: "日本語のポッドキャスト番組です", status: .ok),  // 15 wide = 30 columns
            Podcast(id: 2, url: "http://h/2", title: "Cafe\u{301} Noir", status: .ok),  // combining acute: 9 columns
        ]
        let lines = r.render(podcasts: podcasts, newest: [], totalNew: 0).split(
            separator: "\n", omittingEmptySubsequences: false
        ).map(String.init)
        #expect(lines[3] == "日本語の…   never     ok               0")  // 4 wide + "…" = 9 columns, padded to 10
        #expect(lines[4] == "Cafe\u{301} Noir   never     ok               0")
    }
}
