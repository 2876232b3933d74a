import Foundation
import LoopScheduler
import Testing

@testable import PodcastKit

@Suite struct LibraryViewModelTests {
    let scheduler = TestScheduler()

    func announcement(_ guid: String) -> EpisodeAnnouncement {
        EpisodeAnnouncement(
            time: Date(timeIntervalSince1970: 0), feedURL: "u", podcastTitle: "P", title: guid, guid: guid, url: nil)
    }

    @Test func keepsFeedsInIdOrderAndCountsNewEpisodes() {
        let library = LibraryViewModel(newestCapacity: 2, journalCapacity: 3)
        library.upsert(Podcast(id: 2, url: "b"))
        library.upsert(Podcast(id: 1, url: "a"))
        #expect(library.snapshots.map(\.id) == [1, 2])
        library.record(.newEpisode(announcement("x")), feedID: 2)
        library.record(.newEpisode(announcement("y")), feedID: 2)
        library.record(.newEpisode(announcement("z")), feedID: 1)
        library.record(
            .feedMoved(FeedMoveReport(time: Date(timeIntervalSince1970: 0), from: "a", to: "c", reason: "http-301")))
        #expect(library.totalNew == 3)
        #expect(library.newestEpisodes.map(\.guid) == ["z", "y"])
        #expect(library.snapshots.map(\.newCount) == [1, 2])
        #expect(library.journal.map(\.sequence) == [2, 3, 4])
        let dated = LibraryViewModel()
        for (guid, day) in [("old", 1.0), ("undated", -1), ("new", 3), ("mid", 2)] {
            var a = announcement(guid)
            a.published = day < 0 ? nil : Date(timeIntervalSince1970: day * 86_400)
            dated.record(.newEpisode(a))
        }
        #expect(dated.newestEpisodes.map(\.guid) == ["new", "mid", "old", "undated"])
        library.remove(id: 1)
        #expect(library.snapshots.map(\.id) == [2])
        #expect(library.podcast(id: 1) == nil)
    }

    @Test func manyChangesInOneTurnGiveOneUpdate() {
        let library = LibraryViewModel()
        let view = TerminalView(
            library: library, scheduler: scheduler, renderer: TerminalRenderer(timeZone: TimeZone(identifier: "UTC")!)
        ) { _ in }
        #expect(view.updateCount == 1)  // initial draw
        for i in 1...10 { library.upsert(Podcast(id: Int64(i), url: "u\(i)")) }
        for i in 1...10 { library.update(id: Int64(i)) { $0.status = .ok } }  // per-feed Observable changes
        library.record(.newEpisode(announcement("g")), feedID: 3)
        #expect(view.updateCount == 1)
        scheduler.advance()
        #expect(view.updateCount == 2)
        scheduler.advance()
        #expect(view.updateCount == 2)  // nothing changed
        library.upsert(Podcast(id: 1, url: "u1", status: .ok))  // equal snapshot: no change
        scheduler.advance()
        #expect(view.updateCount == 2)
        library.update(id: 4) { $0.lastError = "HTTP 500" }  // one feed's Observable alone
        scheduler.advance()
        #expect(view.updateCount == 3)
    }

    @Test func jsonLinesViewWritesEachEventOnce() {
        let library = LibraryViewModel()
        var written: [String] = []
        let view = JSONLinesView(library: library, scheduler: scheduler) { written.append($0) }
        library.record(.newEpisode(announcement("a")))
        library.record(.newEpisode(announcement("b")))
        scheduler.advance()
        library.record(.newEpisode(announcement("c")))
        scheduler.advance()
        view.updateView()  // an extra call writes nothing twice
        #expect(written.count == 2)
        #expect(
            written[0] == FeedEvent.newEpisode(announcement("a")).jsonLine
                + FeedEvent.newEpisode(announcement("b")).jsonLine)
        #expect(written[1] == FeedEvent.newEpisode(announcement("c")).jsonLine)
        #expect(view.lastWritten == 3)
    }
}
