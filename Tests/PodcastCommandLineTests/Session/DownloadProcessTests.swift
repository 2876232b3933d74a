import Foundation
import PodcastDaemonTestSupport
import PodcastTestSupport
import XCTest

@testable import PodcastCommandLine
@testable import PodcastStore

/// `run --download` as a child process: killed with SIGKILL mid-download, the next run resumes
/// from the `.part` file with a `Range` request, the file equals the source, and the
/// `downloaded` hook gets `EPISODE_FILE`.
final class DownloadProcessTests: XCTestCase {
    func testKillNineMidDownloadResumesAndTheHookGetsTheFile() throws {
        guard let binary = DaemonProcessTests.binary else {
            throw XCTSkip("podcast-watch binary not built next to the tests")
        }
        let server = try TestHTTPServer()
        defer { server.stop() }
        let dir = TemporaryDirectory("dl-process")
        let source = DownloadHarness.bytes(1_500_000, seed: 11)
        let slow = Shared(true)
        server.route("/ep.mp3") { request in
            var r = TestHTTPServer.Response.file(source, for: request, etag: "\"k9\"")
            if slow.value { r.stream = .init(pieceBytes: 10_000, interval: 0.02) }  // 3 s in all
            return r
        }
        server.route(
            "/feed.xml",
            .ok(
                "<rss version=\"2.0\"><channel><title>Kill Show</title><item><guid>k1</guid><title>Nine</title><pubDate>Tue, 14 Nov 2023 22:13:20 GMT</pubDate><enclosure url=\"\(server.url("/ep.mp3"))\" type=\"audio/mpeg\" length=\"1500000\"/></item></channel></rss>"
            ))
        let media = dir.file("media")
        let hookLog = dir.file("hook.txt")
        let state = dir.file("state")
        XCTAssertEqual(
            CommandRunner(console: CapturedConsole().console()).run(["--state", state, "add", server.url("/feed.xml")]),
            .success)
        let args = [
            "--state", state, "run", "--json", "--download", media, "--hook",
            "printf '%s|%s\\n' \"$HOOK_EVENT\" \"$EPISODE_FILE\" >> '\(hookLog)'", "--hook-on", "downloaded",
        ]
        let path = media + "/Kill Show/2023-11-14 Nine.mp3"

        let first = try DaemonProcessTests.Child(binary, args)
        var partSize = 0
        XCTAssertTrue(
            first.wait {
                partSize = (try? FileManager.default.attributesOfItem(atPath: path + ".part")[.size] as? Int) ?? 0
                return partSize >= 200_000
            }, first.stderr)
        first.signal(SIGKILL)
        _ = first.finish()
        XCTAssertEqual(first.process.terminationStatus, SIGKILL)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
        let kept = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path + ".part")[.size] as? Int)
        XCTAssertGreaterThanOrEqual(kept, partSize)
        XCTAssertLessThan(kept, source.count)

        slow.value = false
        let second = try DaemonProcessTests.Child(binary, args.map { $0 == "--json" ? "--once" : $0 } + ["--json"])
        XCTAssertEqual(second.finish(), 0, second.stderr)
        let started = second.events("download_started")
        XCTAssertEqual(started.count, 1)
        XCTAssertEqual(started.first?["resumed_from"] as? Int, kept)
        XCTAssertEqual(second.events("download_finished").first?["bytes"] as? Int, source.count)
        let resume = try XCTUnwrap(server.requests.last { $0.uri == "/ep.mp3" })
        XCTAssertEqual(resume.headers["range"], "bytes=\(kept)-")
        XCTAssertEqual(resume.headers["if-range"], "\"k9\"")
        let data = try XCTUnwrap(FileManager.default.contents(atPath: path))
        XCTAssertEqual(Self.checksum(Array(data)), Self.checksum(source))
        XCTAssertEqual(Array(data), source)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path + ".part"))
        XCTAssertEqual(try String(contentsOfFile: hookLog, encoding: .utf8), "downloaded|\(path)\n")
    }

    func testSigtermStopsCleanlyAndKeepsThePartForTheNextRun() throws {
        guard let binary = DaemonProcessTests.binary else {
            throw XCTSkip("podcast-watch binary not built next to the tests")
        }
        let server = try TestHTTPServer()
        defer { server.stop() }
        let dir = TemporaryDirectory("dl-term")
        let source = DownloadHarness.bytes(2_000_000, seed: 14)
        server.route("/t.mp3") { request in
            var r = TestHTTPServer.Response.file(source, for: request, etag: "\"t\"")
            r.stream = .init(pieceBytes: 10_000, interval: 0.02)  // 4 s in all
            return r
        }
        server.route(
            "/feed.xml",
            .ok(
                "<rss version=\"2.0\"><channel><title>Term</title><item><guid>t1</guid><title>Stop</title><pubDate>Tue, 14 Nov 2023 22:13:20 GMT</pubDate><enclosure url=\"\(server.url("/t.mp3"))\" type=\"audio/mpeg\"/></item></channel></rss>"
            ))
        let state = dir.file("state")
        XCTAssertEqual(
            CommandRunner(console: CapturedConsole().console()).run(["--state", state, "add", server.url("/feed.xml")]),
            .success)
        let path = dir.file("media") + "/Term/2023-11-14 Stop.mp3"
        let child = try DaemonProcessTests.Child(
            binary, ["--state", state, "run", "--json", "--download", dir.file("media")])
        XCTAssertTrue(
            child.wait {
                ((try? FileManager.default.attributesOfItem(atPath: path + ".part")[.size] as? Int) ?? 0) >= 100_000
            }, child.stderr)
        child.signal(SIGTERM)
        XCTAssertEqual(child.finish(), 0, child.stderr)
        let part = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path + ".part")[.size] as? Int)
        let store = try FeedStore(path: state + "/" + StateLocation.databaseName)
        let record = try XCTUnwrap(try DownloadLedger(store: store).all().first)
        XCTAssertEqual(record.state, .pending)
        XCTAssertEqual(record.bytes, Int64(part), "the store records exactly what the part file holds")
        let data = try XCTUnwrap(FileManager.default.contents(atPath: path + ".part"))
        XCTAssertEqual(Array(data), Array(source[..<part]))
    }

    // FNV-1a, 64 bits: a checksum to compare, printed on failure.
    static func checksum(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes {
            hash ^= UInt64(b)
            hash = hash &* 0x100_0000_01b3
        }
        return hash
    }
}
