import Foundation
import LoopScheduler
import PodcastDaemonTestSupport
import Testing
import ViewModelKitSchedulers

@testable import PodcastEngine

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

    /// A feed's `Observable` is made on demand, shared while held, follows that feed's row only
    /// (one will-change per change, none for an equal row), keeps its last value after the feed
    /// is removed, and is forgotten once nobody holds it: the library keeps no per-feed object.
    @Test func observableOfOneFeedIsMadeOnDemandAndForgottenWhenReleased() {
        let library = LibraryViewModel()
        library.upsert(contentsOf: [Podcast(id: 1, url: "a"), Podcast(id: 2, url: "b")])
        #expect(library.observable(id: 3) == nil)
        var first = library.observable(id: 1)
        #expect(first === library.observable(id: 1))
        var changes = 0
        let token = first?.objectWillChange.sink { _ in changes += 1 }
        library.update(id: 1) { $0.status = .ok }
        library.update(id: 2) { $0.status = .ok }  // another feed
        library.upsert(Podcast(id: 1, url: "a", status: .ok))  // equal row
        #expect(changes == 1)
        #expect(first?.value.status == .ok)
        library.update(id: 1) { $0.title = "One" }
        #expect(changes == 2)
        #expect(first?.title == "One")
        token?.cancel()
        weak let released = first
        first = nil
        #expect(released == nil)  // the library did not keep it
        let second = library.observable(id: 1)
        #expect(second?.value.title == "One")  // a new one starts at the current row
        library.remove(id: 1)
        #expect(second?.value.title == "One")
        #expect(library.observable(id: 1) == nil)
        #expect(library.feedIDs == [2])
        #expect(library.count == 1)
    }

    /// The row change log names each changed, added or removed feed once, in id order, from a
    /// cursor; a bulk add or more changes than it keeps answer `nil` (compare every row). The
    /// status counts follow every change.
    @Test func rowChangeLogAndStatusCounts() {
        let library = LibraryViewModel()
        library.upsert(contentsOf: (1...3).map { Podcast(id: Int64($0), url: "u\($0)") })
        #expect(library.countsByStatus == [.waiting: 3])
        let start = library.rowChangeCursor
        #expect(library.changedFeedIDs(since: start) == [])
        library.update(id: 3) { $0.status = .ok }
        library.update(id: 1) { $0.newCount = 1 }
        library.update(id: 3) { $0.newCount = 1 }
        library.update(id: 2) { $0.newCount = 0 }  // equal: no change, not logged
        #expect(library.changedFeedIDs(since: start) == [1, 3])
        #expect(library.countsByStatus == [.waiting: 2, .ok: 1])
        let middle = library.rowChangeCursor
        library.upsert(Podcast(id: 9, url: "u9", status: .failing))
        library.remove(id: 3)
        #expect(library.changedFeedIDs(since: middle) == [3, 9])
        #expect(library.changedFeedIDs(since: start) == [1, 3, 9])
        #expect(library.countsByStatus == [.waiting: 2, .failing: 1])
        #expect(library.changedFeedIDs(since: library.rowChangeCursor + 1) == nil)  // not handed out

        library.upsert(contentsOf: [Podcast(id: 21, url: "u21"), Podcast(id: 20, url: "u20")])
        #expect(library.changedFeedIDs(since: middle) == [3, 9, 20, 21])
        #expect(library.countsByStatus == [.waiting: 4, .failing: 1])
        library.upsert(contentsOf: (100..<4197).map { Podcast(id: Int64($0), url: "u\($0)") })  // 4,097
        #expect(library.changedFeedIDs(since: middle) == nil)
        #expect(library.countsByStatus == [.waiting: 4101, .failing: 1])
        let afterBulk = library.rowChangeCursor
        for n in 1...(2 * max(4096, library.count) + 1) { library.update(id: 1) { $0.newCount = n + 1 } }
        #expect(library.changedFeedIDs(since: afterBulk) == nil)  // trimmed past it
        #expect(library.changedFeedIDs(since: library.rowChangeCursor - 1) == [1])
    }
}
