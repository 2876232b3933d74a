import Foundation
import Testing

@testable import PodcastCommandLine
@testable import PodcastEngine
@testable import PodcastStore

/// `download`, `cancel-download`, `delete-download` and `feed-url` on a state directory, with
/// the store's exact state after each (a running `run` picks the changes up on SIGHUP:
/// `DownloadControlReloadTests`).
@Suite(.serialized) struct DownloadControlCLITests {
    final class State {
        let dir = temporaryDirectory()
        let store: FeedStore
        let ledger: DownloadLedger
        let feedID: Int64

        init() throws {
            store = try FeedStore(path: dir + "/" + StateLocation.databaseName)
            ledger = DownloadLedger(store: store)
            feedID = try store.add(url: "http://h/feed.xml", title: "Show").id
        }

        func episode(_ title: String, url: String? = "http://h/e.mp3") throws -> Int64 {
            try store.database.run(
                "INSERT INTO episodes (feed_id, identity, title, first_seen, enclosure_url) VALUES (?1, ?2, ?3, ?4, ?5)",
                .integer(feedID), .text("id:" + title), .text(title), .real(1_700_000_000), SQLValue(url))
            return store.database.lastInsertRowID
        }

        func queued(_ id: Int64, file: String) throws -> DownloadRecord {
            try #require(
                try ledger.enqueue(
                    episodeID: id, feedID: feedID, url: "http://h/e.mp3", total: nil,
                    queued: Date(timeIntervalSince1970: 1_700_000_000), candidate: { _ in self.dir + "/" + file }))
        }

