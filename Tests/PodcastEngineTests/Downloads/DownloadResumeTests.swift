import Foundation
import LoopScheduler
import PodcastDaemonTestSupport
import PodcastTestSupport
import Testing

/// Downloads against the loopback server: complete, cut and resumed, no range support, 416,
/// a changed file. Content is compared byte for byte with the source.
@Suite(.serialized) struct DownloadResumeTests {
    @Test func downloadsToTheTemplatedNameAndRecordsIt() throws {
        let h = try DownloadHarness()
        let source = DownloadHarness.bytes(300_000)
        h.server.route("/ep1.mp3") { .file(source, for: $0, etag: "\"e1\"") }
        let id = try h.announce(title: "First Light", path: "/ep1.mp3")
        try h.queue.start()
        h.run(until: { h.isSettled(id) })
        let record = try #require(h.record(id))
        #expect(record.state == .done)
        #expect(record.path == h.directory + "/Loopback Radio/2023-11-14 First Light.mp3")
        #expect(h.contents(record.path) == source)
        #expect(record.bytes == 300_000)
        #expect(!FileManager.default.fileExists(atPath: record.path + ".part"))
        #expect(h.events.first?.kind == .started)
        #expect(h.events.last?.kind == .finished)
        #expect(h.events.last?.bytes == 300_000)
        #expect(h.downloaded.map(\.episodeID) == [id])
        #expect(h.server.requests.last?.headers["range"] == nil)
    }

    @Test func cutConnectionResumesWithRangeAndIfRange() throws {
        let h = try DownloadHarness()
        let source = DownloadHarness.bytes(400_000, seed: 3)
        let cut = Shared(true)
        h.server.route("/ep.mp3") { request in
            var response = TestHTTPServer.Response.file(source, for: request, etag: "\"v1\"")
            if cut.value {
                response.stream = .init(pieceBytes: 50_000, interval: 0.001, cutAfter: 150_000)
            }
            return response
        }
        let id = try h.announce(title: "Cut", path: "/ep.mp3")
        try h.queue.start()
        h.run(until: { h.state(id) == .failed && h.queue.activeCount == 0 })
        let failed = try #require(h.record(id))
        #expect(failed.state == .failed)
        #expect(failed.bytes == 150_000)
        #expect(failed.nextRetry != nil)
        #expect(h.contents(failed.path + ".part") == Array(source[..<150_000]))
        #expect(h.events.last?.kind == .failed)

        // The next start (a new run) resumes from the part file.
        cut.value = false
        try h.store.database.run("UPDATE downloads SET next_retry = ?1", .date(Date()))
        h.makeQueue()
        try h.queue.start()
        h.run(until: { h.isSettled(id) && h.state(id) == .done })
        let done = try #require(h.record(id))
        #expect(done.state == .done)
        #expect(h.contents(done.path) == source)
        let resumed = try #require(h.server.requests.last)
        #expect(resumed.headers["range"] == "bytes=150000-")
        #expect(resumed.headers["if-range"] == "\"v1\"")
        let started = h.events.filter { $0.kind == .started }.map(\.bytes)
        #expect(started == [0, 150_000])
    }

