import Foundation
import LoopScheduler
import PodcastDaemonTestSupport
import Testing
import ViewModelKitSchedulers

@testable import PodcastCommandLine
@testable import PodcastEngine

/// The terminal table and the JSON lines as observers of a `LibraryViewModel`: one update per
/// loop iteration however many changes, each event written once.
@Suite struct TerminalViewTests {
    let scheduler = TestScheduler()

    func announcement(_ guid: String) -> EpisodeAnnouncement {
        EpisodeAnnouncement(
            time: Date(timeIntervalSince1970: 0), feedURL: "u", podcastTitle: "P", title: guid, guid: guid, url: nil)
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
