import LoopScheduler

/// A virtual-clock scheduler for tests, after pointfreeco/combine-schedulers' `TestScheduler`:
/// nothing runs until the test advances time, so timing logic is tested without sleeping.
///
/// - Time is `MonotonicInstant` (nanoseconds) and options are `LoopScheduler.SchedulerOptions`,
///   so code written against `AnySchedulerOf<LoopScheduler>` runs on it unchanged.
/// - `now` equals each action's deadline while the action runs. Actions due at the same
///   instant run first in, first out; a repeating action keeps its original turn among them.
/// - Work scheduled during an advance that falls due inside the window runs in the same call.
///   Time never goes backwards: a deadline in the past runs at `now`. Time arithmetic saturates
///   (see `MonotonicInstant`): "never" is the end of time, reached only by advancing to it.
/// - Event sources are serviced during `advance`/`run`: at the start (at `now`) and after the
///   last action due at each instant (at that instant), by `flushOrder` then creation order. A
///   signal raised while sources are serviced waits for the next service point (as on the loop,
///   where it waits for the next iteration).
/// - Thread rules: `schedule`, `signal` and `now` may be called from any thread (a lock guards the
///   queue); actions and handlers run on the thread that calls `advance`/`run`.
public final class TestScheduler: Scheduler, EventSourceScheduler, @unchecked Sendable {
    /// Virtual monotonic nanoseconds.
    public typealias SchedulerTimeType = MonotonicInstant
    /// The same options as `LoopScheduler` (only `flushOrder` matters, for event sources).
    public typealias SchedulerOptions = LoopScheduler.SchedulerOptions

    /// How `run(limit:)` ended.
    public enum RunOutcome: Equatable, Sendable {
        /// No scheduled action is left.
        case drained
        /// The limit of actions was reached with `pending` actions still queued (typically a
        /// repeating timer that never ends).
        case stoppedAtLimit(pending: Int)
    }

    private final class Entry {
        let sequence: UInt64
        var deadline: MonotonicInstant
        let interval: MonotonicInstant.Stride?
        var action: (() -> Void)?

        init(
            sequence: UInt64, deadline: MonotonicInstant, interval: MonotonicInstant.Stride?,
            action: @escaping () -> Void
        ) {
            self.sequence = sequence
            self.deadline = deadline
            self.interval = interval
            self.action = action
        }

        func precedes(_ other: Entry) -> Bool {
            (deadline, sequence) < (other.deadline, other.sequence)
        }
    }

    private let lock = Lock()
    private var current: MonotonicInstant
    /// Sorted by (deadline, sequence).
    private var entries: [Entry] = []
    private var nextSequence: UInt64 = 0
    let sources = SourceRegistry()

    /// A scheduler whose clock starts at `now` (default: instant 0).
    public init(now: MonotonicInstant = .init(nanoseconds: 0)) {
        current = now
    }

    /// The virtual time. Any thread.
    public var now: MonotonicInstant {
        lock.withLock { current }
    }

    /// Zero: the virtual clock is exact.
    public var minimumTolerance: MonotonicInstant.Stride {
        .nanoseconds(0)
    }

    /// The number of scheduled actions not yet run (repeating ones count once). Any thread.
    public var pendingActionCount: Int {
        lock.withLock { entries.count }
    }

    // MARK: Scheduling

