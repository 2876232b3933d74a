import Foundation
import Testing

@testable import PodcastCommandLine
@testable import PodcastFeeds
@testable import PodcastStore

/// The download options of `run` and `add`, their config-file keys, OPML's `pw:download` and
/// `pw:keep`, and the `downloads` command.
@Suite struct DownloadCLITests {
    @Test func runOptionsParse() throws {
        let inv = try CommandLineParser.parse([
            "run", "--download", "media", "--download-name", "{title}.{ext}", "--download-jobs", "8",
            "--download-per-host", "3", "--download-rate", "2M", "--keep", "5", "--hook", "true", "--hook-on",
            "new_episode,downloaded",
        ])
        guard case .run(let o) = inv.command else {
            Issue.record("not run")
            return
        }
        #expect(o.downloadDirectory == "media")
        #expect(o.downloadName == "{title}.{ext}")
        #expect(o.downloadJobs == 8)
        #expect(o.downloadPerHost == 3)
        #expect(o.downloadRate == 2 << 20)
        #expect(o.keep == 5)
        #expect(o.hookOn == [.newEpisode, .downloaded])
        #expect(try CommandLineParser.parseRate("500k", command: nil) == 512_000)
        #expect(try CommandLineParser.parseRate("0", command: nil) == 0)
    }

    @Test func badDownloadOptionsAreUsageErrors() {
        for args in [
            ["run", "--download-jobs", "0"], ["run", "--download-rate", "fast"], ["run", "--keep", "-1"],
            ["run", "--download-name", "{x}"], ["run", "--download", ""], ["run", "--hook-on", "downloaded"],
            ["run", "--hook", "true", "--hook-on", "sometimes"], ["add", "http://h/f", "--download", "--no-download"],
            ["add", "http://h/f", "--keep", "0"],
        ] {
            #expect(throws: UsageError.self, "\(args)") { try CommandLineParser.parse(args) }
        }
    }