        func run(_ args: String...) -> (ExitCode, String, String) { runCommand(state: dir, args) }
    }

    @Test func downloadEpisodeQueuesAFailedOneAgainWithItsBytes() throws {
        let s = try State()
        let id = try s.episode("Failed")
        _ = try s.queued(id, file: "f.mp3")
        try s.ledger.markFailed(episodeID: id, error: "HTTP 500", bytes: 700, nextRetry: nil)
        try s.ledger.markFailed(episodeID: id, error: "HTTP 500", bytes: 700, nextRetry: nil)
        let (code, out, _) = s.run("download", "--episode", "\(id)")
        #expect(code == .success)
        #expect(out == "Queued episode \(id) again; a running 'podcast-watch run' starts it on SIGHUP\n")
        let record = try #require(try s.ledger.record(episodeID: id))
        #expect(record.state == .pending)
        #expect(record.attempts == 0)
        #expect(record.error == nil)
        #expect(record.nextRetry == nil)
        #expect(record.bytes == 700)  // the .part is resumed
        #expect(try s.ledger.requests() == [])
    }

    @Test func downloadEpisodeNeverQueuedIsARequestForTheDaemon() throws {
        let s = try State()
        let id = try s.episode("Old")
        let none = try s.episode("No enclosure", url: nil)
        #expect(s.run("download", "--episode", "\(id)").0 == .success)
        #expect(try s.ledger.record(episodeID: id) == nil)
        #expect(try s.ledger.requests() == [id])
        let (code, _, err) = s.run("download", "--episode", "\(none)")
        #expect(code == .feedFailed)
        #expect(err == "podcast-watch: episode #\(none) has no http(s) enclosure to download\n")
        #expect(s.run("download", "--episode", "999").0 == .feedFailed)
        #expect(try s.ledger.requests() == [id])
    }

    @Test func downloadAllAsksForTheBackCatalogueOnly() throws {
        let s = try State()
        let done = try s.episode("Done")
        _ = try s.queued(done, file: "done.mp3")
        try s.ledger.markDone(episodeID: done, bytes: 5, finished: Date(), seconds: 1)
        let a = try s.episode("A")
        let b = try s.episode("B")
        _ = try s.episode("Local", url: "file:///etc/passwd")
        let (code, out, _) = s.run("download", "--id", "\(s.feedID)", "--all")
        #expect(code == .success)
        #expect(
            out == "Asked for 2 episodes of feed #\(s.feedID); a running 'podcast-watch run' starts them on SIGHUP\n")
        #expect(Set(try s.ledger.requests()) == [a, b])
        #expect(try s.ledger.record(episodeID: done)?.state == .done)
        #expect(s.run("download", "--id", "99", "--all").0 == .feedFailed)
    }

    @Test func downloadFailedQueuesEveryFailureAgain() throws {
        let s = try State()
        let ids = try (0..<3).map { try s.episode("E\($0)") }
        for (i, id) in ids.enumerated() { _ = try s.queued(id, file: "e\(i).mp3") }
        try s.ledger.markFailed(episodeID: ids[0], error: "x", bytes: 0, nextRetry: nil)
        try s.ledger.markFailed(episodeID: ids[1], error: "y", bytes: 0, nextRetry: Date().addingTimeInterval(60))
        let (code, out, _) = s.run("download", "--failed")
        #expect(code == .success)
        #expect(out.hasPrefix("Queued 2 failed downloads again"))
        #expect(try ids.map { try s.ledger.record(episodeID: $0)?.state } == [.pending, .pending, .pending])
        #expect(try ids.map { try s.ledger.record(episodeID: $0)?.attempts } == [0, 0, 0])
    }

    @Test func cancelDownloadMarksItCancelledWithoutRetry() throws {
        let s = try State()
        let id = try s.episode("Running")
        _ = try s.queued(id, file: "r.mp3")
        try s.ledger.markDownloading(episodeID: id, bytes: 100)
        #expect(s.run("cancel-download", "--episode", "\(id)").0 == .success)
        let record = try #require(try s.ledger.record(episodeID: id))
        #expect(record.state == .failed)
        #expect(record.error == "cancelled")
        #expect(record.nextRetry == nil)
        #expect(record.bytes == 100)
        let (again, _, err) = s.run("cancel-download", "--episode", "\(id)")
        #expect(again == .feedFailed)
        #expect(err == "podcast-watch: episode #\(id) has no download waiting or running\n")
    }

    @Test func deleteDownloadDeletesOnlyTheFileItWrote() throws {
        let s = try State()
        let id = try s.episode("Done")
        let record = try s.queued(id, file: "done.mp3")
        try Data(repeating: 1, count: 10).write(to: URL(fileURLWithPath: record.path))
        try s.ledger.markDone(episodeID: id, bytes: 10, finished: Date(), seconds: 1)
        let other = try s.episode("Edited")
        let edited = try s.queued(other, file: "edited.mp3")
        try Data(repeating: 1, count: 12).write(to: URL(fileURLWithPath: edited.path))
        try s.ledger.markDone(episodeID: other, bytes: 10, finished: Date(), seconds: 1)

        let (code, out, _) = s.run("delete-download", "--episode", "\(id)")
        #expect(code == .success)
        #expect(out == "Deleted \(record.path)\n")
        #expect(!FileManager.default.fileExists(atPath: record.path))
        #expect(try s.ledger.record(episodeID: id)?.state == .deleted)
        #expect(try s.store.episodeCount(feedID: s.feedID) == 2)
        let (kept, _, err) = s.run("delete-download", "--episode", "\(other)")
        #expect(kept == .feedFailed)
        #expect(err.contains("its size changed (12 bytes, downloaded 10)"))
        #expect(FileManager.default.fileExists(atPath: edited.path))
        #expect(try s.ledger.record(episodeID: other)?.state == .done)
        #expect(s.run("delete-download", "--episode", "\(id)").0 == .feedFailed)
        // Asked for again: queued from zero.
        #expect(s.run("download", "--episode", "\(id)").0 == .success)
        let again = try #require(try s.ledger.record(episodeID: id))
        #expect(again.state == .pending && again.bytes == 0 && again.finished == nil)
    }

    @Test func feedURLPrintsAStableSecretUntilRotated() throws {
        let s = try State()
        let (code, first, _) = s.run("feed-url", "--id", "\(s.feedID)")
        #expect(code == .success)
        #expect(first.hasPrefix("/local/") && first.hasSuffix("/feed.xml\n"))
        #expect(s.run("feed-url", "--id", "\(s.feedID)").1 == first)
        let secret = String(first.dropFirst(7).prefix(64))
        #expect(try s.store.localFeedScope(secret: secret) == s.feedID)
        let (_, rotated, err) = s.run("feed-url", "--id", "\(s.feedID)", "--rotate")
        #expect(rotated != first)
        #expect(err.contains("the old URL no longer works"))
        #expect(try s.store.localFeedScope(secret: secret) == nil)
        let (_, library, _) = s.run("feed-url")
        #expect(library != rotated)
        #expect(try s.store.localFeedScope(secret: String(library.dropFirst(7).prefix(64))) == FeedStore.libraryScope)
        #expect(s.run("feed-url", "--id", "42").0 == .feedFailed)
        // Removing the feed takes its secret with it.
        try s.store.remove(id: s.feedID)
        #expect(try s.store.localFeedScope(secret: String(rotated.dropFirst(7).prefix(64))) == nil)
    }

    @Test func feedURLUsesTheConfigFilesAddressOrPublicOrigin() throws {
        let s = try State()
        func run(_ config: String) throws -> (ExitCode, String, String) {
            let path = s.dir + "/config"
            try Data(config.utf8).write(to: URL(fileURLWithPath: path))
            let captured = CapturedConsole()
            let code = CommandRunner(
                console: captured.console(), environment: ["HOME": "/nonexistent-home", "PODCAST_WATCH_CONFIG": path],
                currentDirectory: s.dir
            ).run(["--state", s.dir, "feed-url"])
            return (code, captured.out, captured.err)
        }
        let secret = try s.store.localFeedSecret(scope: FeedStore.libraryScope)
        let (code, out, err) = try run("http = 0.0.0.0:8080\n")
        #expect(code == .success)
        #expect(out == "http://0.0.0.0:8080/local/\(secret)/feed.xml\n")
        #expect(err.contains("replace 0.0.0.0 with an address of this machine"))
        let (_, proxied, _) = try run("http = 127.0.0.1:8080\nhttp-public-origin = https://pods.example.net\n")
        #expect(proxied == "https://pods.example.net/local/\(secret)/feed.xml\n")
    }

    @Test func usageMistakesAreRefused() {
        for args in [
            ["download"], ["download", "--episode", "1", "--failed"], ["download", "--all"],
            ["download", "--episode", "0"], ["download", "--failed", "--id", "1"], ["cancel-download"],
            ["delete-download", "--episode", "x"], ["feed-url", "--id", "1", "http://h/f"],
        ] {
            #expect(throws: UsageError.self, "\(args)") { try CommandLineParser.parse(args) }
        }
    }
}
