import Foundation
import PodcastDaemonTestSupport
import Testing

@testable import PodcastEngine
@testable import PodcastFeeds

@Suite struct FeedEventTests {
    let t = Date(timeIntervalSince1970: 1_700_000_000)  // 2023-11-14T22:13:20Z

    @Test func jsonEscapesAndKeepsKeyOrder() {
        let v = OrderedJSON.object([
            ("z", .string("a\"b\\c\n\u{1}/é")), ("a", .int(Int64(-3))), ("n", .number(2.5)), ("w", .number(4)),
            ("x", .null), ("l", .array([.bool(true), .bool(false)])),
        ])
        #expect(v.serialized == #"{"z":"a\"b\\c\n\u0001/é","a":-3,"n":2.5,"w":4,"x":null,"l":[true,false]}"#)
        #expect(OrderedJSON.number(.nan).serialized == "null")
        #expect(OrderedJSON.iso8601(t) == "2023-11-14T22:13:20Z")
    }

    @Test func newEpisodeLine() {
        let e = EpisodeAnnouncement(
            time: t, feedURL: "http://h/f", podcastTitle: "Show",
            episode: Episode(
                guid: "g1", title: "Ep \"1\"", link: "http://h/1",
                published: Date(timeIntervalSince1970: 1_699_999_000), duration: 61.5,
                enclosures: [
                    Enclosure(url: "http://h/1.jpg", mimeType: "image/jpeg"),
                    Enclosure(url: "http://h/1.mp3", length: 1234, mimeType: "audio/mpeg"),
                ]))
        #expect(
            FeedEvent.newEpisode(e).jsonLine
                == #"{"event":"new_episode","time":"2023-11-14T22:13:20Z","feed_url":"http://h/f","podcast_title":"Show","episode_title":"Ep \"1\"","episode_guid":"g1","episode_url":"http://h/1.mp3","episode_link":"http://h/1","published":"2023-11-14T21:56:40Z","duration":61.5,"mime_type":"audio/mpeg","length":1234}"#
                + "\n")
    }

    @Test func otherLines() {
        let err = FeedEvent.feedError(
            FeedErrorReport(
                time: t, feedURL: "http://h/f", podcastTitle: nil, httpStatus: 404, message: "HTTP 404 Not Found",
                health: .failing, consecutiveFailures: 2, nextPoll: t.addingTimeInterval(600)))
        #expect(
            err.jsonLine
                == #"{"event":"feed_error","time":"2023-11-14T22:13:20Z","feed_url":"http://h/f","podcast_title":null,"http_status":404,"error":"HTTP 404 Not Found","status":"failing","failures":2,"next_poll":"2023-11-14T22:23:20Z"}"#
                + "\n")
        let moved = FeedEvent.feedMoved(FeedMoveReport(time: t, from: "http://a", to: "https://b", reason: "301"))
        #expect(
            moved.jsonLine
                == #"{"event":"feed_moved","time":"2023-11-14T22:13:20Z","from":"http://a","to":"https://b","reason":"301"}"#
                + "\n")
        let upd = FeedEvent.feedUpdated(
            FeedUpdateReport(time: t, feedURL: "u", podcastTitle: "S", newEpisodes: 0, notModified: true, nextPoll: nil)
        )
        #expect(
            upd.jsonLine
                == #"{"event":"feed_updated","time":"2023-11-14T22:13:20Z","feed_url":"u","podcast_title":"S","new_episodes":0,"not_modified":true,"next_poll":null}"#
                + "\n")
    }
}
