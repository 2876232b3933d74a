/// Declares a view model of a `ViewModelObserver`: changes of the model lead to one coalesced
/// `updateView()` of the observer per scheduler turn (CombineViewModel's `@ViewModel`, with
/// default values, reassignment and Swift Observation support added).
///
/// ```swift
/// final class CounterView: ViewModelObserver {
///     @ViewModel var counter = Counter()
///     func updateView() { print(counter.value) }
/// }
/// ```
///
/// - Models: an `ObservableObject` is observed through `objectWillChange` (and, for `@Published`
///   and `Observable<Value>`, the did-change edge after the store). An `@Observable` (Swift
///   Observation) model is observed through `withObservationTracking` around `updateView()`:
///   only properties that `updateView()` reads count. Any other class is bound but never signals.
/// - Observation tracking is armed by an update and stays armed until one of the properties it
///   read changes; updates in between (triggered by other models) do not install another, since
///   Observation cannot remove an installed tracking and re-arming each time would pile up one
///   registration per update. Consequences: a property that `updateView()` reads only in such an
///   in-between update (say, in a branch an earlier update skipped) is tracked from the update
///   after the armed tracking fires; binding or unbinding an Observation model re-arms at the
///   next update. A change made *inside* `updateView()` to a tracked property gives one more
///   update on the next turn while a tracking is armed; in the update that a tracked change
///   itself triggered nothing is armed yet (Observation installs tracking after `updateView()`
///   returns), so such a change is not reported there.
/// - Assignment (`view.counter = other`) cancels the old subscription, binds the new model and
///   calls `updateView()` once, synchronously: the documented initial update. A change of the old
///   model still pending gives no further update; later changes of the old model give none.
///   An assignment made inside the observer's own `updateView()` does not call it recursively:
///   it gives exactly one more update on the next turn, like any change made there.
/// - Initial values (at the declaration or assigned in `init`) cannot bind while the observer is
///   being initialised: they bind on the first read of the property or of `$property` (with the
///   initial update then), or all at once with `bindViewModels()` (one initial update for all,
///   or none with `bindViewModels(initialUpdate: false)`).
/// - One coordinator per observer: all `@ViewModel` and `@ViewModels` properties share one event
///   source, so the observer gets one update per turn whichever of them changed. For a
///   collection of models, see `ViewModels`.
/// - Lifetimes: the wrapper owns its model. Nothing retains the observer; when it dies, its
///   wrappers cancel their subscriptions and a pending update calls nothing.
/// - Threads: read and assign the property on the observer's thread (the scheduler's).
@propertyWrapper
public struct ViewModel<Model: AnyObject> {
    let storage: ViewModelStorage<Model>

    /// Stores `wrappedValue`; it binds on first access (see the type's documentation).
    public init(wrappedValue: Model) {
        storage = ViewModelStorage(model: wrappedValue)
    }

    /// Unavailable: `@ViewModel` only works on properties of a `ViewModelObserver` class.
    @available(*, unavailable, message: "@ViewModel is only available on ViewModelObserver classes")
    public var wrappedValue: Model {
        get { fatalError("@ViewModel is only available on ViewModelObserver classes") }
        set { fatalError("@ViewModel is only available on ViewModelObserver classes") }
    }

    /// Unavailable: `$property` only works on properties of a `ViewModelObserver` class.
    @available(*, unavailable, message: "@ViewModel is only available on ViewModelObserver classes")
    public var projectedValue: ViewModelPublisher<Model> {
        fatalError("@ViewModel is only available on ViewModelObserver classes")
    }

    /// Reads or assigns the model of an observer's `@ViewModel` property. A read binds an unbound
    /// initial value (with its initial update); an assignment rebinds and updates once.
    public static subscript<EnclosingSelf: ViewModelObserver>(
        _enclosingInstance observer: EnclosingSelf,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Model>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, ViewModel<Model>>
    ) -> Model {
        get {
            let storage = observer[keyPath: storageKeyPath].storage
            storage.bindIfNeeded(to: observer)
            return storage.model
        }
        set {
            observer[keyPath: storageKeyPath].storage.assign(newValue, observer: observer)
        }
    }