    @Test func configFileKeys() throws {
        let config = try RunConfig.parse(
            "download = media\ndownload-rate = 1M\nkeep = 3\ndownload-jobs = 2\n", path: "/etc/pw/config")
        #expect(
            config.runTokens == [
                "--download", "/etc/pw/media", "--download-rate", "1M", "--keep", "3", "--download-jobs", "2",
            ])
        #expect(throws: UsageError.self) { try RunConfig.parse("download-rate = lots\n", path: "/c") }
    }

    @Test func addStoresTheFeedsSettingsAndOPMLCarriesThem() throws {
        let state = temporaryDirectory()
        let captured = CapturedConsole()
        let runner = CommandRunner(console: captured.console(), environment: ["HOME": "/nonexistent-home"])
        #expect(
            runner.run(["--state", state, "add", "--no-check", "http://h.example/a.xml", "--download", "--keep", "4"])
                == .success)
        #expect(
            runner.run(["--state", state, "add", "--no-check", "http://h.example/b.xml", "--no-download"]) == .success)
        #expect(runner.run(["--state", state, "add", "--no-check", "http://h.example/c.xml"]) == .success)
        let store = try FeedStore(path: state + "/" + StateLocation.databaseName)
        let ledger = DownloadLedger(store: store)
        #expect(try ledger.settings(feedID: 1) == .init(download: true, keep: 4))
        #expect(try ledger.settings(feedID: 2) == .init(download: false, keep: nil))
        #expect(try ledger.settings(feedID: 3) == .init())

        let export = CapturedConsole()
        #expect(
            CommandRunner(console: export.console(), environment: ["HOME": "/nonexistent-home"])
                .run(["--state", state, "export"]) == .success)
        #expect(export.out.contains("xmlUrl=\"http://h.example/a.xml\" pw:download=\"true\" pw:keep=\"4\"/>"))
        #expect(export.out.contains("xmlUrl=\"http://h.example/b.xml\" pw:download=\"false\"/>"))
        #expect(export.out.contains("xmlUrl=\"http://h.example/c.xml\"/>"))

        let outlines = try OPML.parse(data: Data(export.out.utf8))
        #expect(outlines.map(\.download) == [true, false, nil])
        #expect(outlines.map(\.keep) == [4, nil, nil])

        let other = temporaryDirectory()
        let file = other + "/subs.opml"
        try export.out.write(toFile: file, atomically: true, encoding: .utf8)
        #expect(runner.run(["--state", other, "import", file]) == .success)
        let imported = DownloadLedger(store: try FeedStore(path: other + "/" + StateLocation.databaseName))
        #expect(try imported.settings(feedID: 1) == .init(download: true, keep: 4))
        #expect(try imported.settings(feedID: 2) == .init(download: false, keep: nil))
    }

    @Test func downloadsCommandListsTheLedger() throws {
        let state = temporaryDirectory()
        let store = try FeedStore(path: state + "/" + StateLocation.databaseName)
        let feed = try store.add(url: "http://h.example/a.xml", title: "Show")
        try store.database.run(
            "INSERT INTO episodes (feed_id, identity, title, first_seen) VALUES (?1, 'x', ?2, 0)", .integer(feed.id),
            .text("Ep \u{1B}[2J one"))
        let ledger = DownloadLedger(store: store)
        try ledger.enqueue(
            episodeID: 1, feedID: feed.id, url: "http://user:pw@h.example/e.mp3", total: 2_000_000,
            queued: Date(timeIntervalSince1970: 1_700_000_000), candidate: { state + "/e\($0).mp3" })
        try ledger.markFailed(
            episodeID: 1, error: "HTTP 503", bytes: 1_000_000, nextRetry: Date(timeIntervalSince1970: 1_700_000_060))
        _ = FileManager.default.createFile(atPath: state + "/e1.mp3.part", contents: Data(count: 1_000_000))
        let captured = CapturedConsole()
        let runner = CommandRunner(console: captured.console(), environment: ["HOME": "/nonexistent-home"])
        #expect(runner.run(["--state", state, "downloads"]) == .success)
        #expect(
            captured.out == """
                1  Show: Ep ␛[2J one
                    failed, 1.0 MB of 2.0 MB
                    \(state)/e1.mp3
                    failed 1×: HTTP 503; next attempt 2023-11-14T22:14:20Z

                """)
        let json = CapturedConsole()
        #expect(
            CommandRunner(console: json.console(), environment: ["HOME": "/nonexistent-home"])
                .run(["--state", state, "downloads", "--json"]) == .success)
        #expect(
            json.out
                == "{\"episode_id\":1,\"feed_id\":1,\"podcast_title\":\"Show\",\"episode_title\":\"Ep \\u001b[2J one\",\"url\":\"http://user:***@h.example/e.mp3\",\"path\":\"\(state)/e1.mp3\",\"state\":\"failed\",\"bytes\":1000000,\"total\":2000000,\"attempts\":1,\"error\":\"HTTP 503\",\"next_retry\":\"2023-11-14T22:14:20Z\",\"queued\":\"2023-11-14T22:13:20Z\",\"finished\":null,\"seconds\":null}\n"
        )
    }

    /// A stored count ahead of the `.part` file (SIGKILL during a slow download: 167,936 bytes
    /// stored, 0 on disk) shows what the file holds, which is where the resume starts.
    @Test func downloadsShowsNoMoreThanThePartFileHolds() throws {
        let state = temporaryDirectory()
        let store = try FeedStore(path: state + "/" + StateLocation.databaseName)
        let feed = try store.add(url: "http://h.example/a.xml", title: "Show")
        try store.database.run(
            "INSERT INTO episodes (feed_id, identity, title, first_seen) VALUES (?1, 'x', 'Ep', 0)", .integer(feed.id))
        let ledger = DownloadLedger(store: store)
        try ledger.enqueue(
            episodeID: 1, feedID: feed.id, url: "http://h.example/e.mp3", total: 1_000_000,
            queued: Date(timeIntervalSince1970: 1_700_000_000), candidate: { state + "/e\($0).mp3" })
        try ledger.markDownloading(episodeID: 1, bytes: 0)
        try ledger.noteBytes(episodeID: 1, bytes: 167_936)
        _ = FileManager.default.createFile(atPath: state + "/e1.mp3.part", contents: Data(count: 4096))
        func listed() -> String {
            let captured = CapturedConsole()
            _ = CommandRunner(console: captured.console(), environment: ["HOME": "/nonexistent-home"])
                .run(["--state", state, "downloads", "--json"])
            return captured.out
        }
        #expect(listed().contains("\"state\":\"downloading\",\"bytes\":4096,\"total\":1000000"), "\(listed())")
        _ = FileManager.default.createFile(atPath: state + "/e1.mp3.part", contents: Data())
        #expect(listed().contains("\"bytes\":0,"))
    }

    /// A `.part` deleted after a kill: nothing backs the stored count (167,936), so 0 is shown
    /// and the start's reconcile stores 0; with the final file present instead (killed between
    /// the rename and its record) the stored count stands.
    @Test func aMissingPartFileBacksNothingUnlessTheFinalFileExists() throws {
        let state = temporaryDirectory()
        let store = try FeedStore(path: state + "/" + StateLocation.databaseName)
        let feed = try store.add(url: "http://h.example/a.xml", title: "Show")
        for identity in ["x", "y"] {
            try store.database.run(
                "INSERT INTO episodes (feed_id, identity, title, first_seen) VALUES (?1, ?2, 'Ep', 0)",
                .integer(feed.id), .text(identity))
        }
        let ledger = DownloadLedger(store: store)
        for id: Int64 in [1, 2] {
            try ledger.enqueue(
                episodeID: id, feedID: feed.id, url: "http://h.example/e\(id).mp3", total: 1_000_000,
                queued: Date(timeIntervalSince1970: 1_700_000_000 + Double(id)),
                candidate: { _ in state + "/e\(id).mp3" })
            try ledger.markDownloading(episodeID: id, bytes: 0)
            try ledger.noteBytes(episodeID: id, bytes: 167_936)
        }
        _ = FileManager.default.createFile(atPath: state + "/e2.mp3", contents: Data(count: 167_936))
        #expect(try ledger.record(episodeID: 1)?.bytesOnDisk == 0)
        #expect(try ledger.record(episodeID: 2)?.bytesOnDisk == 167_936)
        let captured = CapturedConsole()
        _ = CommandRunner(console: captured.console(), environment: ["HOME": "/nonexistent-home"])
            .run(["--state", state, "downloads", "--json"])
        let lines = captured.out.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first { $0.contains("\"episode_id\":1,") }?.contains("\"bytes\":0,") == true, "\(lines)")
        #expect(lines.first { $0.contains("\"episode_id\":2,") }?.contains("\"bytes\":167936,") == true, "\(lines)")
        #expect(try ledger.reconcileWithPartFiles() == [1])
        #expect(try ledger.record(episodeID: 1)?.bytes == 0)
        #expect(try ledger.record(episodeID: 2)?.bytes == 167_936)
    }
}
