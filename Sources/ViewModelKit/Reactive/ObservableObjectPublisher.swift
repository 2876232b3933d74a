import Synchronization

/// The publisher that announces an object is about to change, as Combine's
/// `ObservableObjectPublisher`: it emits `()` before each change and never fails.
///
/// - `send()` is safe from any thread and delivers on the calling thread, with the same rules as
///   `PassthroughSubject` (calls into one subscriber serialised, re-entrant sends depth-first),
///   except demand: as Combine's, a subscriber that has ever requested demand receives every
///   later `()`, whatever its demand now (one that never requested receives nothing).
/// - Lifetime: it dies with its object (the default one is owned by the object's `@Published`
///   properties; a declared one by the object). When it is deinitialised, its current subscribers
///   receive `.finished` on the thread that released it. Combine's never completes; ours does so
///   that `observe(on:)` notices an observed object's death at once. (The default publisher of
///   an object with no `@Published` property lives in a side table that is pruned lazily, so
///   its completion can come later than the object's death.)
/// - Besides the Combine-visible will-change events, `@Published` and `Observable<Value>` report
///   through an internal channel that they *stored* a change; the MVVM layer listens there so
///   that a change made on another thread is never drawn stale (see `ViewModelObserver`).
///   Combine-style subscribers never see that channel: one set gives them exactly one `()`.
public final class ObservableObjectPublisher: Publisher, @unchecked Sendable {
    /// Emits `()`.
    public typealias Output = Void
    /// Never fails.
    public typealias Failure = Never

    private let core = SubjectCore<Void, Never>(
        replaying: nil, name: "ObservableObjectPublisher", ignoresDemandOnceRequested: true)
    // The did-change listeners. The count is read without the lock on every `@Published` set,
    // so that nobody pays more than one atomic load when no MVVM subscription listens.
    private let didChangeListenerCount = Atomic<Int>(0)
    private let listenerLock = Lock()
    private var didChangeListeners: [any DidChangeListener] = []

    /// Creates a publisher with no subscribers.
    public init() {}

    deinit {
        core.send(completion: .finished)
    }

    /// Attaches `subscriber`; once it has requested any demand it receives `()` for each later
    /// `send()`, and
    /// `.finished` when this publisher is deinitialised.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Void, S.Failure == Never {
        core.attach(subscriber)
    }

    /// Announces a change to every subscriber, on the calling thread.
    @inline(__always)
    public func send() {
        core.send(())
    }

    // MARK: - The internal did-change channel

    /// Reports that the announced change has been stored. Called by `@Published` after it stored
    /// and by `Observable<Value>`; costs one atomic load when nobody listens. Any thread.
    @inline(__always)
    func sendDidChange() {
        if didChangeListenerCount.load(ordering: .acquiring) == 0 { return }
        notifyDidChangeListeners()
    }

    private func notifyDidChangeListeners() {
        let targets = listenerLock.withLock { didChangeListeners }
        for listener in targets { listener.objectDidChange() }
    }

    /// Adds `listener` (held strongly until removed or until this publisher dies).
    func addDidChangeListener(_ listener: any DidChangeListener) {
        listenerLock.withLock {
            didChangeListeners.append(listener)
            didChangeListenerCount.store(didChangeListeners.count, ordering: .releasing)
        }
    }

    /// Removes `listener` if it is there.
    func removeDidChangeListener(_ listener: any DidChangeListener) {
        let removed = listenerLock.withLock { () -> (any DidChangeListener)? in
            guard let index = didChangeListeners.firstIndex(where: { $0 === listener }) else { return nil }
            let removed = didChangeListeners.remove(at: index)
            didChangeListenerCount.store(didChangeListeners.count, ordering: .releasing)
            return removed
        }
        withExtendedLifetime(removed) {}  // released outside the lock
    }
}

/// Something told, through `ObservableObjectPublisher`'s internal channel, that an announced
/// change has been stored. Called on the thread that stored it; must be cheap and thread-safe.
protocol DidChangeListener: AnyObject, Sendable {
    func objectDidChange()
}

extension ObservableObjectPublisher {
    /// How many did-change listeners are attached (for tests).
    var didChangeListenerCountForTesting: Int {
        didChangeListenerCount.load(ordering: .acquiring)
    }
}
