import Foundation
import LoopScheduler
import PodcastDaemonTestSupport
import PodcastTestSupport
import Testing

@testable import PodcastEngine
@testable import PodcastStore

/// Disk full, an unwritable directory, duplicate names, retention and the store's bookkeeping.
@Suite(.serialized) struct DownloadFailureTests {
    @Test func duplicateTitlesGetNumberedNames() throws {
        let h = try DownloadHarness()
        let a = DownloadHarness.bytes(10_000, seed: 1)
        let b = DownloadHarness.bytes(12_000, seed: 2)
        h.server.route("/a.mp3") { .file(a, for: $0) }
        h.server.route("/b.mp3") { .file(b, for: $0) }
        try h.queue.start()
        let first = try h.announce(title: "Same", path: "/a.mp3")
        let second = try h.announce(title: "Same", path: "/b.mp3")
        // A file the store did not write already has the third candidate's first name.
        let third = try h.announce(title: "Other", path: "/a.mp3")
        h.run(until: { [first, second, third].allSatisfy { h.state($0) == .done } && h.queue.activeCount == 0 })
        let base = h.directory + "/Loopback Radio/2023-11-14 "
        #expect(h.record(first)?.path == base + "Same.mp3")
        #expect(h.record(second)?.path == base + "Same (2).mp3")
        #expect(h.contents(base + "Same.mp3") == a)
        #expect(h.contents(base + "Same (2).mp3") == b)
        #expect(h.record(third)?.path == base + "Other.mp3")
    }

    @Test func someoneElsesFileIsNeverOverwritten() throws {
        let h = try DownloadHarness()
        let data = DownloadHarness.bytes(5_000)
        h.server.route("/x.mp3") { .file(data, for: $0) }
        let folder = h.directory + "/Loopback Radio"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let mine = Data("the user's own file".utf8)
        _ = FileManager.default.createFile(atPath: folder + "/2023-11-14 Taken.mp3", contents: mine)
        _ = FileManager.default.createFile(atPath: folder + "/2023-11-14 Taken (2).mp3", contents: mine)
        let id = try h.announce(title: "Taken", path: "/x.mp3")
        try h.queue.start()
        h.run(until: { h.state(id) == .done && h.queue.activeCount == 0 })
        #expect(FileManager.default.contents(atPath: folder + "/2023-11-14 Taken.mp3") == mine)
        #expect(FileManager.default.contents(atPath: folder + "/2023-11-14 Taken (2).mp3") == mine)
        #expect(h.record(id)?.path == folder + "/2023-11-14 Taken (3).mp3")
        #expect(h.contents(folder + "/2023-11-14 Taken (3).mp3") == data)
    }

    @Test func foreignPartFileIsNeverAdopted() throws {
        let h = try DownloadHarness()
        let data = DownloadHarness.bytes(6_000, seed: 4)
        h.server.route("/f.mp3") { .file(data, for: $0, etag: "\"f\"") }
        let folder = h.directory + "/Loopback Radio"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // Left by another state dir or a deleted store: this store never wrote it.
        let foreign = Data("someone else's bytes".utf8)
        _ = FileManager.default.createFile(atPath: folder + "/2023-11-14 Foreign.mp3.part", contents: foreign)
        let id = try h.announce(title: "Foreign", path: "/f.mp3", length: 6_000)
        try h.queue.start()
        h.run(until: { h.state(id) == .done && h.queue.activeCount == 0 })
        #expect(h.record(id)?.path == folder + "/2023-11-14 Foreign (2).mp3")
        #expect(h.contents(folder + "/2023-11-14 Foreign (2).mp3") == data)
        #expect(FileManager.default.contents(atPath: folder + "/2023-11-14 Foreign.mp3.part") == foreign)
        #expect(h.server.requests.map { $0.headers["range"] } == [nil])
    }

    @Test func foreignFinalFileOfTheRightSizeIsNotMarkedDone() throws {
        let h = try DownloadHarness()
        let data = DownloadHarness.bytes(20, seed: 6)
        h.server.route("/g.mp3") { .file(data, for: $0) }
        let folder = h.directory + "/Loopback Radio"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let foreign = Data("twenty foreign bytes".utf8)
        _ = FileManager.default.createFile(atPath: folder + "/2023-11-14 Sized.mp3", contents: foreign)
        let id = try h.announce(title: "Sized", path: "/g.mp3", length: 20)
        try h.queue.start()
        h.run(until: { h.state(id) == .done && h.queue.activeCount == 0 })
        #expect(h.record(id)?.path == folder + "/2023-11-14 Sized (2).mp3")
        #expect(h.contents(folder + "/2023-11-14 Sized (2).mp3") == data)
        #expect(FileManager.default.contents(atPath: folder + "/2023-11-14 Sized.mp3") == foreign)
    }

