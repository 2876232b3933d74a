import Foundation
import LoopScheduler
import PodcastDaemonTestSupport
import PodcastTestSupport
import Testing

@testable import PodcastEngine
@testable import PodcastFeeds
@testable import PodcastStore

/// One rule for a declared length the server does not confirm: an enclosure whose feed length
/// is wrong, served without a Content-Length, was refused on its first attempt ("has N bytes
/// where the server announced L") and accepted on the retry (a restart had dropped the length).
/// The server's framing decides, on every attempt; its own length is still checked.
@Suite(.serialized) struct DeclaredLengthRuleTests {
    @Test func aWrongDeclaredLengthWithoutAServerLengthIsAccepted() throws {
        let h = try DownloadHarness()
        let data = DownloadHarness.bytes(7_000, seed: 5)
        h.server.route("/w.mp3") { _ in TestHTTPServer.Response(status: 200, body: data, chunked: true) }
        try h.queue.start()
        let id = try h.announce(title: "Wrong", path: "/w.mp3", length: 5_000)
        h.run(until: { h.isSettled(id) })
        let record = try #require(h.record(id))
        #expect(record.state == .done, "\(record.error ?? "")")
        #expect(record.attempts == 0)
        #expect(record.bytes == 7_000 && record.total == 7_000)
        #expect(h.contents(record.path) == data)
        // A server's own length is still a completeness test: announced 7,000, sent 6,000.
        h.server.route("/cut.mp3") { _ in
            TestHTTPServer.Response(
                status: 200, body: data, stream: .init(pieceBytes: 1_000, interval: 0.001, cutAfter: 6_000))
        }
        let cut = try h.announce(title: "Cut", path: "/cut.mp3", length: 7_000)
        h.run(until: { h.isSettled(cut) })
        #expect(h.state(cut) == .failed)
        #expect(h.record(cut)?.nextRetry != nil)  // a network failure: retried
    }
}