    /// `$property`: the model's did-change publisher on the observer's `updateScheduler`
    /// (see `ViewModelPublisher`). Reading it binds an unbound initial value.
    public static subscript<EnclosingSelf: ViewModelObserver>(
        _enclosingInstance observer: EnclosingSelf,
        projected projectedKeyPath: KeyPath<EnclosingSelf, ViewModelPublisher<Model>>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, ViewModel<Model>>
    ) -> ViewModelPublisher<Model> {
        let storage = observer[keyPath: storageKeyPath].storage
        storage.bindIfNeeded(to: observer)
        return ViewModelPublisher(model: storage.model, scheduler: observer.updateScheduler)
    }
}

/// The state behind one `@ViewModel` property: the model, its subscription and the observer's
/// shared coordinator (held strongly, so the coordinator lives exactly as long as the observer's
/// wrappers). Used on the observer's thread only.
final class ViewModelStorage<Model: AnyObject> {
    private(set) var model: Model
    private var coordinator: AnyObject?
    private var subscription: AnyCancellable?
    private var bound = false

    init(model: Model) {
        self.model = model
    }

    /// Binds the initial value on first access, with its initial update (none when the first
    /// access is inside `updateView()`, which is drawing it right now).
    func bindIfNeeded<Observer: ViewModelObserver>(to observer: Observer) {
        guard !bound else { return }
        let coordinator = bind(to: observer)
        if !coordinator.isUpdating { coordinator.updateNow() }
    }

    /// Reassignment: the old subscription goes, the new model binds, one synchronous update (or
    /// one on the next turn when assigned inside `updateView()`).
    func assign<Observer: ViewModelObserver>(_ newModel: Model, observer: Observer) {
        model = newModel
        bind(to: observer).updateAfterRebind()
    }

    /// Binds without updating (used by `bindViewModels()`, which updates once at the end).
    @discardableResult
    func bind<Observer: ViewModelObserver>(to observer: Observer) -> UpdateCoordinator<Observer.UpdateScheduler> {
        let shared = CoordinatorTable.coordinator(for: observer)
        let old = subscription
        old?.cancel()
        coordinator = shared
        subscription = shared.bind(model)
        bound = true
        return shared
    }

    var isBound: Bool { bound }
}

/// Lets `bindViewModels()` reach the storages it finds by reflection.
protocol ViewModelBindable {
    /// Binds if not yet bound, without an update; returns true if it bound now.
    func bindIfUnbound<Observer: ViewModelObserver>(to observer: Observer) -> Bool
}

extension ViewModel: ViewModelBindable {
    func bindIfUnbound<Observer: ViewModelObserver>(to observer: Observer) -> Bool {
        guard !storage.isBound else { return false }
        storage.bind(to: observer)
        return true
    }
}

extension ViewModelObserver {
    /// Binds every `@ViewModel` and `@ViewModels` property whose initial value is not bound yet (found by
    /// reflection, superclasses included). Call it at the end of `init` so that initial values
    /// are observed before anyone reads them. Call on the observer's thread.
    ///
    /// - `initialUpdate: true` (the default): if any property was bound now, calls `updateView()`
    ///   once, synchronously, before returning (the documented initial update, one for all of
    ///   them).
    /// - `initialUpdate: false`: binds without drawing. The first `updateView()` then comes with
    ///   the first change of a bound model, on the scheduler (or when you call it yourself). Use
    ///   it when the observer draws its first frame itself, or cannot draw yet.
    public func bindViewModels(initialUpdate: Bool = true) {
        var boundAny = false
        var mirror: Mirror? = Mirror(reflecting: self)
        while let current = mirror {
            for child in current.children {
                if let bindable = child.value as? any ViewModelBindable {
                    boundAny = bindable.bindIfUnbound(to: self) || boundAny
                }
            }
            mirror = current.superclassMirror
        }
        if boundAny && initialUpdate {
            let coordinator = CoordinatorTable.coordinator(for: self)
            if !coordinator.isUpdating { coordinator.updateNow() }  // never recursively
        }
    }
}
