import Foundation
import PodcastDaemonTestSupport
import Testing

@testable import PodcastWeb

/// An SSE client with a byte-counted send buffer, drained by `read`: what a socket does.
private final class BufferedSSEClient: SSEClient {
    var isOpen = true
    let bufferLimit = 64 * 1024
    private(set) var pendingBytes = 0
    var onDrained: (() -> Void)?
    var onClose: (() -> Void)?
    private(set) var names: [String] = []

    func write(_ text: String) {
        pendingBytes += text.utf8.count
        if let line = text.split(separator: "\n").first, line.hasPrefix("event: ") {
            names.append(String(line.dropFirst(7)))
        }
    }

    /// The client takes up to `bytes`; `onDrained` when nothing is left, as libevent's callback.
    func read(_ bytes: Int) {
        guard pendingBytes > 0 else { return }
        pendingBytes = max(0, pendingBytes - bytes)
        if pendingBytes == 0 { onDrained?() }
    }
}

/// Issue: with 4,000+ feeds each snapshot was over the 64 KiB bound by itself, so a client
/// just given one counted as behind and got another, again and again.
@Suite struct SSEHubBacklogTests {
    /// 5,000 feeds' snapshot (~750 KB); 100 updates of 200 bytes, one per loop iteration, while
    /// the client reads 64 KiB per iteration: one snapshot, every update.
    @Test func aClientReadingAtSpeedGetsOneSnapshotForALargeLibrary() {
        let feed = "{\"id\":1,\"status\":\"ok\",\"url\":\"" + String(repeating: "u", count: 120) + "\"},"
        let hub = SSEHub(snapshot: { "{\"feeds\":[" + String(repeating: feed, count: 5_000) + "]}" })
        let client = BufferedSSEClient()
        hub.add(client)
        #expect(client.pendingBytes > 5_000 * 150)
        let update = "{\"feeds\":[" + String(repeating: "x", count: 180) + "]}"
        for _ in 0..<100 {
            hub.publish(update)
            client.read(64 * 1024)
        }
        #expect(client.names == ["snapshot"] + Array(repeating: "update", count: 100))
        #expect(hub.snapshotCount == 1)
        #expect(hub.skippedCount == 0)
    }

    /// A client that stops reading after its snapshot is still cut off once 64 KiB more queued
    /// behind it, and gets one fresh snapshot (not the missed updates) when it catches up.
    @Test func aClientThatStopsReadingIsCutOffAndGetsOneSnapshotWhenItDrains() {
        let hub = SSEHub(snapshot: { "{\"feeds\":[" + String(repeating: "f", count: 100_000) + "]}" })
        let client = BufferedSSEClient()
        hub.add(client)
        let update = String(repeating: "x", count: 1_000)  // 1,028 or 1,029 bytes as an event
        for _ in 0..<100 { hub.publish(update) }
        // 64 updates are written (with the 13-byte retry hint, 65,861 bytes behind the snapshot):
        // the 65th finds more than 64 KiB queued after the snapshot, and the client is cut off.
        #expect(client.names == ["snapshot"] + Array(repeating: "update", count: 64))
        #expect(hub.skippedCount == 1)
        client.read(Int.max)
        #expect(client.names == ["snapshot"] + Array(repeating: "update", count: 64) + ["snapshot"])
        hub.publish(update)
        #expect(client.names.last == "update")
        #expect(hub.snapshotCount == 2)
    }

    /// Review: the whole snapshot's size was forgiven even after the client had read it, so a
    /// client past a 2 MB snapshot could queue 2 MB of stale updates before it counted as behind.
    @Test func aSnapshotAlreadyReadIsNotForgivenAgain() {
        let hub = SSEHub(snapshot: { String(repeating: "s", count: 2_000_000) })
        let client = BufferedSSEClient()
        hub.add(client)
        client.read(Int.max)
        let update = String(repeating: "x", count: 1_000)
        var most = 0
        for _ in 0..<3_000 {
            hub.publish(update)
            most = max(most, client.pendingBytes)
        }
        #expect(most <= 64 * 1024 + 1_030)
        #expect(hub.skippedCount == 1)
        #expect(client.names == ["snapshot"] + Array(repeating: "update", count: 64))
        client.read(Int.max)
        #expect(client.names == ["snapshot"] + Array(repeating: "update", count: 64) + ["snapshot"])
        #expect(hub.snapshotCount == 2)
    }

    /// Review: `resync()` queued a second (third...) snapshot on top of an unread one, so a
    /// client that never read held three 60 KB snapshots; it now holds one and gets a fresh one
    /// when it drains.
    @Test func resyncQueuesNoSnapshotOnTopOfAnUnreadOne() {
        let hub = SSEHub(snapshot: { String(repeating: "s", count: 60_000) })
        let client = BufferedSSEClient()
        hub.add(client)
        let first = client.pendingBytes
        hub.resync()
        hub.resync()
        hub.resync()
        #expect(client.names == ["snapshot"])
        #expect(client.pendingBytes == first)
        #expect(hub.skippedCount == 1)
        hub.publish("{}")
        #expect(client.names == ["snapshot"])
        client.read(Int.max)
        #expect(client.names == ["snapshot", "snapshot"])
        hub.resync()
        #expect(client.names == ["snapshot", "snapshot"])
        client.read(Int.max)
        #expect(client.names == ["snapshot", "snapshot", "snapshot"])
    }
}
