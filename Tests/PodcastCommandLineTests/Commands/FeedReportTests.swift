import Foundation
import PodcastDaemonTestSupport
import Testing

@testable import PodcastCommandLine
@testable import PodcastEngine
@testable import PodcastFeeds
@testable import PodcastStore

@Suite struct FeedReportTests {
    let parsed = ParsedFeed(
        format: .rss,
        channel: Channel(
            title: "Show", link: "http://h/", description: "Line one\nLine two", ownerName: "Ann", ownerEmail: "a@h",
            categories: [["Technology", "Podcasting"]], keywords: ["a", "b"], explicit: false,
            newFeedURL: "http://h/new"),
        episodes: [
            Episode(
                guid: "g1", title: "One", published: Date(timeIntervalSince1970: 0), duration: 3723.5,
                enclosures: [
                    Enclosure(url: "http://h/1.jpg", mimeType: "image/jpeg"),
                    Enclosure(url: "http://h/1.mp3", length: 42, mimeType: "audio/mpeg"),
                ],
                chapters: [Chapter(start: 61, title: "Intro")],
                transcripts: [Transcript(url: "http://h/1.vtt", mimeType: "text/vtt")],
                persons: [Person(name: "Bo", role: "guest")]),
            Episode(title: "No guid"),
        ],
        warnings: ["duplicate guid g0"], encoding: "UTF-8")
    let response = FetchResponse(
        status: 200, headers: ["etag": "\"x\"", "content-type": "application/rss+xml"], requestedURL: "http://h/f",
        effectiveURL: "http://h/f")

    @Test func text() {
        #expect(
            FeedReport.text(parsed, response: response) == """
                url: http://h/f
                http status: 200
                content type: application/rss+xml
                etag: "x"
                format: rss, UTF-8
                warning: duplicate guid g0

                title: Show
                link: http://h/
                description: Line one
                             Line two
                owner: Ann <a@h>
                category: Technology > Podcasting
                keywords: a, b
                explicit: no
                new feed url: http://h/new
                items: 2

                --- item 1 ---
                identity: \(EpisodeIdentity(parsed.episodes[0]).key)
                guid: g1
                title: One
                published: 1970-01-01T00:00:00Z
                duration: 1:02:03.500
                enclosure: http://h/1.jpg [image/jpeg]
                enclosure: http://h/1.mp3 [audio/mpeg, 42 bytes] (primary)
                chapter: 0:01:01 Intro
                transcript: http://h/1.vtt [text/vtt]
                person: Bo (guest)

                --- item 2 ---
                identity: \(EpisodeIdentity(parsed.episodes[1]).key)
                title: No guid
                published: unknown

                """)
    }

    @Test func jsonKeysAndValues() throws {
        let text = FeedReport.json(parsed, response: response).serialized
        // Valid JSON that Foundation can read back, with the documented shapes.
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["format"] as? String == "rss")
        #expect(object["moved_to"] is NSNull)
        let episodes = try #require(object["episodes"] as? [[String: Any]])
        #expect(episodes.count == 2)
        #expect(episodes[0]["primary_enclosure"] as? String == "http://h/1.mp3")
        #expect(episodes[0]["duration"] as? Double == 3723.5)
        #expect(episodes[1]["published"] is NSNull)
        #expect(
            text.hasPrefix(
                #"{"url":"http://h/f","final_url":"http://h/f","http_status":200,"content_type":"application/rss+xml","content_language":null,"etag":"\"x\"","last_modified":null,"moved_to":null,"format":"rss","encoding":"UTF-8","repaired_encoding":false,"well_formed":true,"warnings":["duplicate guid g0"],"channel":{"title":"Show","#
            ))
        #expect(
            text.contains(
                #""enclosures":[{"url":"http://h/1.jpg","length":null,"mime_type":"image/jpeg"},{"url":"http://h/1.mp3","length":42,"mime_type":"audio/mpeg"}],"chapters":[{"start":61,"title":"Intro","href":null,"image":null}]"#
            ))
    }
}
