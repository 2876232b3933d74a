import Foundation
import PodcastDaemonTestSupport
import XCTest

/// `run` whose stdout is a pipe nobody reads: the loop must keep handling signals and polling,
/// and SIGTERM must end it promptly with what was not written left pending.
extension DaemonProcessTests {
    func testUnreadPipeDoesNotFreezeSignalsAndLeavesUnwrittenAnnouncementsPending() throws {
        guard let binary = Self.binary else { throw XCTSkip("podcast-watch binary not built next to the tests") }
        let padding = String(repeating: "x", count: 1500)  // 250 lines of ~1.7 kB: far beyond a pipe's 64 kB
        var allGuids = Set<String>()
        try withStore { store in
            for feed in 1...50 {
                let guids = (1...5).map { "f\(feed)-\($0)" }
                allGuids.formUnion(guids)
                let items = guids.map { "<item><guid>\($0)</guid><title>\(padding)</title></item>" }.joined()
                server.route(
                    "/\(feed)",
                    .ok(
                        "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>S\(feed)</title>\(items)</channel></rss>"
                    ))
                try store.add(url: server.url("/\(feed)"))
            }
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["--state", dir.path, "run", "--first-sync-announce", "5", "--json"]
        let out = Pipe()  // read only after the child is gone
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        try out.fileHandleForWriting.close()
        defer { if process.isRunning { process.terminate() } }
        func wait(_ condition: () -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(20)
            while !condition() {
                if Date() > deadline { return false }
                usleep(5_000)
            }
            return true
        }
        XCTAssertTrue(wait { (1...50).allSatisfy { self.server.requestCount("/\($0)") == 1 } })
        // Every first poll committed (parsed on a worker, then stored): SIGUSR1 leaves a poll
        // still in flight alone, so it must come after them.
        XCTAssertTrue(wait { ((try? self.withStore { try $0.feeds() }) ?? []).allSatisfy { $0.lastCheck != nil } })
        // Output is stalled; SIGUSR1 must still poll every feed again.
        kill(process.processIdentifier, SIGUSR1)
        XCTAssertTrue(wait { (1...50).allSatisfy { self.server.requestCount("/\($0)") == 2 } })
        kill(process.processIdentifier, SIGTERM)
        guard wait({ !process.isRunning }) else { return XCTFail("SIGTERM ignored: the daemon is stuck") }
        XCTAssertEqual(process.terminationStatus, 0)

        let written = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let writtenGuids = written.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            .compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            .compactMap { $0["episode_guid"] as? String }
        let pending = try pendingGuids()
        XCTAssertFalse(pending.isEmpty)
        XCTAssertLessThan(writtenGuids.count, 250)
        // Every announcement was either written whole or is still pending (at least once).
        XCTAssertEqual(pending.union(writtenGuids), allGuids)
        XCTAssertGreaterThanOrEqual(pending.count, 250 - writtenGuids.count)
    }
}
