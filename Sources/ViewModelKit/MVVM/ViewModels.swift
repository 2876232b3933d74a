/// Declares a collection of view models of a `ViewModelObserver`: a change of any element leads
/// to one coalesced `updateView()` of the observer per scheduler turn, shared with the observer's
/// `@ViewModel` properties (one event source per observer, however many elements changed).
///
/// ```swift
/// final class LibraryView: ViewModelObserver {
///     @ViewModels var podcasts: [Observable<Podcast>]
///     init(_ podcasts: [Observable<Podcast>]) {
///         self.podcasts = podcasts  // binds every element and draws once, at once
///     }
///     func updateView() { for podcast in podcasts { print(podcast.title) } }
/// }
/// ```
///
/// - Elements: each is bound as a `@ViewModel` model would be (`ObservableObject` through
///   `objectWillChange` and the did-change edge, an `@Observable` model through observation
///   tracking, any other class never signals). An object that appears twice is bound once.
/// - Binding and the initial update: the same rule as `@ViewModel` (see there). Declared without
///   a value, the property starts empty and unassigned, and its assignment in `init` (once every
///   stored property is set) binds every element and draws once, at once (waiting, like
///   `@ViewModel`, while another wrapper of the observer is still unassigned). A default value
///   (`= [a, b]`) binds at `bindViewModels()`, the first assignment of another wrapper, or its
///   first read.
/// - Assignment, including in-place mutation (`view.podcasts.append(p)`, which reads and
///   assigns): elements no longer present are unbound (their pending and later changes give no
///   update), new elements are bound, elements kept stay bound; then one synchronous
///   `updateView()`, the documented initial update. Inside the observer's own `updateView()` an
///   assignment does not recurse: it gives exactly one more update on the next turn.
/// - Lifetimes: the wrapper owns its array (elements live at least as long as they are in it).
///   A removed element is released; its death gives no update. Nothing retains the observer;
///   when it dies every element's subscription ends and a pending update calls nothing.
/// - No projected value: use `element.observe(on:)` for one element's did-change publisher.
/// - Threads: read and assign the property on the observer's thread (the scheduler's).
@propertyWrapper
public struct ViewModels<Model: AnyObject> {
    let storage: ViewModelsStorage<Model>

    /// Empty and unassigned: assign the models in the observer's `init`, which binds them and
    /// draws once, at once.
    public init() {
        storage = ViewModelsStorage(models: [], assigned: false)
    }

    /// Stores a default value; it binds with `bindViewModels()`, the first assignment of another
    /// wrapper of the observer, or its own first read (see `ViewModel`).
    /// `file` and `line` name the declaration in the report made if a model changes while the
    /// property is still unbound (see `ViewModel`); leave them to their defaults.
    public init(wrappedValue: [Model], file: StaticString = #fileID, line: UInt = #line) {
        storage = ViewModelsStorage(models: wrappedValue, assigned: true)
        storage.watch = UnboundDefaultWatch(
            models: wrappedValue, declaration: "@ViewModels [\(Model.self)]", file: file, line: line)
    }

    /// Unavailable: `@ViewModels` only works on properties of a `ViewModelObserver` class.
    @available(*, unavailable, message: "@ViewModels is only available on ViewModelObserver classes")
    public var wrappedValue: [Model] {
        get { fatalError("@ViewModels is only available on ViewModelObserver classes") }
        set { fatalError("@ViewModels is only available on ViewModelObserver classes") }
    }

    /// Reads or assigns the models of an observer's `@ViewModels` property. A read binds unbound
    /// initial values (with the initial update); an assignment rebinds the difference and
    /// updates once.
    public static subscript<EnclosingSelf: ViewModelObserver>(
        _enclosingInstance observer: EnclosingSelf,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, [Model]>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, ViewModels<Model>>
    ) -> [Model] {
        get {
            let storage = observer[keyPath: storageKeyPath].storage
            storage.bindIfNeeded(to: observer)
            return storage.models
        }
        set {
            observer[keyPath: storageKeyPath].storage.assign(newValue, observer: observer)
        }
    }
}

/// The state behind one `@ViewModels` property: the models, one subscription per distinct
/// element, and the observer's shared coordinator (held strongly, as `ViewModelStorage` does).
/// Used on the observer's thread only.
final class ViewModelsStorage<Model: AnyObject> {
    private(set) var models: [Model]
    // The observer's `CoordinatorLease` (type-erased): held strongly, it keeps the coordinator's
    // updates going exactly as long as the observer's wrappers live.
    private var coordinator: AnyObject?
    // One entry per distinct element; the elements themselves are kept alive by `models`, so
    // their identifiers cannot be reused while they are here.
    private var subscriptions: [ObjectIdentifier: AnyCancellable?] = [:]
    private(set) var isBound = false
    // False for a property declared without a value until its first assignment.
    private(set) var isAssigned: Bool
    // Reports a change of an unbound default value; ended by the first bind.
    var watch: UnboundDefaultWatch?

    init(models: [Model], assigned: Bool) {
        self.models = models
        isAssigned = assigned
    }

    /// Binds the initial values on first access, with the initial update (none inside
    /// `updateView()`, which is drawing them right now).
    func bindIfNeeded<Observer: ViewModelObserver>(to observer: Observer) {
        guard !isBound, isAssigned else { return }
        let coordinator = bind(to: observer)
        if !coordinator.isUpdating { coordinator.updateNow() }
    }

    /// Reassignment: rebinds the difference, then one update (see `ViewModels`).
    func assign<Observer: ViewModelObserver>(_ newModels: [Model], observer: Observer) {
        let old = models
        models = newModels
        isAssigned = true
        bind(to: observer).updateAfterAssignment(in: observer)
        withExtendedLifetime(old) {}  // removed elements are released after they were unbound
    }

    /// Unbinds elements no longer present and binds new ones, without updating.
    @discardableResult
    func bind<Observer: ViewModelObserver>(to observer: Observer) -> UpdateCoordinator<Observer.UpdateScheduler> {
        let lease = CoordinatorTable.lease(for: observer)
        let shared = lease.coordinator
        coordinator = lease
        var present = Set<ObjectIdentifier>()
        present.reserveCapacity(models.count)
        for model in models { present.insert(ObjectIdentifier(model)) }
        let gone = subscriptions.filter { !present.contains($0.key) }
        for (id, subscription) in gone {
            subscription?.cancel()
            subscriptions[id] = nil
        }
        for model in models {
            let id = ObjectIdentifier(model)
            if subscriptions[id] == nil {
                subscriptions[id] = .some(shared.bind(model))
            }
        }
        isBound = true
        if let watch {
            watch.end()
            self.watch = nil
        }
        return shared
    }
}

extension ViewModels: ViewModelBindable {
    func bindIfUnbound<Observer: ViewModelObserver>(to observer: Observer) -> Bool {
        guard !storage.isBound, storage.isAssigned else { return false }
        storage.bind(to: observer)
        return true
    }

    var isAssigned: Bool { storage.isAssigned }
}
