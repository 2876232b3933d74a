import Foundation
import Testing

@testable import PodcastEngine

/// The journal's windowed storage and the batch `upsert(contentsOf:)`.
@Suite struct LibraryJournalTests {
    func moved(_ n: Int) -> FeedEvent {
        .feedMoved(FeedMoveReport(time: Date(timeIntervalSince1970: 0), from: "a\(n)", to: "b\(n)", reason: "http-301"))
    }

    @Test func journalKeepsTheNewestEntriesAcrossCompactions() {
        let library = LibraryViewModel(journalCapacity: 3)
        #expect(library.journal.isEmpty)
        #expect(library.lastSequence == 0)
        #expect(library.journalEntries(after: 0).isEmpty)
        var seen: [[Int]] = []
        for n in 1...10 {
            #expect(library.record(moved(n)) == n)
            seen.append(library.journal.map(\.sequence))
        }
        #expect(
            seen == [
                [1], [1, 2], [1, 2, 3], [2, 3, 4], [3, 4, 5], [4, 5, 6], [5, 6, 7], [6, 7, 8], [7, 8, 9], [8, 9, 10],
            ])
        #expect(library.lastSequence == 10)
        #expect(library.journalEntries(after: 0).map(\.sequence) == [8, 9, 10])
        #expect(library.journalEntries(after: 8).map(\.sequence) == [9, 10])
        #expect(library.journalEntries(after: 10).isEmpty)
        #expect(library.journalEntries(after: 99).isEmpty)
        #expect(library.journal.last?.event == moved(10))
    }

    @Test func everyRecordSendsObjectWillChange() {
        let library = LibraryViewModel()
        var sends = 0
        let token = library.objectWillChange.sink { _ in sends += 1 }
        library.record(moved(1))
        library.record(moved(2))
        #expect(sends == 2)
        withExtendedLifetime(token) {}
    }

    @Test func batchUpsertAddsInIdOrderWithOneListChange() {
        let library = LibraryViewModel()
        library.upsert(Podcast(id: 5, url: "e"))
        var lists: [[Int64]] = []
        let token = library.$feedIDs.sink { lists.append($0) }
        library.upsert(contentsOf: [
            Podcast(id: 3, url: "c"), Podcast(id: 9, url: "i"), Podcast(id: 5, url: "e2"), Podcast(id: 1, url: "a"),
        ])
        #expect(lists == [[5], [1, 3, 5, 9]])
        #expect(library.snapshots.map(\.url) == ["a", "c", "e2", "i"])
        library.upsert(contentsOf: [Podcast(id: 3, url: "c")])  // nothing new: the list is not set again
        #expect(lists.count == 2)
        withExtendedLifetime(token) {}
    }

    /// The start's case (an empty library, rows in id order) takes the rows as they are, with the
    /// same single list change and will-change as the general path; out-of-order or repeated ids
    /// still go through it (the last snapshot of an id wins).
    @Test func batchUpsertIntoAnEmptyLibrary() {
        let ordered = LibraryViewModel()
        var lists: [[Int64]] = []
        var willChange = 0
        let token = ordered.$feedIDs.sink { lists.append($0) }
        let changes = ordered.objectWillChange.sink { _ in willChange += 1 }
        ordered.upsert(contentsOf: [Podcast(id: 2, url: "b"), Podcast(id: 4, url: "d"), Podcast(id: 7, url: "g")])
        #expect(lists == [[], [2, 4, 7]])
        #expect(willChange == 1)
        #expect(ordered.snapshots.map(\.url) == ["b", "d", "g"])
        #expect(ordered.podcast(id: 4)?.url == "d")
        ordered.upsert(contentsOf: [])
        #expect(lists.count == 2)
        let repeated = LibraryViewModel()
        repeated.upsert(contentsOf: [Podcast(id: 2, url: "b"), Podcast(id: 2, url: "b2"), Podcast(id: 1, url: "a")])
        #expect(repeated.snapshots.map(\.url) == ["a", "b2"])
        #expect(repeated.feedIDs == [1, 2])
        withExtendedLifetime((token, changes)) {}
    }
}
