import Observation
import Synchronization

/// Coalesces the changes of all view models bound to one observer into one `updateView()` per
/// turn of the observer's scheduler. Shared by every `@ViewModel` storage of that observer (found
/// through `CoordinatorTable`) through one `CoordinatorLease`, which the storages hold: when the
/// observer dies, the lease dies with its storages and cancels the event source.
///
/// The source's handler holds the coordinator strongly (a cycle that the lease's cancel breaks:
/// cancelling a source releases its handler, as `EventSource` requires), so that a flush reaches
/// it without a weak load. On a `LoopScheduler` the coordinator is the source's target instead of
/// a handler: the loop's flush calls `loopFlushSignalled()` directly, with no closure context and
/// no weak load of the source (held the same way, released by the same cancel). The observer itself stays weak: it may die on another thread while a
/// flush runs, and a weak load is what makes that safe (it gives nil, the update is skipped).
final class UpdateCoordinator<S: EventSourceScheduler>: ChangeSignal, DirtyMarking, LoopFlushTarget,
    @unchecked Sendable
{
    // The per-change state, shared with the relays (strongly: a change never has to load a weak
    // reference). Lock-free; see `ChangeSignal`. It is this object's base class rather than an
    // object of its own: one object fewer for every change and every update to touch.
    private var signal: ChangeSignal { self }
    // Set once in init, never changed (read lock-free).
    private weak let observer: (any ViewModelObserver)?
    // True while updateView() runs (on the observer's thread): an assignment made then must not
    // call updateView() again, recursively. Atomic so the hot path takes no lock.
    private let updating = Atomic<Bool>(false)
    // Set once the first Swift Observation model binds; read lock-free on every update.
    private let observing = Atomic<Bool>(false)
    // Guards everything below; never held while calling updateView() or the scheduler.
    private let lock = Lock()
    // Set once a Swift Observation model is bound: updates may then run inside
    // withObservationTracking, whose onChange marks the coordinator dirty.
    private var tracksObservation = false
    // The generation of the installed tracking that has not fired yet, if any. While one is
    // armed, updates do not install another: Observation cannot remove an installed tracking,
    // so re-arming on every update would pile up one registration per update for each property
    // that updateView() reads and that does not change.
    private var armedGeneration: UInt64?
    private var generation: UInt64 = 0
    // Trackings installed so far (for tests of the pile-up).
    private var installedTrackings = 0
    /// True once an assignment found every `@ViewModel` of the observer assigned (so later
    /// assignments skip the reflection). Observer's thread only.
    var wrappersComplete = false

    init(observer: any ViewModelObserver, scheduler: S, options: S.SchedulerOptions?) {
        self.observer = observer
        super.init()
        // Strong: a `[weak self]` capture cost a boxed weak load, its exclusivity check and a
        // slow-path release per update (about 200 instructions by callgrind, row "4 coalescing,
        // per updateView()"). `CoordinatorLease` cancels the source, which breaks the cycle.
        if let loop = scheduler as? LoopScheduler {
            let loopOptions = options.flatMap { $0 as? LoopScheduler.SchedulerOptions }
            signal.install(loop.scheduleEventSource(options: loopOptions, target: self))
        } else {
            let newSource = scheduler.scheduleEventSource(options: options) { [self] _ in
                service()
            }
            signal.install(newSource)
        }
    }

    deinit {
        signal.cancelSource()
    }

    /// The observer's storages are gone: no further update; the source releases its handler,
    /// and with it this coordinator. Any thread.
    func cancelUpdates() {
        signal.cancelSource()
    }

    /// A bound model will change or did change: one update on the next turn of the scheduler.
    /// Any thread.
    func markDirty() {
        signal.didChange()
    }

    /// Subscribes to `model`'s changes. `ObservableObject`s through `objectWillChange` (both
    /// edges); Swift Observation models through tracking in `runUpdate`; other objects never
    /// signal. Binding or unbinding an Observation model makes the next update install a fresh
    /// tracking (the armed one covers the old set of models; when it fires it is ignored).
    func bind(_ model: AnyObject) -> AnyCancellable? {
        if let observable = model as? any ObservableObject {
            return subscribe(to: observable)
        }
        if model is any Observation.Observable {
            lock.withLock {
                tracksObservation = true
                armedGeneration = nil
            }
            observing.store(true, ordering: .releasing)
            return AnyCancellable { [weak self] in self?.observationModelUnbound() }
        }
        return nil
    }

    private func observationModelUnbound() {
        lock.withLock { armedGeneration = nil }
    }

    /// The onChange of the tracking of `armed`: only the armed one counts; an older one (from
    /// before a model was bound or unbound) fires into nothing. Any thread.
    func observationChanged(_ armed: UInt64) {
        let current = lock.withLock { () -> Bool in
            guard armedGeneration == armed else { return false }
            armedGeneration = nil
            return true
        }
        if current { markDirty() }
    }

    /// Records that the tracking of `armed` is being installed; returns its onChange.
    /// Observation evaluates this only when `updateView()` read at least one tracked property,
    /// so an update that read none leaves nothing armed.
    private func arming(_ armed: UInt64) -> @Sendable () -> Void {
        lock.withLock {
            armedGeneration = armed
            installedTrackings += 1
        }
        // Erased to a non-generic existential: the @Sendable closure must not capture S.
        weak let marker: (any DirtyMarking)? = self
        return { marker?.observationChanged(armed) }
    }

    /// How many Observation trackings were installed (for tests).
    var installedTrackingCount: Int { lock.withLock { installedTrackings } }

    private func subscribe<Model: ObservableObject>(to model: Model) -> AnyCancellable {
        // The relay holds the signal (this coordinator) strongly: no weak load per change. Once
        // the observer's lease is gone the source is cancelled, so a late change signals nothing.
        let relay = WillChangeRelay<Model.ObjectWillChangePublisher.Output>(
            onWillChange: { [signal] in signal.willChange() },
            onDidChange: { [signal] in signal.didChange() },
            onEnd: {})
        relay.attach(to: model.objectWillChange)
        return AnyCancellable(relay)
    }

    /// The documented initial update of an assignment: synchronous, and it clears `dirty` so a
    /// signal already pending (from the old model) gives no extra update.
    func updateNow() {
        signal.clearDirty()
        if let target = observer { runUpdate(target) }
    }

    /// True while this observer's `updateView()` runs.
    var isUpdating: Bool { updating.load(ordering: .acquiring) }

    /// After an assignment rebound a model: the documented initial update, synchronously; or,
    /// when the assignment was made inside `updateView()`, one more update on the next turn
    /// (never a recursive one).
    func updateAfterRebind() {
        if isUpdating {
            markDirty()
        } else {
            updateNow()
        }
    }

    /// The loop's flush serving this coordinator's source (see `init`).
    func loopFlushSignalled() {
        service()
    }

    /// The event source handler: at most one update per turn, none if nothing is dirty (the
    /// change was already drawn by a synchronous update) or if the observer is gone.
    private func service() {
        // From now on a change must signal again (for the next turn). `dirty` is cleared before
        // calling: a change inside updateView() gives one more update.
        guard signal.takeForService(), let target = observer else { return }
        runUpdate(target)
    }

    private func runUpdate(_ target: any ViewModelObserver) {
        let wasUpdating = updating.exchange(true, ordering: .acquiringAndReleasing)
        defer { updating.store(wasUpdating, ordering: .releasing) }
        guard observing.load(ordering: .acquiring) else {
            callUpdateViewOf(target)
            return
        }
        let arm = lock.withLock { () -> UInt64? in
            guard tracksObservation, armedGeneration == nil else { return nil }
            generation += 1
            return generation
        }
        if let arm {
            // `onChange` is an autoclosure: `arming` runs only if something was tracked.
            withObservationTracking({ callUpdateViewOf(target) }, onChange: self.arming(arm))
        } else {
            callUpdateViewOf(target)
        }
    }
}

