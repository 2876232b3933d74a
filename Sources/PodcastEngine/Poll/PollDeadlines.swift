import LoopScheduler

/// The poller's timers: every feed's next poll and every parse's budget, as plain entries of one
/// binary min-heap ordered by (deadline, order queued), served by a single scheduler timer armed
/// for the earliest entry.
///
/// A scheduler timer per feed cost a timer object and a closure (about 150 B) for each of
/// 100,000 feeds, and a parse budget's one-shot timer kept its feed's whole response alive for
/// the budget's 10 s (thousands of bodies at once in a busy cycle). An entry here is 32 B and
/// holds no closure. Entries are never removed early: a superseded one is recognised when it
/// comes due by its `stamp` (the slot's generation or fetch serial) and skipped. Once stale
/// entries could outnumber live ones the heap is rebuilt without them (`compact`), so it stays
/// O(feeds).
///
/// Same-deadline entries come out in the order they were queued, as separate one-shot timers
/// did. Loop thread only, as the daemon.
struct PollDeadlines {
    /// What a deadline is for.
    enum Kind: UInt8 {
        /// Poll the feed (`stamp`: the slot's generation when scheduled).
        case poll
        /// The feed's parse ran out of budget (`stamp`: the fetch serial).
        case parseBudget
    }

    /// One deadline.
    struct Entry {
        var deadline: MonotonicInstant
        var order: UInt64
        var id: Int64
        var stamp: UInt32
        var kind: Kind

        func precedes(_ other: Entry) -> Bool {
            deadline != other.deadline ? deadline < other.deadline : order < other.order
        }
    }

    private var heap: [Entry] = []
    private var nextOrder: UInt64 = 0

    /// Entries queued (live and superseded).
    var count: Int { heap.count }

    /// The earliest deadline, `nil` when empty.
    var earliest: MonotonicInstant? { heap.first?.deadline }

    /// Queues a deadline. O(log n).
    mutating func push(_ deadline: MonotonicInstant, id: Int64, stamp: UInt32, kind: Kind) {
        heap.append(Entry(deadline: deadline, order: nextOrder, id: id, stamp: stamp, kind: kind))
        nextOrder &+= 1
        siftUp(heap.count - 1)
    }

    /// Takes the earliest entry if it is due at `now`. O(log n).
    mutating func popDue(at now: MonotonicInstant) -> Entry? {
        guard let first = heap.first, first.deadline <= now else { return nil }
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            siftDown(0)
        }
        return first
    }

    /// Drops every entry `isLive` rejects and rebuilds the heap (O(n)); the order of the rest
    /// is kept.
    mutating func compact(keeping isLive: (Entry) -> Bool) {
        heap.removeAll { !isLive($0) }
        var index = heap.count / 2
        while index > 0 {
            index -= 1
            siftDown(index)
        }
    }

    /// Forgets every entry.
    mutating func removeAll() {
        heap.removeAll()
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        let entry = heap[child]
        while child > 0 {
            let parent = (child - 1) / 2
            guard entry.precedes(heap[parent]) else { break }
            heap[child] = heap[parent]
            child = parent
        }
        heap[child] = entry
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        let entry = heap[parent]
        let count = heap.count
        while true {
            var child = 2 * parent + 1
            guard child < count else { break }
            if child + 1 < count && heap[child + 1].precedes(heap[child]) { child += 1 }
            guard heap[child].precedes(entry) else { break }
            heap[parent] = heap[child]
            parent = child
        }
        heap[parent] = entry
    }
}
