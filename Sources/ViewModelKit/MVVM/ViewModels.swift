/// Declares a collection of view models of a `ViewModelObserver`: a change of any element leads
/// to one coalesced `updateView()` of the observer per scheduler turn, shared with the observer's
/// `@ViewModel` properties (one event source per observer, however many elements changed).
///
/// ```swift
/// final class LibraryView: ViewModelObserver {
///     @ViewModels var podcasts: [Observable<Podcast>]
///     init(_ podcasts: [Observable<Podcast>]) {
///         self.podcasts = podcasts  // initialises the wrapper: not bound yet, no update
///         bindViewModels()          // binds every element, draws once
///     }
///     func updateView() { for podcast in podcasts { print(podcast.title) } }
/// }
/// ```
///
/// - Elements: each is bound as a `@ViewModel` model would be (`ObservableObject` through
///   `objectWillChange` and the did-change edge, an `@Observable` model through observation
///   tracking, any other class never signals). An object that appears twice is bound once.
/// - Initial update: as `@ViewModel`. Initial values (at the declaration, or assigned in `init`
///   to a property declared without one) bind on the first read of the property, with one
///   synchronous `updateView()`, or all at once with `bindViewModels()` (one initial update for
///   every `@ViewModel`/`@ViewModels`). There is deliberately no `init()`,
///   so that for a property declared without a value an assignment in `init` initialises the
///   wrapper. (Declared with a value, `= []` included, an assignment in `init` once the object
///   is initialised is a real assignment, with its synchronous update, as for `@ViewModel`.)
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

    /// Stores `wrappedValue`; it binds on first access (see the type's documentation).
    public init(wrappedValue: [Model]) {
        storage = ViewModelsStorage(models: wrappedValue)
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
    private var coordinator: AnyObject?
    // One entry per distinct element; the elements themselves are kept alive by `models`, so
    // their identifiers cannot be reused while they are here.
    private var subscriptions: [ObjectIdentifier: AnyCancellable?] = [:]
    private(set) var isBound = false

    init(models: [Model]) {
        self.models = models
    }

    /// Binds the initial values on first access, with the initial update (none inside
    /// `updateView()`, which is drawing them right now).
    func bindIfNeeded<Observer: ViewModelObserver>(to observer: Observer) {
        guard !isBound else { return }
        let coordinator = bind(to: observer)
        if !coordinator.isUpdating { coordinator.updateNow() }
    }

    /// Reassignment: rebinds the difference, then one update (see `ViewModels`).
    func assign<Observer: ViewModelObserver>(_ newModels: [Model], observer: Observer) {
        let old = models
        models = newModels
        bind(to: observer).updateAfterRebind()
        withExtendedLifetime(old) {}  // removed elements are released after they were unbound
    }

    /// Unbinds elements no longer present and binds new ones, without updating.
    @discardableResult
    func bind<Observer: ViewModelObserver>(to observer: Observer) -> UpdateCoordinator<Observer.UpdateScheduler> {
        let shared = CoordinatorTable.coordinator(for: observer)
        coordinator = shared
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
        return shared
    }
}

extension ViewModels: ViewModelBindable {
    func bindIfUnbound<Observer: ViewModelObserver>(to observer: Observer) -> Bool {
        guard !storage.isBound else { return false }
        storage.bind(to: observer)
        return true
    }

    var isAssigned: Bool { true }
}