/// The lock-free part of a coordinator that every change touches: two flags in one atomic word and
/// the event source, set once.
///
/// - `dirty`: a change is waiting for an update. `signalled`: the source was signalled and its
///   handler has not run yet, so further changes need not signal again.
/// - The will-change edge returns after one plain load when both flags are set (the common case:
///   every change after the first of a turn). The did-change edge (after the store) always does
///   a read-modify-write, a full barrier, so the handler's exchange either sees it or comes after
///   the store: an update that may have drawn the old value is always followed by one more.
///
/// Not final: `UpdateCoordinator` is one (its base class); its methods are final.
class ChangeSignal: @unchecked Sendable {
    private static let dirty: UInt8 = 1
    private static let signalled: UInt8 = 2
    private static let both: UInt8 = 3

    private let state = Atomic<UInt8>(0)
    // Written once by `install` before the coordinator is shared, then only read.
    nonisolated(unsafe) private var source: (any EventSource)?

    init() {}

    final func install(_ source: any EventSource) {
        self.source = source
    }

    final func cancelSource() {
        source?.cancel()
    }

    /// The will-change edge. Any thread.
    @inline(__always)
    final func willChange() {
        if state.load(ordering: .relaxed) == Self.both { return }
        didChange()
    }

    /// The did-change edge, and any other change. Any thread.
    @inline(__always)
    final func didChange() {
        let old = state.bitwiseOr(Self.both, ordering: .acquiringAndReleasing).oldValue
        if old & Self.signalled == 0 { source?.signal() }
    }

