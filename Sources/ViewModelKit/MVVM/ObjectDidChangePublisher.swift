/// Publishes an `ObservableObject` itself *after* it changed, at most once per scheduler turn,
/// however many `objectWillChange` events came before. Returned by
/// `ObservableObject.observe(on:options:)`; after CombineViewModel's `observe(on:)`.
///
/// - Coalescing: each subscription owns one event source created with
///   `scheduler.scheduleEventSource(options:_:)` (the options are passed through). Will-change
///   events signal it; its handler emits the object. On `LoopScheduler` that is once at the end of
///   the loop iteration; on `TestScheduler` once on the next advance, at `now`.
/// - First value: the current object, synchronously, inside the subscriber's first `request(_:)`
///   (CombineViewModel's behaviour: `sink` sees it before `observe(on:)...sink` returns). Every
///   later value comes on the scheduler. Subscribe on the scheduler's thread, so that the first
///   value and the later ones reach the subscriber on one thread.
/// - Demand: a change seen while demand is zero is remembered and delivered when demand comes
///   back; it is never dropped. Several changes while waiting still give one value.
/// - Completion: when the object's `objectWillChange` completes while the object lives (a custom
///   publisher, such as a `PassthroughSubject` sent `.finished`), the subscriber gets `.finished`
///   at once, on the completing thread, and no cancel reaches upstream after it (as
///   CombineViewModel's).
/// - Lifetime: the subscription holds the object weakly. When the object dies the publisher
///   sends `.finished` on the scheduler's next turn, even with no change pending: its
///   `ObservableObjectPublisher` dies with it and finishes the subscription's will-change relay.
///   (A custom will-change publisher that never completes: death is noticed at the next signal.)
///   A publisher created for an already dead object finishes on the first demand.
/// - Threads: will-change events may come from any thread. Values and the completion arrive on
///   the scheduler; use a serial one (the loop, `TestScheduler`, a serial `DispatchQueue`).
public struct ObjectDidChangePublisher<Object: ObservableObject, Context: EventSourceScheduler>: Publisher {
    /// The object itself, after a change.
    public typealias Output = Object
    /// This publisher never fails.
    public typealias Failure = Never

    private weak var weakObject: Object?
    /// The scheduler the values are delivered on.
    public let scheduler: Context
    /// The options given to `scheduleEventSource(options:_:)` for each subscription.
    public let options: Context.SchedulerOptions?

    /// The observed object, or `nil` once it has been deallocated (held weakly).
    public var object: Object? { weakObject }

    /// A publisher of `object`'s changes on `scheduler`; prefer `object.observe(on:options:)`.
    public init(object: Object, scheduler: Context, options: Context.SchedulerOptions? = nil) {
        weakObject = object
        self.scheduler = scheduler
        self.options = options
    }

    /// Attaches `subscriber`: it gets its subscription at once, values on the scheduler.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Object, S.Failure == Never {
        let object = weakObject
        let subscription = DidChangeSubscription<Object, Context>(
            object: object,
            deliver: { subscriber.receive($0) },
            complete: { subscriber.receive(completion: .finished) })
        subscription.start(scheduler: scheduler, options: options, willChange: object?.objectWillChange)
        subscriber.receive(subscription: subscription)
    }
}

extension ObservableObject {
    /// A publisher of this object, emitted after it changed, coalesced to once per turn of
    /// `scheduler`: see `ObjectDidChangePublisher`. `options` are passed to
    /// `scheduler.scheduleEventSource(options:_:)` for each subscription (for `LoopScheduler`,
    /// for example a priority). The object is held weakly; the publisher finishes when it dies.
    public func observe<S: EventSourceScheduler>(
        on scheduler: S, options: S.SchedulerOptions? = nil
    ) -> ObjectDidChangePublisher<Self, S> {
        ObjectDidChangePublisher(object: self, scheduler: scheduler, options: options)
    }

    /// Shorthand for `observe(on: LoopScheduler.main)`: this object after each change, at most
    /// once per iteration of the main loop, delivered on the main thread.
    public var objectDidChange: ObjectDidChangePublisher<Self, LoopScheduler> {
        observe(on: LoopScheduler.main)
    }
}
