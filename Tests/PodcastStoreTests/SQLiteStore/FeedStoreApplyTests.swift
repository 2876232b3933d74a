import Foundation
import PodcastTestSupport
import Testing

@testable import PodcastFeeds
@testable import PodcastStore

/// `FeedStore.apply(update:)`: new episodes, announcements, 304, failures, moves.
@Suite struct FeedStoreApplyTests {
    let t0 = Date(timeIntervalSince1970: 1_700_000_000)

    func episode(_ n: Int, day: Int? = nil) -> Episode {
        Episode(
            guid: "g\(n)", title: "Episode \(n)", link: "https://a.example/\(n)",
            published: day.map { t0.addingTimeInterval(Double($0) * 86_400) },
            enclosures: [Enclosure(url: "https://cdn.example/\(n).mp3?src=rss", length: 1000, mimeType: "audio/mpeg")])
    }

    func feed(_ episodes: [Episode], title: String? = "Show", wellFormed: Bool = true, newFeedURL: String? = nil)
        -> ParsedFeed
    {
        ParsedFeed(
            format: .rss, channel: Channel(title: title, newFeedURL: newFeedURL), episodes: episodes,
            isWellFormed: wellFormed)
    }

    func fetched(_ id: Int64, _ parsed: ParsedFeed, etag: String? = nil, lm: String? = nil, at: Double = 0)
        -> FeedUpdate
    {
        FeedUpdate(
            feedID: id, outcome: .fetched(parsed, etag: etag, lastModified: lm), checkedAt: t0.addingTimeInterval(at))
    }

    func makeStore(_ dir: TemporaryDirectory) throws -> (FeedStore, FeedRecord) {
        let store = try FeedStore(path: dir.file("s.sqlite"))
        let record = try store.add(url: "https://a.example/feed.xml", added: t0)
        return (store, record)
    }

    @Test func knownEpisodesEnclosureMoveIsStoredWithoutAnnouncingIt() throws {
        let dir = TemporaryDirectory()
        let (store, f) = try makeStore(dir)
        _ = try store.apply(update: fetched(f.id, feed([episode(1, day: 1)])))
        var moved = episode(1, day: 1)
        moved.enclosures = [Enclosure(url: "https://cdn2.example/1.mp3", length: 1000, mimeType: "audio/mpeg")]
        let second = try store.apply(update: fetched(f.id, feed([moved]), at: 60))
        #expect(second.newEpisodes.isEmpty)
        let url = try store.database.scalarString("SELECT enclosure_url FROM episodes WHERE guid = 'g1'")
        #expect(url == "https://cdn2.example/1.mp3")
        #expect(try store.episodeCount(feedID: f.id) == 1)
    }

    /// The moved enclosure's type, length, key and list move with its URL: before, only the URL
    /// did, and a download of it expected the old file's length.
    @Test func enclosureMoveUpdatesTypeLengthAndKeyTogether() throws {
        let dir = TemporaryDirectory()
        let (store, f) = try makeStore(dir)
        _ = try store.apply(update: fetched(f.id, feed([episode(1, day: 1)])))
        var moved = episode(1, day: 1)
        moved.enclosures = [Enclosure(url: "https://cdn2.example/1.m4a?x=1", length: 2345, mimeType: "audio/mp4")]
        _ = try store.apply(update: fetched(f.id, feed([moved]), at: 60))
        let row = try store.database.prepare(
            "SELECT enclosure_url, enclosure_type, enclosure_length, enclosure_key, enclosures_json FROM episodes")
        #expect(try row.step())
        #expect(row.string(0) == "https://cdn2.example/1.m4a?x=1")
        #expect(row.string(1) == "audio/mp4")
        #expect(row.int64(2) == 2345)
        #expect(row.string(3) == "https://cdn2.example/1.m4a")
        #expect(row.string(4)?.contains("cdn2.example") == true)
        #expect(row.string(4)?.contains("cdn.example/") == false)
        // The same URL with a corrected length is stored too.
        moved.enclosures[0].length = 2400
        _ = try store.apply(update: fetched(f.id, feed([moved]), at: 120))
        #expect(try store.database.scalarInt("SELECT enclosure_length FROM episodes") == 2400)
    }

