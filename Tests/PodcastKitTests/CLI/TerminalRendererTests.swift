import Foundation
import Testing
@testable import PodcastKit

@Suite struct TerminalRendererTests {
    let utc = TimeZone(identifier: "UTC")!

    @Test func tableAndNewestEpisodes() {
        let r = TerminalRenderer(width: 60, ansi: false, timeZone: utc, newestLimit: 2)
        let podcasts = [
            Podcast(id: 1, url: "http://a/f", title: "Alpha Show", status: .ok, lastCheck: Date(timeIntervalSince1970: 3723), newCount: 3),
            Podcast(id: 2, url: "http://b/a-very-long-feed-url-that-does-not-fit.xml", status: .failing, lastError: "HTTP 404 Not Found"),
            Podcast(id: 3, url: "http://c/f", title: "Gamma\u{1B}[31m", status: .waiting),
        ]
        let newest = [
            EpisodeAnnouncement(time: Date(), feedURL: "http://a/f", podcastTitle: "Alpha Show", title: "Three", guid: "3", url: nil, published: Date(timeIntervalSince1970: 86_400 * 3)),
            EpisodeAnnouncement(time: Date(), feedURL: "http://a/f", podcastTitle: nil, title: nil, guid: "g2", url: nil),
            EpisodeAnnouncement(time: Date(), feedURL: "http://a/f", podcastTitle: "Alpha Show", title: "One", guid: "1", url: nil),
        ]
        let expected = """
            podcast-watch: 3 feeds, 3 new, 1 failing

            TITLE                           CHECKED   STATUS         NEW
            Alpha Show                      01:02:03  ok               3
            http://b/a-very-long-feed-url…  never     failing          0
              ! HTTP 404 Not Found
            Gamma[31m                       never     waiting          0

            Newest episodes
              1970-01-04  Alpha Show: Three
              ????-??-??  http://a/f: g2

            """
        #expect(r.render(podcasts: podcasts, newest: newest, totalNew: 3) == expected)
    }

    @Test func aNarrowTerminalGetsLinesCutNotWrapped() {
        let r = TerminalRenderer(width: 24, ansi: true, timeZone: utc)
        let podcasts = [Podcast(id: 1, url: "http://a/f", title: "A rather long show title", status: .ok)]
        let newest = [EpisodeAnnouncement(time: Date(), feedURL: "http://a/f", podcastTitle: "Show", title: "An episode with a long title", guid: "1", url: nil, published: Date(timeIntervalSince1970: 0))]
        let frame = r.render(podcasts: podcasts, newest: newest, totalNew: 1)
        #expect(frame == "\u{1B}[H\u{1B}[2J" + """
            podcast-watch: 1 feed, …

            TITLE       CHECKED   S…
            A rather …  never     o…

            Newest episodes
              1970-01-01  Show: An …

            """)
        let lines = frame.dropFirst(TerminalRenderer.clearScreen.count).split(separator: "\n")
        #expect(lines.allSatisfy { $0.count <= 24 })
        #expect(TerminalRenderer(width: 10).width == 10)  // no longer clamped up to 40
    }

    @Test func ansiFrameStartsWithClearAndHome() {
        let r = TerminalRenderer(width: 40, ansi: true, timeZone: utc)
        let frame = r.render(podcasts: [], newest: [], totalNew: 0)
        #expect(frame == "\u{1B}[H\u{1B}[2J" + """
            podcast-watch: 0 feeds, 0 new

            TITLE       CHECKED   STATUS         NEW
            (no subscriptions: podcast-watch add URL)

            Newest episodes
              (none yet)

            """)
    }
}