    /// Runs `action` at the current virtual time, on the next `advance`. Any thread.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        _ = insert(deadline: nil, interval: nil, action: action)
    }

    /// Runs `action` at `date` (or at `now` if `date` has passed). Any thread.
    public func schedule(
        after date: MonotonicInstant, tolerance: MonotonicInstant.Stride, options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        _ = insert(deadline: date, interval: nil, action: action)
    }

    /// Runs `action` at `date` and every `interval` (at least 1 ns) after it until cancelled.
    /// Any thread.
    public func schedule(
        after date: MonotonicInstant, interval: MonotonicInstant.Stride,
        tolerance: MonotonicInstant.Stride, options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> Cancellable {
        let entry = insert(deadline: date, interval: max(interval, .nanoseconds(1)), action: action)
        return AnyCancellable { [weak self] in self?.remove(entry) }
    }

    private func insert(deadline: MonotonicInstant?, interval: MonotonicInstant.Stride?, action: @escaping () -> Void)
        -> Entry
    {
        lock.withLock {
            let entry = Entry(
                sequence: nextSequence, deadline: max(deadline ?? current, current), interval: interval,
                action: action)
            nextSequence += 1
            insertLocked(entry)
            return entry
        }
    }

    private func insertLocked(_ entry: Entry) {
        var low = 0
        var high = entries.count
        while low < high {
            let mid = (low + high) / 2
            if entries[mid].precedes(entry) { low = mid + 1 } else { high = mid }
        }
        entries.insert(entry, at: low)
    }

    private func remove(_ entry: Entry) {
        let action = lock.withLock { () -> (() -> Void)? in
            entries.removeAll { $0 === entry }
            defer { entry.action = nil }
            return entry.action
        }
        _ = action  // released outside the lock
    }

    // MARK: Advancing

    /// Moves the clock forward by `stride` (default zero: run what is due now), running every
    /// action due in the window in (deadline, scheduling order). A negative stride is treated as
    /// zero: time never goes backwards.
    public func advance(by stride: MonotonicInstant.Stride = .nanoseconds(0)) {
        advance(to: now.advanced(by: max(stride, .nanoseconds(0))))
    }

    /// Moves the clock to `instant` (or stays at `now` if `instant` has passed), running every
    /// action due up to it, including work scheduled meanwhile inside the window.
    public func advance(to instant: MonotonicInstant) {
        let target = max(instant, now)
        sources.service()
        while let action = takeNext(upTo: target) {
            action()
            serviceIfInstantDone()
        }
        lock.withLock { current = max(current, target) }
    }

    /// Runs every scheduled action, moving the clock to each deadline, until none is left or
    /// `limit` actions ran. A repeating action never ends, so it stops at the limit.
    /// - Returns: `.drained`, or `.stoppedAtLimit(pending:)` with the actions still queued.
    @discardableResult
    public func run(limit: Int = 100_000) -> RunOutcome {
        sources.service()
        var count = 0
        while true {
            let pending = lock.withLock { entries.count }
            if pending == 0 { return .drained }
            if count >= limit { return .stoppedAtLimit(pending: pending) }
            guard let action = takeNext(upTo: nil) else { return .drained }
            count += 1
            action()
            serviceIfInstantDone()
        }
    }

    /// Pops the first action due by `limit` (any, if nil), sets `now` to its deadline and
    /// re-queues a repeating one with its original turn.
    private func takeNext(upTo limit: MonotonicInstant?) -> (() -> Void)? {
        lock.withLock {
            guard let first = entries.first else { return nil }
            if let limit, first.deadline > limit { return nil }
            entries.removeFirst()
            current = max(current, first.deadline)
            let action = first.action
            // A repeating action whose next tick saturates at the end of time (it just ran there)
            // has no later instant to run at: it is done, or `advance` would never end.
            if let interval = first.interval, case let next = current.advanced(by: interval), next > current {
                first.deadline = next
                insertLocked(first)
            }
            return action
        }
    }

    private func serviceIfInstantDone() {
        let moreNow = lock.withLock { entries.first.map { $0.deadline <= current } ?? false }
        if !moreNow { sources.service() }
    }

    // MARK: Event sources

    /// A source serviced on the next `advance`/`run` at `now` (see the type's doc), ranked by
    /// `options?.flushOrder`. Any thread.
    public func scheduleEventSource(
        options: SchedulerOptions?, _ handler: @escaping (TestEventSource) -> Void
    ) -> TestEventSource {
        TestEventSource(registry: sources, order: options?.flushOrder ?? 0, handler: handler)
    }
}