    @Test func serverWithoutRangesRestartsCleanly() throws {
        let h = try DownloadHarness()
        let source = DownloadHarness.bytes(200_000, seed: 9)
        let id = try h.announce(title: "No ranges", path: "/norange.mp3")
        let part = h.directory + "/Loopback Radio/2023-11-14 No ranges.mp3.part"
        try FileManager.default.createDirectory(
            atPath: (part as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        // Garbage from an earlier attempt: a 200 must replace it, not be appended to it.
        _ = FileManager.default.createFile(atPath: part, contents: Data(repeating: 0xEE, count: 70_000))
        // This store's own part (a run that died): only such a part is continued.
        try h.store.database.run("UPDATE downloads SET state = 'downloading', bytes = 70000")
        h.server.route("/norange.mp3") { .file(source, for: $0, etag: "\"n\"", ranges: false) }
        try h.queue.start()
        h.run(until: { h.isSettled(id) })
        let record = try #require(h.record(id))
        #expect(record.state == .done)
        #expect(h.contents(record.path) == source)
        #expect(h.server.requests.last?.headers["range"] == "bytes=70000-")
    }

    @Test func retryFollowsTheFeedsNewEnclosureURLFromZero() throws {
        let h = try DownloadHarness()
        let old = DownloadHarness.bytes(100_000, seed: 11)
        let new = DownloadHarness.bytes(90_000, seed: 12)
        h.server.route("/old.mp3") { request in
            var response = TestHTTPServer.Response.file(old, for: request, etag: "\"o\"")
            response.stream = .init(pieceBytes: 10_000, interval: 0.001, cutAfter: 40_000)
            return response
        }
        h.server.route("/new.mp3") { .file(new, for: $0, etag: "\"n\"") }
        let id = try h.announce(title: "Moved", path: "/old.mp3")
        try h.queue.start()
        h.run(until: { h.state(id) == .failed && h.queue.activeCount == 0 })
        #expect(h.record(id)?.bytes == 40_000)
        // The feed now links another file for this episode; the retry must fetch that one.
        try h.store.database.run(
            "UPDATE episodes SET enclosure_url = ?2 WHERE id = ?1", .integer(id), .text(h.server.url("/new.mp3")))
        try h.store.database.run("UPDATE downloads SET next_retry = ?1", .date(Date()))
        h.makeQueue()
        try h.queue.start()
        h.run(until: { h.state(id) == .done && h.queue.activeCount == 0 })
        let done = try #require(h.record(id))
        #expect(done.url == h.server.url("/new.mp3"))
        #expect(h.contents(done.path) == new)
        #expect(h.server.requestCount("/old.mp3") == 1)
        #expect(h.server.requests.last?.headers["range"] == nil)
        #expect(h.server.requests.last?.headers["if-range"] == nil)
    }

    @Test func rangeNotSatisfiableRestartsFromZero() throws {
        let h = try DownloadHarness()
        let source = DownloadHarness.bytes(50_000, seed: 5)
        let id = try h.announce(title: "Shrunk", path: "/shrunk.mp3")
        let part = h.directory + "/Loopback Radio/2023-11-14 Shrunk.mp3.part"
        try FileManager.default.createDirectory(
            atPath: (part as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: part, contents: Data(repeating: 1, count: 80_000))
        try h.store.database.run("UPDATE downloads SET state = 'downloading', bytes = 80000")
        h.server.route("/shrunk.mp3") { .file(source, for: $0, etag: "\"s\"") }
        try h.queue.start()
        h.run(until: { h.isSettled(id) })
        let record = try #require(h.record(id))
        #expect(record.state == .done)
        #expect(h.contents(record.path) == source)
        let ranges = h.server.requests.map { $0.headers["range"] }
        #expect(ranges == ["bytes=80000-", nil])
    }

    @Test func changedFileOnTheServerRestartsFromZero() throws {
        let h = try DownloadHarness()
        let old = DownloadHarness.bytes(120_000, seed: 1)
        let new = DownloadHarness.bytes(130_000, seed: 2)
        let current = Shared((old, "\"old\""))
        let cut = Shared(true)
        h.server.route("/changing.mp3") { request in
            // A server that ignores If-Range: only the ETag on its 206 tells of the change.
            var plain = request
            plain.headers["if-range"] = nil
            var response = TestHTTPServer.Response.file(current.value.0, for: plain, etag: current.value.1)
            if cut.value { response.stream = .init(pieceBytes: 20_000, interval: 0.001, cutAfter: 60_000) }
            return response
        }
        let id = try h.announce(title: "Changing", path: "/changing.mp3")
        try h.queue.start()
        h.run(until: { h.state(id) == .failed && h.queue.activeCount == 0 })
        #expect(h.record(id)?.bytes == 60_000)
        current.value = (new, "\"new\"")
        cut.value = false
        try h.store.database.run("UPDATE downloads SET next_retry = ?1", .date(Date()))
        h.makeQueue()
        try h.queue.start()
        h.run(until: { h.isSettled(id) && h.state(id) == .done })
        let record = try #require(h.record(id))
        #expect(record.state == .done)
        #expect(h.contents(record.path) == new)
        #expect(record.etag == "\"new\"")
        let ranges = h.server.requests.map { $0.headers["range"] }
        #expect(ranges == [nil, "bytes=60000-", nil])
    }

    /// A run killed with bytes still in the writer's buffer leaves a stored count (167,936) ahead
    /// of the `.part` file (4,096): the next start stores the file's size before anything else
    /// reads it, so the store, the live table's row, the `download_started` event and the
    /// request's Range all say 4,096, and the file completes byte for byte.
    @Test func storedProgressAheadOfThePartFileIsBroughtDownAtStart() throws {
        let h = try DownloadHarness()
        let source = DownloadHarness.bytes(300_000, seed: 5)
        h.server.route("/ahead.mp3") { .file(source, for: $0, etag: "\"a1\"") }
        let id = try h.announce(title: "Ahead", path: "/ahead.mp3")
        let path = try #require(h.record(id)).path
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: path + ".part", contents: Data(source[..<4096]))
        try h.store.database.run(
            "UPDATE downloads SET state = 'downloading', bytes = 167936, total = 300000, etag = '\"a1\"'")
        // A second unfinished download whose part is gone backs nothing: 0. A third whose part is
        // gone but whose final file is there (killed between the rename and its record) keeps it.
        let other = try h.announce(title: "Gone", path: "/gone.mp3")
        let renamed = try h.announce(title: "Renamed", path: "/renamed.mp3")
        for episode in [other, renamed] {
            try h.store.database.run(
                "UPDATE downloads SET state = 'failed', bytes = 5000, next_retry = NULL WHERE episode_id = ?1",
                .integer(episode))
        }
        _ = FileManager.default.createFile(atPath: try #require(h.record(renamed)).path, contents: Data(count: 5000))

        try h.queue.start()
        #expect(h.record(id)?.bytes == 4096)  // before the transfer's own file open reports
        #expect(h.record(other)?.bytes == 0)
        #expect(h.record(renamed)?.bytes == 5000)
        h.run(until: { h.events.contains { $0.kind == .started } })
        #expect(h.events.first { $0.kind == .started }?.bytes == 4096)
        #expect(h.queue.model.active.first { $0.id == id }?.bytes == 4096)
        h.run(until: { h.isSettled(id) })
        #expect(h.record(id)?.state == .done)
        #expect(h.contents(path) == source)
        #expect(h.server.requests.last?.headers["range"] == "bytes=4096-")
    }
}