    @Test func oneDownloadsNameIsNeverAnothersPartFile() throws {
        let h = try DownloadHarness()
        let ledger = DownloadLedger(store: h.store)
        let a = try h.announce(title: "A", path: "/a.mp3")
        let pathA = try #require(h.record(a)?.path)
        // Another episode whose name would be A's part file gets the next name, and back.
        let b = try h.announce(title: "B", path: "/b.mp3")
        #expect(try ledger.isTaken(pathA + ".part", except: b))
        #expect(try ledger.isTaken(pathA, except: b))
        #expect(try !ledger.isTaken(pathA, except: a))
        try h.store.database.run("DELETE FROM downloads WHERE episode_id = ?1", .integer(b))
        let queued = try ledger.enqueue(
            episodeID: b, feedID: h.feedID, url: "http://x/b.mp3.part", total: nil, queued: Date(),
            candidate: { DownloadNaming.numbered(pathA + ".part", $0) })
        #expect(queued?.path == DownloadNaming.numbered(pathA + ".part", 2))
        // An enclosure named `.part` never gets that extension.
        #expect(DownloadNaming.fileExtension(url: "http://x/ep.mp3.part", mimeType: "audio/mpeg") == "mp3")
        #expect(DownloadNaming.fileExtension(url: "http://x/ep.PART", mimeType: nil) == "bin")
    }

    @Test func idleWaitsForRetentionToFinish() throws {
        let h = try DownloadHarness { $0.keep = 1 }
        let data = DownloadHarness.bytes(3_000, seed: 8)
        for name in ["r1", "r2", "r3"] { h.server.route("/\(name).mp3") { .file(data, for: $0) } }
        let ids = try ["r1", "r2", "r3"].map { (name: String) in try h.announce(title: name, path: "/\(name).mp3") }
        // What `run --once` sees when it is told it may exit: the store and the disk must agree.
        var atIdle: [(DownloadRecord.State?, Bool)]?
        h.queue.onIdle = {
            guard atIdle == nil else { return }
            atIdle = ids.map { id in
                let record = h.record(id)
                return (record?.state, record.map { FileManager.default.fileExists(atPath: $0.path) } ?? false)
            }
        }
        try h.queue.start()
        h.run(until: { atIdle != nil })
        let seen = try #require(atIdle)
        #expect(seen.filter { $0.0 == .done }.count == 1)
        #expect(seen.filter { $0.0 == .deleted }.count == 2)
        #expect(seen.allSatisfy { ($0.0 == .done) == $0.1 })
        #expect(!h.queue.isBusy)
    }

    @Test func removingTheFeedCancelsItsDownloadAndDeletesThePart() throws {
        let h = try DownloadHarness()
        let source = DownloadHarness.bytes(2_000_000, seed: 2)
        h.server.route("/slow.mp3") { request in
            var response = TestHTTPServer.Response.file(source, for: request, etag: "\"s\"")
            response.stream = .init(pieceBytes: 10_000, interval: 0.01)
            return response
        }
        let id = try h.announce(title: "Slow", path: "/slow.mp3")
        let path = try #require(h.record(id)?.path)
        try h.queue.start()
        h.run(until: { (h.events.last?.kind == .started) && FileManager.default.fileExists(atPath: path + ".part") })
        #expect(h.queue.activeCount == 1)
        // `remove` (another process) then SIGHUP: the row went with the feed.
        try h.store.database.run("DELETE FROM feeds WHERE id = ?1", .integer(h.feedID))
        h.queue.reloadSettings()
        #expect(h.queue.activeCount == 0)
        #expect(!h.queue.isBusy)
        h.run(until: { !FileManager.default.fileExists(atPath: path + ".part") })
        #expect(!FileManager.default.fileExists(atPath: path + ".part"))
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(h.events.map(\.kind) == [.started])
    }

    @Test func unwritableDirectoryFailsClearlyAndPollingGoesOn() throws {
        let h = try DownloadHarness()
        h.server.route("/x.mp3") { .file(DownloadHarness.bytes(1000), for: $0) }
        // A file where the directory should be: mkdir cannot succeed (root or not).
        _ = FileManager.default.createFile(atPath: h.directory, contents: Data("x".utf8))
        let id = try h.announce(title: "Nowhere", path: "/x.mp3")
        try h.queue.start()
        h.run(until: { h.state(id) == .failed && h.queue.activeCount == 0 })
        let record = try #require(h.record(id))
        #expect(record.error == "\(h.directory) is not a directory")
        #expect(record.nextRetry != nil)
        #expect(h.events.map(\.kind) == [.failed])
        #expect(h.server.requestCount("/x.mp3") == 0)
    }

