import Foundation
import PodcastDaemonTestSupport
import PodcastTestSupport
import XCTest

@testable import PodcastCommandLine
@testable import PodcastStore
@testable import PodcastWeb

/// The local mirror end to end, in the real binary: two episodes downloaded from a loopback
/// server are served back through their media URLs (whole, in ranges, with validators), the
/// local podcast feed reads back in feedparser and podcastparser with every field the store
/// holds, and a rotated secret stops working at once.
final class LocalFeedProcessTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The test venv's Python (`make test-venv`), or `$PODCAST_WATCH_TEST_PYTHON`.
    static var python: String? {
        let given = ProcessInfo.processInfo.environment["PODCAST_WATCH_TEST_PYTHON"]
        let path = given ?? root.appendingPathComponent(".build/test-venv/bin/python3").path
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }

    func testDownloadedEpisodesAreServedAndTheLocalFeedReadsBackInBothParsers() throws {
        guard let binary = DaemonProcessTests.binary else {
            throw XCTSkip("podcast-watch binary not built next to the tests")
        }
        let server = try TestHTTPServer()
        defer { server.stop() }
        let dir = TemporaryDirectory("local-feed")
        let sources = [DownloadHarness.bytes(300_000, seed: 3), DownloadHarness.bytes(123_457, seed: 5)]
        server.route("/e1.mp3") { .file(sources[0], for: $0, etag: "\"e1\"") }
        server.route("/e2.m4a") { .file(sources[1], for: $0, etag: "\"e2\"") }
        server.route(
            "/feed.xml",
            .ok(
                """
                <rss version="2.0"><channel><title>Mirror &amp; Show</title><link>https://example.com/</link>
                <item><guid>ep-1</guid><title>First &lt;one&gt;</title><pubDate>Tue, 14 Nov 2023 22:13:20 GMT</pubDate>
                <description>&lt;p&gt;Notes &lt;script&gt;alert(1)&lt;/script&gt;&lt;/p&gt;</description>
                <enclosure url="\(server.url("/e1.mp3"))" type="audio/mpeg" length="300000"/></item>
                <item><guid>ep-2</guid><title>Second</title><pubDate>Wed, 15 Nov 2023 08:00:00 GMT</pubDate>
                <enclosure url="\(server.url("/e2.m4a"))" type="audio/mp4" length="1"/></item>
                </channel></rss>
                """))
        let state = dir.file("state")
        let media = dir.file("media")
        XCTAssertEqual(
            CommandRunner(console: CapturedConsole().console()).run(["--state", state, "add", server.url("/feed.xml")]),
            .success)
        let child = try DaemonProcessTests.Child(
            binary, ["--state", state, "run", "--json", "--download", media, "--http", "127.0.0.1:0"])
        defer {
            child.signal(SIGTERM)
            _ = child.finish()
        }
        XCTAssertTrue(child.wait { child.events("download_finished").count == 2 }, child.stderr)
        XCTAssertTrue(child.wait { child.stderr.contains("dashboard at http://127.0.0.1:") })
        let port = try XCTUnwrap(
            child.stderr.components(separatedBy: "dashboard at http://127.0.0.1:").last
                .flatMap { UInt16($0.prefix { $0.isNumber }) })

        // The API names the local feed and each downloaded episode's media URL.
        let feeds = try XCTUnwrap(RawHTTP.send(port: port, "/api/feeds")).json["feeds"] as? [[String: Any]]
        let feedURL = try XCTUnwrap(feeds?.first?["local_feed_url"] as? String)
        let secret = try XCTUnwrap(feedURL.components(separatedBy: "/local/").last?.components(separatedBy: "/").first)
        XCTAssertEqual(feedURL, "http://127.0.0.1:\(port)/local/\(secret)/feed.xml")
        XCTAssertEqual(secret.count, 64)
        let store = try FeedStore(path: state + "/" + StateLocation.databaseName)
        let entries = try store.localFeedEntries(feedID: 1)
        XCTAssertEqual(entries.map(\.episode.guid), ["ep-2", "ep-1"])  // newest first
        let episodes =
            try XCTUnwrap(RawHTTP.send(port: port, "/api/episodes?feed=1")).json["episodes"]
            as? [[String: Any]]
        let mediaURLs = try XCTUnwrap(episodes?.compactMap { $0["media_url"] as? String })
        XCTAssertEqual(
            mediaURLs,
            entries.map { "http://127.0.0.1:\(port)/media/\($0.episode.id)/" + WebDownloads.encode($0.fileName) })

        // Whole, ranged, conditional.
        for (entry, source) in zip(entries, [sources[1], sources[0]]) {
            let path = "/media/\(entry.episode.id)/" + WebDownloads.encode(entry.fileName)
            let whole = try XCTUnwrap(RawHTTP.send(port: port, path))
            XCTAssertEqual(whole.status, 200)
            XCTAssertEqual(whole.body, source)
            XCTAssertEqual(whole.headers["accept-ranges"], "bytes")
            XCTAssertEqual(whole.headers["content-length"], "\(source.count)")
            let etag = try XCTUnwrap(whole.headers["etag"])
            let part = try XCTUnwrap(RawHTTP.send(port: port, path, headers: ["Range": "bytes=1000-1999"]))
            XCTAssertEqual(part.status, 206)
            XCTAssertEqual(part.headers["content-range"], "bytes 1000-1999/\(source.count)")
            XCTAssertEqual(part.body, Array(source[1000..<2000]))
            let tail = try XCTUnwrap(RawHTTP.send(port: port, path, headers: ["Range": "bytes=-10"]))
            XCTAssertEqual(tail.body, Array(source.suffix(10)))
            let beyond = try XCTUnwrap(RawHTTP.send(port: port, path, headers: ["Range": "bytes=\(source.count)-"]))
            XCTAssertEqual(beyond.status, 416)
            XCTAssertEqual(beyond.headers["content-range"], "bytes */\(source.count)")
            let stale = try XCTUnwrap(
                RawHTTP.send(port: port, path, headers: ["Range": "bytes=0-9", "If-Range": "\"other\""]))
            XCTAssertEqual(stale.status, 200)
            XCTAssertEqual(stale.body.count, source.count)
            let fresh = try XCTUnwrap(
                RawHTTP.send(port: port, path, headers: ["Range": "bytes=0-9", "If-Range": etag]))
            XCTAssertEqual(fresh.status, 206)
            XCTAssertEqual(try XCTUnwrap(RawHTTP.send(port: port, path, headers: ["If-None-Match": etag])).status, 304)
            let head = try XCTUnwrap(RawHTTP.send(port: port, path, method: "HEAD"))
            XCTAssertEqual(head.status, 200)
            XCTAssertEqual(head.headers["content-length"], "\(source.count)")
            XCTAssertEqual(head.body, [])
            XCTAssertEqual(
                try XCTUnwrap(RawHTTP.send(port: port, path + ".part")).status, 404, "a .part name is no file")
        }
        XCTAssertEqual(
            entries.map { MediaFile.contentType(declared: $0.episode.enclosure?.mimeType, path: $0.path) },
            ["audio/mp4", "audio/mpeg"])

        // The feed, as podcast apps' parsers read it.
        guard let python = Self.python else {
            throw XCTSkip("no test venv with feedparser and podcastparser: run 'make test-venv'")
        }
        let sourceFiles = try sources.enumerated().map { index, bytes in
            let path = dir.file("source\(index)")
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return path
        }
        let read = try Self.run(
            python,
            [Self.root.appendingPathComponent("Tests/LocalFeed/read_local_feed.py").path, feedURL] + sourceFiles)
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(read.utf8)) as? [String: Any], read)
        XCTAssertEqual(report["status"] as? Int, 200)
        XCTAssertEqual(report["bozo"] as? Bool, false)
        XCTAssertEqual(report["channel_title"] as? String, "Mirror & Show")
        XCTAssertEqual(report["podcastparser_title"] as? String, "Mirror & Show")
        let expected: [[String: AnyHashable]] = entries.map { entry in
            [
                "title": entry.episode.title ?? "", "guid": entry.episode.guid ?? "",
                "url": "http://127.0.0.1:\(port)/local/\(secret)/media/\(entry.episode.id)/"
                    + WebDownloads.encode(entry.fileName),
                "length": Int(entry.bytes),
                "type": MediaFile.contentType(declared: entry.episode.enclosure?.mimeType, path: entry.path),
                "published": Int(entry.episode.published?.timeIntervalSince1970 ?? -1),
            ]
        }
        XCTAssertEqual(expected.map { $0["length"] }, [123_457, 300_000])
        for parser in ["feedparser", "podcastparser"] {
            let items = try XCTUnwrap(report[parser] as? [[String: Any]])
            let got: [[String: AnyHashable]] = items.map { item in
                var row: [String: AnyHashable] = [:]
                for key in ["title", "guid", "url", "type"] { row[key] = item[key] as? String ?? "" }
                row["length"] = item["length"] as? Int ?? -2
                row["published"] = item["published"] as? Int ?? -2
                return row
            }
            XCTAssertEqual(got, expected, parser)
        }
        let hashes = try XCTUnwrap(report["enclosures"] as? [String: [String: Any]])
        let sourceHashes = try XCTUnwrap(report["sources"] as? [String: String])
        for (entry, file) in zip(entries, [sourceFiles[1], sourceFiles[0]]) {
            let url =
                "http://127.0.0.1:\(port)/local/\(secret)/media/\(entry.episode.id)/"
                + WebDownloads.encode(entry.fileName)
            let fetched = try XCTUnwrap(hashes[url])
            XCTAssertEqual(fetched["whole"] as? String, sourceHashes[file])
            XCTAssertEqual(fetched["ranges"] as? String, sourceHashes[file])
            XCTAssertEqual(fetched["statuses"] as? [Int], [200, 206, 206])
        }

        // Rotating the secret: the old feed and media URLs are 404 at once, the new one works.
        let (code, out, _) = runCommand(state: state, ["feed-url", "--id", "1", "--rotate"])
        XCTAssertEqual(code, .success)
        let rotated = try XCTUnwrap(out.split(separator: "\n").first.map(String.init))
        XCTAssertTrue(rotated.hasPrefix("/local/") && rotated.hasSuffix("/feed.xml"), rotated)
        XCTAssertFalse(rotated.contains(secret))
        XCTAssertEqual(try XCTUnwrap(RawHTTP.send(port: port, "/local/\(secret)/feed.xml")).status, 404)
        let oldMedia = "/local/\(secret)/media/\(entries[0].episode.id)/" + WebDownloads.encode(entries[0].fileName)
        XCTAssertEqual(try XCTUnwrap(RawHTTP.send(port: port, oldMedia)).status, 404)
        XCTAssertEqual(try XCTUnwrap(RawHTTP.send(port: port, rotated)).status, 200)
        // Secrets reach neither the JSON lines nor stderr (the journal).
        XCTAssertFalse(child.stdout.contains(secret))
        XCTAssertFalse(child.stderr.contains(secret))
    }

    static func run(_ executable: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
