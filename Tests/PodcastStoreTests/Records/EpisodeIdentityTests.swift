import Foundation
import Testing

@testable import PodcastFeeds
@testable import PodcastStore

@Suite struct EpisodeIdentityTests {
    let date = Date(timeIntervalSince1970: 1_700_000_000)

    @Test func guidWinsOverEverything() {
        let e = Episode(
            guid: "  abc-1 ", title: "T", link: "https://x/1", published: date,
            enclosures: [Enclosure(url: "https://cdn/x.mp3")])
        let id = EpisodeIdentity(e)
        #expect(id.kind == .guid)
        #expect(id.key == "guid:abc-1")
        #expect(id.isStrong)
    }

    @Test func enclosureWithoutQueryWhenNoGuid() {
        let e = Episode(
            guid: "  ", link: "https://x/1",
            enclosures: [
                Enclosure(url: "https://x/cover.jpg", mimeType: "image/jpeg"),
                Enclosure(url: "https://cdn/ep1.mp3?token=9#t=3", mimeType: "audio/mpeg"),
            ])
        let id = EpisodeIdentity(e)
        #expect(id.kind == .enclosure)
        #expect(id.key == "enclosure:https://cdn/ep1.mp3")
    }

    @Test func linkWhenNoGuidNorEnclosure() {
        let id = EpisodeIdentity(Episode(title: "T", link: "https://x/post?id=1"))
        #expect(id.kind == .link)
        #expect(id.key == "link:https://x/post?id=1")
        #expect(id.isStrong == false)
    }

    @Test func hashOfTitleAndDateLast() {
        let a = EpisodeIdentity(Episode(title: "Pilot", published: date))
        let b = EpisodeIdentity(Episode(title: "Pilot", published: date.addingTimeInterval(0.4)))
        let c = EpisodeIdentity(Episode(title: "Pilot", published: date.addingTimeInterval(60)))
        let d = EpisodeIdentity(Episode(title: "Pilot"))
        #expect(a.kind == .hash)
        #expect(a == b)
        #expect(a != c)
        #expect(a != d)
        let expected = EpisodeIdentity.fnv1a64(Array("Pilot\u{1F}1700000000".utf8))
        #expect(a.key == "hash:" + String(expected, radix: 16))
    }

    @Test func fnv1a64KnownVectors() {
        #expect(EpisodeIdentity.fnv1a64([]) == 0xcbf2_9ce4_8422_2325)
        #expect(EpisodeIdentity.fnv1a64(Array("a".utf8)) == 0xaf63_dc4c_8601_ec8c)
        #expect(EpisodeIdentity.fnv1a64(Array("foobar".utf8)) == 0x8594_4171_f739_67e8)
    }
}