    @Test func diskFullFailsThatDownloadAndKeepsThePart() throws {
        let mount = TemporaryDirectory("pw-tmpfs")
        guard DiskFull.mount(mount.path, kilobytes: 256) else {
            // Not root, or no mount permission (a container): said plainly, not passed silently.
            print("DownloadFailureTests.diskFull: SKIPPED: cannot mount a 256 kB tmpfs at \(mount.path)")
            return
        }
        defer { DiskFull.unmount(mount.path) }
        let h = try DownloadHarness { $0.directory = mount.path + "/media" }
        let big = DownloadHarness.bytes(600_000, seed: 8)
        let small = DownloadHarness.bytes(20_000, seed: 9)
        h.server.route("/big.mp3") { .file(big, for: $0, etag: "\"b\"") }
        h.server.route("/small.mp3") { .file(small, for: $0) }
        try h.queue.start()
        let id = try h.announce(title: "Big", path: "/big.mp3")
        h.run(until: { h.state(id) == .failed && h.queue.activeCount == 0 })
        let record = try #require(h.record(id))
        // Refused before the disk fills: its Content-Length does not fit with the headroom
        // (DiskHeadroomTests has the rules); retried later, as a full disk was.
        #expect(record.error?.hasPrefix("not enough free space for \(record.path).part: ") == true)
        #expect(record.nextRetry != nil)
        let part = h.contents(record.path + ".part") ?? []
        #expect(part == Array(big[..<part.count]))  // whatever was written is a clean prefix
        #expect(record.bytes == Int64(part.count))
        #expect(h.events.last?.kind == .failed)

        // The queue goes on: room made, the next download succeeds.
        try? FileManager.default.removeItem(atPath: record.path + ".part")
        let other = try h.announce(title: "Small", path: "/small.mp3")
        h.run(until: { h.state(other) == .done && h.queue.activeCount == 0 })
        #expect(h.contents(h.record(other)!.path) == small)
    }

    @Test func retentionDeletesOnlyTheStoresOldestFiles() throws {
        let h = try DownloadHarness { $0.keep = 2 }
        var ids: [Int64] = []
        try h.queue.start()
        let folder = h.directory + "/Loopback Radio"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let foreign = folder + "/2023-01-01 mine.mp3"
        _ = FileManager.default.createFile(atPath: foreign, contents: Data("keep me".utf8))
        for i in 0..<4 {
            let data = DownloadHarness.bytes(3_000 + i, seed: UInt8(i))
            h.server.route("/r\(i).mp3") { .file(data, for: $0) }
            ids.append(try h.announce(title: "R\(i)", path: "/r\(i).mp3"))
            h.run(until: { h.state(ids[i]) == .done && h.queue.activeCount == 0 })
            if i == 1 {
                // The user edits the oldest file: retention must leave it alone.
                try Data("edited".utf8).write(to: URL(fileURLWithPath: h.record(ids[0])!.path))
            }
        }
        h.run(until: { h.state(ids[1]) == .deleted }, seconds: 5)
        #expect(ids.map { h.state($0) } == [.deleted, .deleted, .done, .done])
        #expect(FileManager.default.fileExists(atPath: h.record(ids[0])!.path))  // edited: kept
        #expect(!FileManager.default.fileExists(atPath: h.record(ids[1])!.path))
        #expect(FileManager.default.fileExists(atPath: h.record(ids[2])!.path))
        #expect(FileManager.default.fileExists(atPath: h.record(ids[3])!.path))
        #expect(FileManager.default.contents(atPath: foreign) == Data("keep me".utf8))
        #expect(h.warnings.count == 1)
        #expect(h.warnings.first?.contains("its size changed") == true)
    }

    @Test func permanentErrorsGiveUpAfterThreeAttempts() throws {
        let h = try DownloadHarness()
        h.server.route("/gone.mp3", .status(404, "no"))
        let id = try h.announce(title: "Gone", path: "/gone.mp3")
        try h.queue.start()
        for attempt in 1...3 {
            h.run(until: { h.record(id)?.attempts == attempt && h.queue.activeCount == 0 })
            try h.store.database.run(
                "UPDATE downloads SET next_retry = ?1 WHERE next_retry IS NOT NULL", .date(Date()))
            h.makeQueue()
            try h.queue.start()
        }
        let record = try #require(h.record(id))
        #expect(record.state == .failed)
        #expect(record.attempts == 3)
        #expect(record.nextRetry == nil)
        #expect(record.error == "HTTP 404 Not Found")
        #expect(h.server.requestCount("/gone.mp3") == 3)
        // Given up with no byte: no empty part file is left behind.
        #expect(!FileManager.default.fileExists(atPath: record.path + ".part"))
    }
}

/// Mounts a small tmpfs (root only) so a write fails with ENOSPC.
enum DiskFull {
    static func mount(_ path: String, kilobytes: Int) -> Bool {
        run(["/bin/mount", "-t", "tmpfs", "-o", "size=\(kilobytes)k", "tmpfs", path]) == 0
    }

    static func unmount(_ path: String) {
        _ = run(["/bin/umount", path])
    }

    private static func run(_ argv: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: argv[0])
        process.arguments = Array(argv.dropFirst())
        process.standardError = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        do { try process.run() } catch { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
