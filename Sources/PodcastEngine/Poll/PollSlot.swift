import Foundation
import PodcastStore

/// What the poller keeps of one feed between polls: only what polling reads (the URL, the
/// validators, the interval, the failure count, whether it is enabled) and its own bookkeeping.
/// The whole `FeedRecord` (titles, link, image, dates, errors) is read from the store when a
/// poll is applied and handed to the library's row; keeping it here as well cost 0.5–1.1 KB per
/// feed at 100,000 feeds (docs/DESIGN-NOTES.md, "A daemon at 100,000 feeds").
///
/// Strings are kept, not replaced, when a record brings equal ones, so the slot and the
/// library's row share one copy of the URL and no poll reallocates the validators. The host is
/// a number from `HostTable`, not a string per feed. Tokens of a poll in flight live in the
/// daemon's in-flight table, not here: at most `maxConcurrentFetches` of them exist.
struct PollSlot {
    /// The feed's current URL (`FeedRecord.url`).
    private(set) var url: String
    /// `FeedRecord.etag`.
    private(set) var etag: String?
    /// `FeedRecord.lastModified`.
    private(set) var lastModified: String?
    /// `FeedRecord.intervalSeconds` (at most `PollPolicy.maximumIntervalSeconds`).
    private(set) var intervalSeconds: Int32?
    /// The interval the feed's last parsed document asked for (`PollPolicy.hintedInterval`), in
    /// seconds; `nil` when it stated no schedule or has not been parsed in this run.
    var hintedIntervalSeconds: Int32?
    /// `FeedRecord.failureCount`, capped at `Int32.max`.
    private(set) var failureCount: Int32
    /// `FeedRecord.enabled`.
    private(set) var enabled: Bool
    /// The host of `url` in the daemon's `HostTable`; `HostTable.none` for a local file.
    private(set) var host: Int32
    /// Bumped to make pending timers stale (wraps).
    var generation: UInt32 = 0
    /// Bumped per fetch, so a late completion of an abandoned one is ignored (wraps).
    var fetchSerial: UInt32 = 0
    /// The host counted for the poll in flight (`HostTable.none` when none or a local file).
    var fetchHost: Int32 = HostTable.none
    /// Fetching or parsing: the poll is in flight.
    var isFetching = false
    /// Polled once in this run (`once` mode's end).
    var polledOnce = false

    /// The slot of `record`; `hosts` interns its host.
    init(_ record: FeedRecord, hosts: inout HostTable) {
        url = record.url
        host = hosts.intern(url)
        failureCount = 0
        enabled = true
        take(record, hosts: &hosts)
    }

    /// Takes what polling reads from `record` (a fresh read of the same feed), keeping the
    /// strings it already holds when they are equal.
    mutating func take(_ record: FeedRecord, hosts: inout HostTable) {
        if record.url != url {
            url = record.url
            host = hosts.intern(url)
        }
        if record.etag != etag { etag = record.etag }
        if record.lastModified != lastModified { lastModified = record.lastModified }
        intervalSeconds = record.intervalSeconds.map { Int32(clamping: $0) }
        failureCount = Int32(clamping: max(0, record.failureCount))
        enabled = record.enabled
    }
}

/// Hosts (lower-cased host and port, `PodcastDaemon.hostKey`) numbered in the order first seen,
/// with the per-host counters the poller keeps: polls in flight and the queue of due feeds
/// waiting for a free place. Arrays indexed by number, so a poll costs no string hashing and a
/// feed no host string. Hosts are never forgotten (their number is a few bytes).
struct HostTable {
    /// The number of "no host" (a local file).
    static let none: Int32 = -1

    private var numbers: [String: Int32] = [:]
    /// Polls in flight per host.
    var inFlight: [Int] = []
    /// Due feeds over their host's limit, in order (the daemon's `waitingSet` says which are
    /// still wanted).
    var waiting: [FeedQueue] = []

    /// The number of `url`'s host, `none` for a local file or a URL without a host.
    mutating func intern(_ url: String) -> Int32 {
        guard let key = HostTable.key(url) else { return HostTable.none }
        if let number = numbers[key] { return number }
        let number = Int32(inFlight.count)
        numbers[key] = number
        inFlight.append(0)
        waiting.append(FeedQueue())
        return number
    }

    /// The per-host key of a feed URL: lower-cased host and port (`nil` for a local file).
    static func key(_ url: String) -> String? {
        guard case .http = FetchTarget(url), let components = URLComponents(string: url),
            let host = components.host?.lowercased(), !host.isEmpty
        else {
            return nil
        }
        return components.port.map { "\(host):\($0)" } ?? host
    }

    /// Forgets the counters and queues (the daemon stopped); the numbers stay.
    mutating func resetCounters() {
        for i in inFlight.indices {
            inFlight[i] = 0
            waiting[i] = FeedQueue()
        }
    }
}

/// The poller's slots by feed id: a dense array of `PollSlot` and a map from id to position.
///
/// A `[Int64: PollSlot]` keeps every slot in its hash buckets, a power of two at most three
/// quarters full: at 100,000 feeds 262,144 buckets of 96 bytes, 25 MB. Here the buckets hold a
/// 4-byte position (3 MB) and the slots sit in one array of exactly the feeds. Removal moves
/// the last slot into the hole (order is not kept; `ids` sorts when order matters).
struct SlotTable {
    private var positions: [Int64: Int32] = [:]
    private var ids: [Int64] = []
    private var slots: [PollSlot] = []

    /// Feeds with a slot.
    var count: Int { slots.count }

    /// Every feed id with a slot, ascending.
    var sortedIDs: [Int64] { ids.sorted() }

    /// The slot of feed `id`; setting `nil` removes it. O(1) (amortised for inserts).
    subscript(id: Int64) -> PollSlot? {
        get { positions[id].map { slots[Int($0)] } }
        set {
            if let position = positions[id] {
                if let newValue { slots[Int(position)] = newValue } else { remove(at: Int(position)) }
            } else if let newValue {
                positions[id] = Int32(slots.count)
                ids.append(id)
                slots.append(newValue)
            }
        }
    }

    /// Changes feed `id`'s slot in place (no copy of its strings); `false` when it has none.
    @discardableResult
    mutating func update(_ id: Int64, _ change: (inout PollSlot) -> Void) -> Bool {
        guard let position = positions[id] else { return false }
        change(&slots[Int(position)])
        return true
    }

    /// Removes and returns feed `id`'s slot.
    mutating func removeValue(forKey id: Int64) -> PollSlot? {
        guard let position = positions[id] else { return nil }
        let slot = slots[Int(position)]
        remove(at: Int(position))
        return slot
    }

    /// Changes every slot in place.
    mutating func updateAll(_ change: (inout PollSlot) -> Void) {
        for index in slots.indices { change(&slots[index]) }
    }

    private mutating func remove(at position: Int) {
        let id = ids[position]
        let last = slots.count - 1
        if position != last {
            slots[position] = slots[last]
            ids[position] = ids[last]
            positions[ids[position]] = Int32(position)
        }
        slots.removeLast()
        ids.removeLast()
        positions[id] = nil
    }
}
