/// Something an event stream can be written to: `HTTPStream` in the server, a recorder in tests.
public protocol SSEClient: AnyObject {
    /// `false` once the client is gone.
    var isOpen: Bool { get }
    /// Bytes written but not yet taken by the client.
    var pendingBytes: Int { get }
    /// How many unsent bytes beyond the last snapshot the client may have and still count as
    /// keeping up (`HTTPLimits.streamBufferBytes`); past it nothing more is written until it drains.
    var bufferLimit: Int { get }
    /// Called when everything written reached the socket.
    var onDrained: (() -> Void)? { get set }
    /// Called once when the client is gone.
    var onClose: (() -> Void)? { get set }
    /// Appends `text` to the stream.
    func write(_ text: String)
}

extension HTTPStream: SSEClient {}

/// The Server-Sent Events clients of the dashboard (WHATWG HTML, "Server-sent events"): every
/// client gets the full state when it connects, then one `update` event per loop iteration in
/// which something changed (built once by `WebView` and written to every client).
///
/// A client that reads slowly is never queued for: once its unsent bytes, not counting what is
/// still unread of the last snapshot it was sent, exceed its buffer bound (a snapshot of a large
/// library is far over the bound, and a client just given one is not behind: only what queues
/// after it counts, and once it has read the snapshot nothing of it is forgiven) it is skipped
/// and marked stale; when it drains it gets one `snapshot` event with the state as it is *then*
/// (replace, don't queue). A client still holding part of an unread snapshot is never sent
/// another by `resync()`: it is marked stale instead. So memory per client is bounded by the
/// bound, one snapshot and one event, however long it stalls (the server's stream timeout drops
/// it for good).
///
/// Threading: the loop's thread only.
public final class SSEHub {
    private final class Entry {
        let client: any SSEClient
        var stale = false
        /// The size of the last snapshot event written to it, in bytes.
        var snapshotBytes = 0
        /// Bytes written to it since its last snapshot ended.
        var writtenSinceSnapshot = 0
        init(_ client: any SSEClient) { self.client = client }
        /// How much of its last snapshot it has not read yet: what is pending beyond the bytes
        /// written after the snapshot, at most the snapshot's size.
        var unreadSnapshotBytes: Int {
            min(snapshotBytes, max(0, client.pendingBytes - writtenSinceSnapshot))
        }
        /// Behind: more unsent than the bound, not counting the unread part of its last snapshot.
        var isBehind: Bool { client.pendingBytes - unreadSnapshotBytes > client.bufferLimit }
        func write(_ text: String) {
            writtenSinceSnapshot += text.utf8.count
            client.write(text)
        }
        func writeSnapshot(_ event: String) {
            snapshotBytes = event.utf8.count
            writtenSinceSnapshot = 0
            client.write(event)
        }
    }
    private var entries: [ObjectIdentifier: Entry] = [:]
    private var order: [ObjectIdentifier] = []
    /// Builds the current full state (the `snapshot` event's data: one line of JSON).
    public var snapshot: () -> String
    /// `update` events published (each went to every client that was keeping up).
    public private(set) var publishedCount = 0
    /// `snapshot` events sent (on connect and to clients that caught up).
    public private(set) var snapshotCount = 0
    /// Times an update was not written to a client because it was backed up.
    public private(set) var skippedCount = 0
    private var version = 0

    /// A hub whose snapshots come from `snapshot`.
    public init(snapshot: @escaping () -> String) {
        self.snapshot = snapshot
    }

    /// Clients connected now.
    public var clientCount: Int { entries.count }

    /// Adds `client` and sends it a snapshot at once (a `retry` hint first).
    public func add(_ client: any SSEClient) {
        let key = ObjectIdentifier(client)
        let entry = Entry(client)
        entries[key] = entry
        order.append(key)
        client.onClose = { [weak self] in self?.remove(key) }
        client.onDrained = { [weak self, weak entry] in
            guard let self, let entry, entry.stale, entry.client.isOpen, !entry.isBehind else { return }
            entry.stale = false
            self.sendSnapshot(to: entry)
        }
        client.write("retry: 2000\n\n")
        sendSnapshot(to: entry)
    }

    /// Writes one `update` event with `data` (one line of JSON) to every client keeping up;
    /// backed-up clients are marked stale instead (see the type's doc).
    public func publish(_ data: String) {
        version += 1
        publishedCount += 1
        let event = "event: update\nid: \(version)\ndata: \(data)\n\n"
        for key in order {
            guard let entry = entries[key], entry.client.isOpen else { continue }
            if entry.stale { continue }
            if entry.isBehind {
                entry.stale = true
                skippedCount += 1
                continue
            }
            entry.write(event)
        }
    }

    /// One `snapshot` event (the full state, built once) to every client keeping up, instead of
    /// an `update`: for a change too wide to describe as one (`WebView` when the library's change
    /// log no longer reaches back). Backed-up clients, and clients that have not finished reading
    /// their last snapshot, are marked stale instead: they get one when they drain.
    public func resync() {
        version += 1
        snapshotCount += 1
        let event = "event: snapshot\nid: \(version)\ndata: \(snapshot())\n\n"
        for key in order {
            guard let entry = entries[key], entry.client.isOpen, !entry.stale else { continue }
            if entry.isBehind || entry.unreadSnapshotBytes > 0 {
                entry.stale = true
                skippedCount += 1
                continue
            }
            entry.writeSnapshot(event)
        }
    }

    /// A comment line to every client keeping up, so proxies and the server's stream timeout
    /// see traffic on a quiet dashboard.
    public func heartbeat() {
        for key in order {
            guard let entry = entries[key], entry.client.isOpen, !entry.stale, !entry.isBehind else {
                continue
            }
            entry.write(": keep-alive\n\n")
        }
    }

    private func sendSnapshot(to entry: Entry) {
        version += 1
        snapshotCount += 1
        entry.writeSnapshot("event: snapshot\nid: \(version)\ndata: \(snapshot())\n\n")
    }

    private func remove(_ key: ObjectIdentifier) {
        guard entries.removeValue(forKey: key) != nil else { return }
        order.removeAll { $0 == key }
    }
}