    func guidless(_ title: String, url: String, day: Int, length: Int64 = 1000) -> Episode {
        Episode(
            title: title, published: t0.addingTimeInterval(Double(day) * 86_400),
            enclosures: [Enclosure(url: url, length: length, mimeType: "audio/mpeg")])
    }

    /// Without a guid the enclosure is the identity (podcastparser would take the link, which
    /// many feeds set to the show's home page for every item). A moved file with the same title
    /// and date, whose old enclosure is gone from the feed, is the same episode: no new one,
    /// nothing announced, and its identity follows the new file.
    @Test func guidlessEpisodeWhoseFileMovedKeepsItsIdentity() throws {
        let dir = TemporaryDirectory()
        let (store, f) = try makeStore(dir)
        _ = try store.apply(update: fetched(f.id, feed([guidless("One", url: "https://cdn.example/1.mp3", day: 1)])))
        let id = try #require(try store.database.scalarInt("SELECT id FROM episodes"))
        let second = try store.apply(
            update: fetched(
                f.id, feed([guidless("One", url: "https://cdn2.example/one.mp3", day: 1, length: 5000)]), at: 60))
        #expect(second.newEpisodes.isEmpty)
        #expect(try store.episodeCount(feedID: f.id) == 1)
        #expect(
            try store.database.scalarString("SELECT identity FROM episodes") == "enclosure:https://cdn2.example/one.mp3"
        )
        #expect(try store.database.scalarInt("SELECT id FROM episodes") == id)
        #expect(try store.database.scalarInt("SELECT enclosure_length FROM episodes") == 5000)
        // The next poll finds it by its new key: still one episode.
        _ = try store.apply(
            update: fetched(
                f.id, feed([guidless("One", url: "https://cdn2.example/one.mp3", day: 1, length: 5000)]), at: 120))
        #expect(try store.episodeCount(feedID: f.id) == 1)
    }

    /// Two guid-less items share a title and date (s1, s2); s1 moves to s3 while s2 stays. s1 is
    /// the only stored candidate whose file the feed no longer lists, so it moved: no new
    /// episode, s1's row takes s3's key. (Before, any second candidate blocked the relink.)
    @Test func guidlessMoveWithASiblingOfTheSameTitleAndDateRelinks() throws {
        let dir = TemporaryDirectory()
        let (store, f) = try makeStore(dir)
        let s1 = guidless("Bonus", url: "https://cdn.example/s1.mp3", day: 1)
        let s2 = guidless("Bonus", url: "https://cdn.example/s2.mp3", day: 1)
        _ = try store.apply(update: fetched(f.id, feed([s1, s2])))
        let s1ID = try #require(
            try store.database.scalarInt(
                "SELECT id FROM episodes WHERE identity = 'enclosure:https://cdn.example/s1.mp3'"))
        let s3 = guidless("Bonus", url: "https://cdn.example/s3.mp3", day: 1)
        let second = try store.apply(update: fetched(f.id, feed([s3, s2]), at: 60))
        #expect(second.newEpisodes.isEmpty)
        #expect(try store.episodeCount(feedID: f.id) == 2)
        #expect(
            try store.database.scalarInt(
                "SELECT id FROM episodes WHERE identity = 'enclosure:https://cdn.example/s3.mp3'")
                == s1ID)
    }

    /// What stays a new episode: another title or date, or an old file still listed beside the
    /// new one (two parts published together under one title).
    @Test func guidlessNewFileIsNewWhenTitleDateOrOldFileSaySo() throws {
        let dir = TemporaryDirectory()
        let (store, f) = try makeStore(dir)
        _ = try store.apply(update: fetched(f.id, feed([guidless("One", url: "https://cdn.example/1.mp3", day: 1)])))
        let renamed = try store.apply(
            update: fetched(f.id, feed([guidless("Two", url: "https://cdn.example/2.mp3", day: 1)]), at: 60))
        #expect(renamed.newEpisodes.count == 1)
        let redated = try store.apply(
            update: fetched(f.id, feed([guidless("One", url: "https://cdn.example/3.mp3", day: 2)]), at: 120))
        #expect(redated.newEpisodes.count == 1)
        let both = try store.apply(
            update: fetched(
                f.id,
                feed([
                    guidless("One", url: "https://cdn.example/1.mp3", day: 1),
                    guidless("One", url: "https://cdn.example/1b.mp3", day: 1),
                ]), at: 180))
        #expect(both.newEpisodes.map(\.enclosure?.url) == ["https://cdn.example/1b.mp3"])
        #expect(try store.episodeCount(feedID: f.id) == 4)
    }

    /// A download of a moved enclosure starts from zero at the new URL and expects the new
    /// enclosure's length (the old `.part` is another resource's bytes: no Range, no If-Range).
    @Test func downloadFollowsTheMoveWithTheNewLength() throws {
        let dir = TemporaryDirectory()
        let (store, f) = try makeStore(dir)
        _ = try store.apply(update: fetched(f.id, feed([episode(1, day: 1)])))
        let id = try #require(try store.database.scalarInt("SELECT id FROM episodes"))
        let ledger = DownloadLedger(store: store)
        try ledger.enqueue(
            episodeID: id, feedID: f.id, url: "https://cdn.example/1.mp3?src=rss", total: 1000, queued: t0,
            candidate: { dir.file("\($0).mp3") })
        try ledger.noteResponse(episodeID: id, etag: "\"old\"", lastModified: nil, total: 1000)
        let record = try #require(try ledger.record(episodeID: id))
        var moved = episode(1, day: 1)
        moved.enclosures = [Enclosure(url: "https://cdn2.example/1.mp3", length: 7777, mimeType: "audio/mpeg")]
        _ = try store.apply(update: fetched(f.id, feed([moved]), at: 60))
        let followed = try ledger.followEnclosure(record)
        #expect(followed.url == "https://cdn2.example/1.mp3")
        #expect(followed.total == 7777)
        #expect(followed.bytes == 0 && followed.etag == nil && followed.lastModified == nil && followed.fromZero)
        #expect(try ledger.record(episodeID: id)?.total == 7777)
    }

    @Test func firstSyncAnnouncesNewestThreeThenEveryNewOne() throws {
        let dir = TemporaryDirectory()
        let (store, f) = try makeStore(dir)
        // Document order is not date order on purpose.
        let first = try store.apply(
            update: fetched(
                f.id,
                feed([
                    episode(1, day: 1), episode(5, day: 5), episode(3, day: 3), episode(2, day: 2), episode(4, day: 4),
                ]), etag: "\"v1\"", lm: "Tue, 14 Nov 2023 22:13:20 GMT"))
        #expect(first.newEpisodes.map(\.guid) == ["g1", "g5", "g3", "g2", "g4"])
        #expect(first.announced.map(\.guid) == ["g5", "g4", "g3"])
        #expect(first.newEpisodes.filter(\.announced).count == 3)
        #expect(first.feed.feedTitle == "Show")
        #expect(first.feed.etag == "\"v1\"")
        #expect(first.feed.lastModified == "Tue, 14 Nov 2023 22:13:20 GMT")
        #expect(first.feed.newEpisodeCount == 3)
        #expect(first.feed.lastSuccess == t0)
        #expect(first.feed.lastHTTPStatus == 200)
        #expect(try store.episodeCount(feedID: f.id) == 5)
        #expect(try store.episodes(feedID: f.id).map(\.guid) == ["g5", "g4", "g3", "g2", "g1"])
        #expect(try store.episodes(feedID: f.id).map(\.announced) == [true, true, true, false, false])

        // Second poll: one new, two dropped out of the feed.
        let second = try store.apply(
            update: fetched(f.id, feed([episode(6, day: 6), episode(7, day: 7), episode(5, day: 5)]), at: 60))
        #expect(second.newEpisodes.map(\.guid) == ["g6", "g7"])
        #expect(second.announced.map(\.guid) == ["g7", "g6"])
        #expect(second.feed.newEpisodeCount == 5)
        #expect(try store.episodeCount(feedID: f.id) == 7)

        // Same content again: nothing new.
        let third = try store.apply(update: fetched(f.id, feed([episode(6, day: 6), episode(7, day: 7)]), at: 120))
        #expect(third.newEpisodes.isEmpty)
        #expect(third.announced.isEmpty)
        #expect(try store.episodeCount(feedID: f.id) == 7)
        try store.resetNewEpisodeCount(id: f.id)
        #expect(try store.feed(id: f.id)?.newEpisodeCount == 0)
    }

    @Test func firstSyncLimitIsConfigurableAndUndatedGoLast() throws {
        let dir = TemporaryDirectory()
        let (store, f) = try makeStore(dir)
        store.firstSyncAnnounceLimit = 2
        let r = try store.apply(update: fetched(f.id, feed([episode(1), episode(2, day: 2), episode(3)])))
        #expect(r.announced.map(\.guid) == ["g2", "g1"])
    }

    @Test func storedFieldsRoundTrip() throws {
        let dir = TemporaryDirectory()
        let (store, f) = try makeStore(dir)
        var e = episode(1, day: 1)
        e.duration = 61.5
        e.description = "About it"
        e.enclosures.insert(Enclosure(url: "https://cdn.example/art.jpg", mimeType: "image/jpeg"), at: 0)
        try store.apply(update: fetched(f.id, feed([e]), at: 5))
        let stored = try #require(try store.episodes(feedID: f.id).first)
        #expect(stored.identity == "guid:g1")
        #expect(stored.title == "Episode 1")
        #expect(stored.link == "https://a.example/1")
        #expect(stored.published == t0.addingTimeInterval(86_400))
        #expect(stored.duration == 61.5)
        #expect(stored.description == "About it")
        #expect(
            stored.enclosure
                == Enclosure(url: "https://cdn.example/1.mp3?src=rss", length: 1000, mimeType: "audio/mpeg"))
        #expect(stored.enclosures == e.enclosures)
        #expect(stored.firstSeen == t0.addingTimeInterval(5))
        let json = try store.database.scalarString("SELECT enclosures_json FROM episodes")
        #expect(
            json
                == #"[{"mimeType":"image\/jpeg","url":"https://cdn.example/art.jpg"},{"length":1000,"mimeType":"audio/mpeg","url":"https://cdn.example/1.mp3?src=rss"}]"#
                || json
                    == #"[{"mimeType":"image/jpeg","url":"https://cdn.example/art.jpg"},{"length":1000,"mimeType":"audio/mpeg","url":"https://cdn.example/1.mp3?src=rss"}]"#
        )
    }

    @Test func duplicateGuidInOneUpdateKeptOnceWithWarning() throws {
        let dir = TemporaryDirectory()
        let (store, f) = try makeStore(dir)
        var dup = episode(2, day: 3)
        dup.guid = "g1"
        let r = try store.apply(update: fetched(f.id, feed([episode(1, day: 1), dup])))
        #expect(r.newEpisodes.map(\.title) == ["Episode 1"])
        #expect(r.warnings == ["feed #1: item 2 (Episode 2): duplicate identity guid:g1 in one update; kept the first"])
        #expect(try store.episodeCount(feedID: f.id) == 1)
    }

    @Test func enclosureQueryChangeIsNotANewEpisode() throws {
        let dir = TemporaryDirectory()
        let (store, f) = try makeStore(dir)
        var a = episode(1, day: 1)
        a.guid = nil
        try store.apply(update: fetched(f.id, feed([a])))
        a.enclosures = [Enclosure(url: "https://cdn.example/1.mp3?src=other", mimeType: "audio/mpeg")]
        let r = try store.apply(update: fetched(f.id, feed([a]), at: 60))
        #expect(r.newEpisodes.isEmpty)
        // The same item later gains a guid: still the same media, still not new.
        a.guid = "late-guid"
        let r2 = try store.apply(update: fetched(f.id, feed([a]), at: 120))
        #expect(r2.newEpisodes.isEmpty)
        #expect(try store.episodeCount(feedID: f.id) == 1)
    }

    @Test func degradedParseNeverDeletesNorDuplicates() throws {
        let dir = TemporaryDirectory()
        let (store, f) = try makeStore(dir)
        try store.apply(update: fetched(f.id, feed([episode(1, day: 1), episode(2, day: 2)])))
        // A truncated document: episode 3 is complete, episode 4 was cut before its guid and
        // enclosure, leaving only a title (weak identity).
        let cut = Episode(title: "Episode 4")
        let r = try store.apply(
            update: fetched(
                f.id, feed([episode(3, day: 3), cut], title: nil, wellFormed: false), etag: "\"t\"", lm: "LM", at: 60))
        #expect(r.feed.etag == nil)
        #expect(r.feed.lastModified == nil)
        #expect(r.newEpisodes.map(\.guid) == ["g3"])
        #expect(
            r.warnings == [
                "feed #1: item 2 (Episode 4): skipped, degraded parse and no guid or enclosure to identify it"
            ])
        #expect(r.feed.feedTitle == "Show")  // a missing title does not erase the stored one
        #expect(try store.episodeCount(feedID: f.id) == 3)
        let full = try store.apply(update: fetched(f.id, feed([episode(4, day: 4), episode(3, day: 3)]), at: 120))
        #expect(full.newEpisodes.map(\.guid) == ["g4"])
        #expect(try store.episodeCount(feedID: f.id) == 4)
    }

    /// A degraded (possibly truncated) body must not lend its validators to the stored row: the
    /// next poll asks unconditionally, so a server cannot answer 304 for the broken copy.
    @Test func degradedParseStoresNoValidatorsSoTheNextPollIsUnconditional() throws {
        let dir = TemporaryDirectory()
        let (store, f) = try makeStore(dir)
        try store.apply(update: fetched(f.id, feed([episode(1, day: 1)]), etag: "\"v1\"", lm: "LM1"))
        #expect(try store.feed(id: f.id)?.etag == "\"v1\"")
        let r = try store.apply(
            update: fetched(f.id, feed([episode(1, day: 1)], wellFormed: false), etag: "\"v2\"", lm: "LM2", at: 60))
        let stored = try #require(try store.feed(id: f.id))
        #expect(stored.etag == nil)
        #expect(stored.lastModified == nil)
        #expect(r.feed.etag == nil)
        #expect(r.feed.lastModified == nil)
        // A well-formed copy afterwards brings its validators back.
        try store.apply(update: fetched(f.id, feed([episode(1, day: 1)]), etag: "\"v3\"", lm: "LM3", at: 120))
        #expect(try store.feed(id: f.id)?.etag == "\"v3\"")
        #expect(try store.feed(id: f.id)?.lastModified == "LM3")
    }

    @Test func notModifiedWritesNoEpisode() throws {
        let dir = TemporaryDirectory()
        let (store, f) = try makeStore(dir)
        try store.apply(update: fetched(f.id, feed([episode(1, day: 1)]), etag: "\"e\"", lm: "LM"))
        let episodesBefore = try store.episodes(feedID: f.id)
        let changesBefore = try store.database.scalarInt("SELECT total_changes()")
        let r = try store.apply(
            update: FeedUpdate(feedID: f.id, outcome: .notModified, checkedAt: t0.addingTimeInterval(30)))
        let changesAfter = try store.database.scalarInt("SELECT total_changes()")
        #expect(r.newEpisodes.isEmpty)
        #expect(try store.episodes(feedID: f.id) == episodesBefore)
        #expect(changesAfter == changesBefore.map { $0 + 1 })  // the one feeds row
        #expect(r.feed.lastCheck == t0.addingTimeInterval(30))
        #expect(r.feed.lastHTTPStatus == 304)
        #expect(r.feed.etag == "\"e\"")
        #expect(r.feed.lastModified == "LM")
        #expect(r.feed.feedTitle == "Show")
    }

    @Test func failureCountsAndClearsValidators() throws {
        let dir = TemporaryDirectory()
        let (store, f) = try makeStore(dir)
        try store.apply(update: fetched(f.id, feed([episode(1)]), etag: "\"e\"", lm: "LM"))
        let next = t0.addingTimeInterval(600)
        let r1 = try store.apply(
            update: FeedUpdate(
                feedID: f.id, outcome: .failed(FeedFailure(httpStatus: 500, message: "HTTP 500")),
                checkedAt: t0.addingTimeInterval(10), nextPoll: next))
        #expect(r1.feed.failureCount == 1)
        #expect(r1.feed.status == .failing)
        #expect(r1.feed.lastError == "HTTP 500")
        #expect(r1.feed.lastHTTPStatus == 500)
        #expect(r1.feed.etag == nil)
        #expect(r1.feed.lastModified == nil)
        #expect(r1.feed.nextPoll == next)
        #expect(r1.feed.enabled)
        let r2 = try store.apply(
            update: FeedUpdate(
                feedID: f.id, outcome: .failed(FeedFailure(message: "timed out")), checkedAt: t0.addingTimeInterval(20))
        )
        #expect(r2.feed.failureCount == 2)
        #expect(r2.feed.lastHTTPStatus == nil)
        #expect(r2.feed.nextPoll == next)
        // After a failure the next refresh is unconditional (no validators to send; the
        // engine's `FeedRecord.fetchRequest` is checked in FeedRecordFetchRequestTests).
        #expect(r2.feed.etag == nil)
        #expect(r2.feed.lastModified == nil)
        let ok = try store.apply(update: fetched(f.id, feed([episode(1)]), at: 30))
        #expect(ok.feed.failureCount == 0)
        #expect(ok.feed.status == .ok)
        #expect(ok.feed.lastError == nil)
        #expect(try store.episodeCount(feedID: f.id) == 1)
    }

    @Test func dueFeedsHonourNextPollAndEnabled() throws {
        let dir = TemporaryDirectory()
        let (store, a) = try makeStore(dir)
        let b = try store.add(url: "https://b.example/feed.xml")
        let c = try store.add(url: "https://c.example/feed.xml")
        let d = try store.add(url: "https://d.example/feed.xml")
        try store.setNextPoll(t0.addingTimeInterval(100), id: a.id)
        try store.setNextPoll(t0.addingTimeInterval(50), id: b.id)
        try store.setEnabled(false, id: d.id)
        #expect(try store.dueFeeds(at: t0).map(\.id) == [c.id])
        #expect(try store.dueFeeds(at: t0.addingTimeInterval(60)).map(\.id) == [c.id, b.id])
        #expect(try store.dueFeeds(at: t0.addingTimeInterval(100)).map(\.id) == [c.id, b.id, a.id])
    }

    @Test func notFoundFailsAndGoneDisables() throws {
        let dir = TemporaryDirectory()
        let (store, f) = try makeStore(dir)
        let r404 = try store.apply(
            update: FeedUpdate(
                feedID: f.id, outcome: .failed(FeedFailure(httpStatus: 404, message: "HTTP 404 Not Found")),
                checkedAt: t0))
        #expect(r404.feed.status == .failing)
        #expect(r404.feed.enabled)
        let r410 = try store.apply(
            update: FeedUpdate(
                feedID: f.id, outcome: .failed(FeedFailure(httpStatus: 410, message: "HTTP 410 Gone")), checkedAt: t0))
        #expect(r410.feed.status == .gone)
        #expect(r410.feed.enabled == false)
        try store.setEnabled(true, id: f.id)
        #expect(try store.feed(id: f.id)?.status == .ok)
    }

    @Test func permanentRedirectMovesURLAndRecordsHistory() throws {
        let dir = TemporaryDirectory()
        let (store, f) = try makeStore(dir)
        let r = try store.apply(
            update: FeedUpdate(
                feedID: f.id, outcome: .fetched(feed([episode(1)]), etag: nil, lastModified: nil),
                permanentRedirect: PermanentRedirect(url: "https://b.example/new.xml", status: 301), checkedAt: t0))
        #expect(r.feed.url == "https://b.example/new.xml")
        #expect(
            r.moves == [
                FeedMove(
                    feedID: f.id, from: "https://a.example/feed.xml", to: "https://b.example/new.xml", at: t0,
                    reason: .permanentRedirect(status: 301))
            ])
        #expect(try store.urlHistory(feedID: f.id) == r.moves)
        #expect(try store.feed(url: "https://a.example/feed.xml") == nil)
    }

    @Test func newFeedURLMovesUnlessAlreadySubscribed() throws {
        let dir = TemporaryDirectory()
        let (store, f) = try makeStore(dir)
        let other = try store.add(url: "https://c.example/taken.xml")
        let refused = try store.apply(
            update: fetched(f.id, feed([episode(1)], newFeedURL: "https://c.example/taken.xml")))
        #expect(refused.moves.isEmpty)
        #expect(refused.feed.url == "https://a.example/feed.xml")
        #expect(
            refused.warnings == [
                "feed #1 https://a.example/feed.xml: not moving to https://c.example/taken.xml (itunes:new-feed-url): already subscribed as feed #\(other.id)"
            ])

        let moved = try store.apply(
            update: fetched(f.id, feed([episode(1)], newFeedURL: " https://d.example/moved.xml "), at: 60))
        #expect(moved.feed.url == "https://d.example/moved.xml")
        #expect(moved.moves.map(\.reason) == [.newFeedURL])
        #expect(try store.urlHistory(feedID: f.id).count == 1)
        // The same tag on the next poll is a no-op.
        let again = try store.apply(
            update: fetched(f.id, feed([episode(1)], newFeedURL: "https://d.example/moved.xml"), at: 120))
        #expect(again.moves.isEmpty)
        #expect(try store.urlHistory(feedID: f.id).count == 1)
    }

    @Test func redirectOnNotModifiedStillMoves() throws {
        let dir = TemporaryDirectory()
        let (store, f) = try makeStore(dir)
        let r = try store.apply(
            update: FeedUpdate(
                feedID: f.id, outcome: .notModified,
                permanentRedirect: PermanentRedirect(url: "https://b.example/x", status: 308), checkedAt: t0))
        #expect(r.feed.url == "https://b.example/x")
        #expect(try store.urlHistory(feedID: f.id).map(\.reason) == [.permanentRedirect(status: 308)])
    }

    @Test func unknownFeedThrowsAndWritesNothing() throws {
        let dir = TemporaryDirectory()
        let (store, _) = try makeStore(dir)
        #expect(throws: StoreError.noSuchFeed("42")) {
            try store.apply(update: FeedUpdate(feedID: 42, outcome: .notModified, checkedAt: t0))
        }
    }

    @Test func removingAFeedRemovesItsEpisodes() throws {
        let dir = TemporaryDirectory()
        let (store, f) = try makeStore(dir)
        try store.apply(update: fetched(f.id, feed([episode(1), episode(2)])))
        try store.remove(id: f.id)
        #expect(try store.database.scalarInt("SELECT count(*) FROM episodes") == 0)
    }

    @Test func recentEpisodesAcrossFeeds() throws {
        let dir = TemporaryDirectory()
        let (store, f) = try makeStore(dir)
        let g = try store.add(url: "https://b.example/feed.xml")
        try store.apply(update: fetched(f.id, feed([episode(1, day: 1), episode(3, day: 3)])))
        try store.apply(update: fetched(g.id, feed([episode(2, day: 2), episode(4)])))
        #expect(try store.recentEpisodes(limit: 3).map(\.guid) == ["g3", "g2", "g1"])
        #expect(try store.recentEpisodes(limit: 10).count == 4)
    }
}
