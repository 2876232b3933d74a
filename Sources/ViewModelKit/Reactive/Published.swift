/// A property wrapper that publishes changes of a class property, as Combine's `@Published`.
///
/// On each set, in this order (as Combine):
/// 1. the owner's default `objectWillChange` emits (if the owner is an `ObservableObject` that
///    did not declare its own `objectWillChange`);
/// 2. `$x` subscribers receive the new value, while the property still holds the old one
///    (reading it inside the sink gives the old value);
/// 3. the property stores the new value;
/// 4. (not visible to Combine-style subscribers) the owner's default publisher reports through
///    its internal did-change channel that the value is stored, so that `observe(on:)` and
///    `@ViewModel` never draw a change made on another thread stale.
///
/// Only class properties may be `@Published` (the compiler rejects it elsewhere). Like Combine's,
/// the stored value is not synchronised: set and read it from one thread at a time (the
/// publishers themselves are thread-safe).
@propertyWrapper
public struct Published<Value> {
    @usableFromInline let storage: PublishedStorage<Value>

    /// Creates the property with its initial value (`@Published var x = 1`).
    public init(wrappedValue: Value) {
        storage = PublishedStorage(wrappedValue)
    }

    /// Creates the property with its initial value, as Combine's `init(initialValue:)`.
    public init(initialValue: Value) {
        storage = PublishedStorage(initialValue)
    }

    /// Unavailable: `@Published` works only on class properties, through the enclosing-instance
    /// subscript.
    @available(*, unavailable, message: "@Published is only available on properties of classes")
    public var wrappedValue: Value {
        get { fatalError("@Published is only available on properties of classes") }
        // swiftlint:disable:next unused_setter_value
        set { fatalError("@Published is only available on properties of classes") }
    }

    /// The value, reached through the owning object so the setter can announce the change.
    @inlinable
    public static subscript<EnclosingSelf: AnyObject>(
        _enclosingInstance object: EnclosingSelf,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Published<Value>>
    ) -> Value {
        get { object[keyPath: storageKeyPath].storage.value }
        set { object[keyPath: storageKeyPath].storage.set(newValue) }
    }

    /// `$x`: the publisher of this property's values. Setting it has no effect (the setter exists
    /// so that `assign(to: &$x)` can take it `inout`, as in Combine).
    public var projectedValue: Publisher {
        get { Publisher(storage) }
        // swiftlint:disable:next unused_setter_value
        set {}
    }

    /// The publisher of a `@Published` property (`$x`), as Combine's `Published.Publisher`.
    ///
    /// A subscriber gets the current value on its first demand, then each new value (before the
    /// property stores it), while it has demand. It never fails or finishes.
    public struct Publisher: ViewModelKit.Publisher {
        /// The property's type.
        public typealias Output = Value
        /// Never fails.
        public typealias Failure = Never

        let storage: PublishedStorage<Value>

        init(_ storage: PublishedStorage<Value>) {
            self.storage = storage
        }

        /// Attaches `subscriber`; see the type's documentation.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Value, S.Failure == Never {
            storage.subject.attach(subscriber)
        }
    }
}

extension Published: PublishedStorageProviding {
    var willChangeSlot: PublishedWillChangeSlot { storage }
}

/// Guards every `PublishedStorage.assignments` list.
private let publishedAssignmentsLock = Lock()

/// One `@Published` property's state: the value, the owner's default `objectWillChange` once
/// someone asked for it, the `$x` subject once someone subscribed, and `assign(to:)` links.
@usableFromInline
final class PublishedStorage<Value>: PublishedWillChangeSlot, @unchecked Sendable {
    // Not synchronised (as Combine's, the property is one thread's at a time), and each access is
    // instantaneous: the setter stores only after delivery, so no access can overlap another.
    // The dynamic exclusivity check cost about 80 instructions per set (row "5 @Published set").
    @usableFromInline @exclusivity(unchecked) var value: Value
    private let willChange = OnceReference<ObservableObjectPublisher>()
    private let subjectCore = OnceReference<SubjectCore<Value, Never>>()
    // `assign(to:)` links. They are rare, so one shared pthread lock guards every storage's list
    // (rather than a lock per property; `Synchronization.Mutex` is invisible to ThreadSanitizer).
    private var assignments: [AnyCancellable] = []

    init(_ value: Value) {
        self.value = value
    }

    /// The setter: announce, deliver, store, then tell the MVVM layer (through the publisher's
    /// internal did-change channel, one atomic load when nobody listens) that the change is in.
    @usableFromInline
    func set(_ newValue: Value) {
        willChange.withValue { $0.send() }
        subjectCore.withValue { $0.storeAndSend(newValue) }
        value = newValue
        willChange.withValue { $0.sendDidChange() }
    }

    /// The `$x` subject, created on first use; it replays the stored value.
    var subject: SubjectCore<Value, Never> {
        if let existing = subjectCore.load() { return existing }
        // The subject keeps its own copy of the value to replay (updated as each set starts), so
        // a `$x` subscription never reaches back into the property and may outlive its owner.
        let created = SubjectCore<Value, Never>(replaying: value, name: "PublishedSubject")
        return subjectCore.storeIfNil(created)
    }

    var installedWillChange: ObservableObjectPublisher? { willChange.load() }

    func installWillChange(_ publisher: ObservableObjectPublisher) -> ObservableObjectPublisher {
        willChange.storeIfNil(publisher)
    }

    /// Keeps an `assign(to: &$x)` link alive as long as this property.
    func keep(_ link: AnyCancellable) {
        publishedAssignmentsLock.withLock { assignments.append(link) }
    }

    deinit {
        let links = publishedAssignmentsLock.withLock { () -> [AnyCancellable] in
            let taken = assignments
            assignments = []
            return taken
        }
        for link in links { link.cancel() }
    }
}

extension Publisher where Failure == Never {
    /// Republishes every value through a `@Published` property, as Combine's `assign(to:)`:
    /// each value is set on the property (so `objectWillChange` and `$x` fire as for any set).
    ///
    /// The link lives as long as the property's owner (no token to keep) and ends when the owner
    /// is deallocated. Upstream completion is ignored: `$x` never completes.
    public func assign(to published: inout Published<Output>.Publisher) {
        let storage = published.storage
        let subscriber = PublishedAssignSubscriber<Output>(storage)
        storage.keep(AnyCancellable(subscriber))
        subscribe(subscriber)
    }
}

/// The subscriber behind `assign(to: &$x)`: holds the property weakly so the link does not keep
/// its owner alive.
final class PublishedAssignSubscriber<Value>: Subscriber, Cancellable, @unchecked Sendable {
    typealias Input = Value
    typealias Failure = Never

    private let lock = Lock()
    private weak var storage: PublishedStorage<Value>?
    private var upstream: Subscription?
    private var cancelled = false

    init(_ storage: PublishedStorage<Value>) {
        self.storage = storage
    }

    func receive(subscription: Subscription) {
        lock.lock()
        guard upstream == nil, !cancelled else {
            lock.unlock()
            subscription.cancel()
            return
        }
        upstream = subscription
        lock.unlock()
        subscription.request(.unlimited)
    }

    func receive(_ input: Value) -> Subscribers.Demand {
        storage?.set(input)
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {
        // Ignored for `$x`; the upstream is done, so let it go.
        lock.lock()
        let finished = upstream
        upstream = nil
        lock.unlock()
        withExtendedLifetime(finished) {}
    }

    func cancel() {
        lock.lock()
        cancelled = true
        let source = upstream
        upstream = nil
        lock.unlock()
        source?.cancel()
    }
}
