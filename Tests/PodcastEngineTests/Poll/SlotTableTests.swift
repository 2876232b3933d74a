import Foundation
import PodcastTestSupport
import Testing

@testable import PodcastEngine
@testable import PodcastStore

/// The poller's dense slot table (a dictionary of slots cost 25 MB at 100,000 feeds).
@Suite struct SlotTableTests {
    @Test func insertUpdateAndRemoveKeepEveryOtherSlot() throws {
        let dir = TemporaryDirectory("slots")
        let store = try FeedStore(path: dir.file("state.sqlite"))
        var hosts = HostTable()
        func slot(_ url: String) throws -> PollSlot { PollSlot(try store.add(url: url), hosts: &hosts) }
        var table = SlotTable()
        table[7] = try slot("http://h/7")
        table[3] = try slot("http://h/3")
        table[9] = try slot("http://h/9")
        #expect(table.count == 3)
        #expect(table.sortedIDs == [3, 7, 9])
        #expect(table.update(3) { $0.generation = 5 })
        #expect(!table.update(4) { $0.generation = 5 })
        table[9]!.fetchSerial = 2
        // Removing the first moves the last into its place: every id still finds its own slot.
        #expect(table.removeValue(forKey: 7)?.url == "http://h/7")
        #expect(table.removeValue(forKey: 7) == nil)
        #expect(table.count == 2)
        #expect(table[7] == nil)
        #expect(table[3]?.url == "http://h/3")
        #expect(table[3]?.generation == 5)
        #expect(table[9]?.url == "http://h/9")
        #expect(table[9]?.fetchSerial == 2)
        table[3] = nil
        #expect(table.sortedIDs == [9])
        #expect(table[9]?.url == "http://h/9")
        table[3] = try slot("http://h/3b")
        table.updateAll { $0.polledOnce = true }
        #expect(table.sortedIDs == [3, 9])
        #expect(table[3]?.url == "http://h/3b")
        #expect(table[3]?.polledOnce == true && table[9]?.polledOnce == true)
    }
}