    /// The handler ran: clears both flags; returns whether a change was waiting.
    final func takeForService() -> Bool {
        state.exchange(0, ordering: .acquiringAndReleasing) & Self.dirty != 0
    }

    /// A synchronous update is about to draw everything: a pending signal gives no update.
    final func clearDirty() {
        state.bitwiseAnd(~Self.dirty, ordering: .acquiringAndReleasing)
    }

    /// A change is waiting (for an update, or for demand).
    final var isDirty: Bool {
        state.load(ordering: .acquiring) & Self.dirty != 0
    }

    /// The handler took a change it cannot deliver yet (no demand): marks it waiting again
    /// without signalling; whoever brings demand back signals the source.
    final func keepDirty() {
        state.bitwiseOr(Self.dirty, ordering: .acquiringAndReleasing)
    }
}

/// What an Observation `onChange` needs of a coordinator.
protocol DirtyMarking: AnyObject, Sendable {
    func observationChanged(_ armed: UInt64)
}

/// What the `@ViewModel` and `@ViewModels` storages of one observer hold of its coordinator
/// (strongly). When the last storage goes, with the observer, the lease cancels the
/// coordinator's event source: no update is delivered after that, and the source releases its
/// handler, the coordinator's last owner.
final class CoordinatorLease<S: EventSourceScheduler>: @unchecked Sendable {
    let coordinator: UpdateCoordinator<S>

    init(_ coordinator: UpdateCoordinator<S>) {
        self.coordinator = coordinator
    }

    deinit {
        coordinator.cancelUpdates()
    }
}

/// Finds the one coordinator of an observer. Keyed by `ObjectIdentifier`, with a weak reference
/// to the observer so that a new object at a reused address never gets a dead object's
/// coordinator. Leases are held weakly here (the observer's storages own them); dead entries are
/// pruned on insertion.
enum CoordinatorTable {
    private struct Entry {
        weak var observer: AnyObject?
        weak var lease: AnyObject?
    }

    private static let lock = Lock()
    nonisolated(unsafe) private static var entries: [ObjectIdentifier: Entry] = [:]

    /// The observer's coordinator. Only for an observer whose storages hold its lease (a bound
    /// one), or for a caller that binds one before the coordinator is used: a lease nobody holds
    /// is gone at once, and its coordinator delivers nothing.
    static func coordinator<Observer: ViewModelObserver>(
        for observer: Observer
    ) -> UpdateCoordinator<Observer.UpdateScheduler> {
        lease(for: observer).coordinator
    }

    /// The observer's lease, made (with its coordinator and event source) on first use.
    static func lease<Observer: ViewModelObserver>(
        for observer: Observer
    ) -> CoordinatorLease<Observer.UpdateScheduler> {
        let key = ObjectIdentifier(observer)
        if let found = lookUp(key, observer, as: Observer.UpdateScheduler.self) { return found }
        // Created outside the lock: it reads user code (updateScheduler) and the scheduler.
        let created = CoordinatorLease(
            UpdateCoordinator(
                observer: observer, scheduler: observer.updateScheduler, options: observer.updateOptions))
        let (winner, pruned) = lock.withLock {
            () -> (CoordinatorLease<Observer.UpdateScheduler>, [Entry]) in
            if let entry = entries[key], entry.observer === observer,
                let existing = entry.lease as? CoordinatorLease<Observer.UpdateScheduler>
            {
                return (existing, [])
            }
            var dead: [Entry] = []
            for (id, entry) in entries where entry.observer == nil || entry.lease == nil {
                dead.append(entry)
                entries[id] = nil
            }
            entries[key] = Entry(observer: observer, lease: created)
            return (created, dead)
        }
        withExtendedLifetime(pruned) {}
        return winner
    }

    private static func lookUp<S: EventSourceScheduler>(
        _ key: ObjectIdentifier, _ observer: AnyObject, as: S.Type
    ) -> CoordinatorLease<S>? {
        lock.withLock {
            guard let entry = entries[key], entry.observer === observer else { return nil }
            return entry.lease as? CoordinatorLease<S>
        }
    }

    /// Entries currently held (for tests of pruning).
    static var count: Int { lock.withLock { entries.count } }
}
