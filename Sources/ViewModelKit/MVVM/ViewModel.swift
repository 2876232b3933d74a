/// Declares a view model of a `ViewModelObserver`: changes of the model lead to one coalesced
/// `updateView()` of the observer per scheduler turn (CombineViewModel's `@ViewModel`, with
/// default values, reassignment and Swift Observation support added).
///
/// ```swift
/// @MainActor final class CounterView: ViewModelObserver {
///     @ViewModel var counter: Counter
///     init(counter: Counter) {
///         self.counter = counter  // binds now and draws once: updateView() has run
///     }
///     func updateView() { print(counter.value) }
/// }
/// ```
///
/// **When a `@ViewModel` binds (the one rule).** It binds as soon as the observer can be reached,
/// which is when the property is *assigned* or *read* through the observer, or when
/// `bindViewModels()` runs:
/// - Declared without a value (`@ViewModel var counter: Counter`, CombineViewModel's form), it
///   is assigned in `init` once every stored property is set (after `super.init` in a subclass).
///   That assignment binds at once and calls `updateView()` once, synchronously, before `init`
///   goes on, so the observer is drawn and bound even if nothing ever reads the property. An
///   assignment also binds every other `@ViewModel`/`@ViewModels` of the observer; while one is
///   still unassigned the synchronous update waits for the assignment that completes the set
///   (and there is one update on the next turn at the latest). Reading the property before it is
///   assigned is a programming error and traps with a message.
/// - With a default value (`@ViewModel var counter = Counter()`), the value is stored before the
///   observer exists, so nothing can bind it then: it binds with the first assignment of another
///   `@ViewModel` (above), with `bindViewModels()` at the end of `init` (one initial update;
///   `bindViewModels(initialUpdate: false)` for none), or at its first read, with the initial
///   update then. An observer whose view models all have default values must call
///   `bindViewModels()` in `init` if anything other than a read is to draw it. Swift runs no
///   code of a property wrapper once its enclosing instance exists, so nothing can bind such an
///   observer by itself; instead the mistake is made loud: if an unbound default model (an
///   `ObservableObject`) changes, ViewModelKit writes one line to stderr naming the declaration
///   (`File.swift:line`) and the fix, once per declaration.
///
/// Further behaviour:
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
/// - Reassignment (`view.counter = other`) cancels the old subscription, binds the new model and
///   calls `updateView()` once, synchronously. A change of the old model still pending gives no
///   further update; later changes of the old model give none. An assignment made inside the
///   observer's own `updateView()` does not call it recursively: it gives exactly one more update
///   on the next turn, like any change made there.
/// - One coordinator per observer: all `@ViewModel` and `@ViewModels` properties share one event
///   source, so the observer gets one update per turn whichever of them changed. For a
///   collection of models, see `ViewModels`.
/// - Lifetimes: the wrapper owns its model. Nothing retains the observer; when it dies, its
///   wrappers cancel their subscriptions and a pending update calls nothing.
/// - Threads: read and assign the property on the observer's thread (the scheduler's; the main
///   actor for a `@MainActor` observer).
@propertyWrapper
public struct ViewModel<Model: AnyObject> {
    @usableFromInline let storage: ViewModelStorage<Model>

    /// No model yet: assign one in the observer's `init` (CombineViewModel's form), which binds
    /// and draws once, at once. Reading before the assignment traps.
    public init() {
        storage = ViewModelStorage(model: nil)
    }

    /// Stores a default value; it binds with `bindViewModels()`, the first assignment of another
    /// `@ViewModel` of the observer, or its own first read (see the type's documentation).
    ///
    /// `file` and `line` name the declaration in the report made if the model changes while the
    /// property is still unbound (see the type's documentation); leave them to their defaults.
    public init(wrappedValue: Model, file: StaticString = #fileID, line: UInt = #line) {
        storage = ViewModelStorage(model: wrappedValue)
        storage.watch = UnboundDefaultWatch(
            models: [wrappedValue], declaration: "@ViewModel \(Model.self)", file: file, line: line)
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
    /// default value (with its initial update); an assignment binds (the observer's other
    /// wrappers too) and updates once. Traps when read before it was ever given a model.
    public static subscript<EnclosingSelf: ViewModelObserver>(
        _enclosingInstance observer: EnclosingSelf,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Model>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, ViewModel<Model>>
    ) -> Model {
        // Inlinable so that the read `updateView()` makes of its models compiles, in the user's
        // module, to a field load and one call: the key path is a literal there and folds to the
        // stored property. Out of line it went through `swift_getAtKeyPath` (about 1,000
        // instructions per read by callgrind, row "4 coalescing, per updateView()"). A bound
        // model is one more field load there (`boundModel`); the rest stays behind the
        // non-inlined `read(from:)`, a generic call that cost about 90 instructions per read.
        @inlinable get {
            let storage = observer[keyPath: storageKeyPath].storage
            if let model = storage.boundModel { return model }
            return storage.read(from: observer)
        }
        set {
            observer[keyPath: storageKeyPath].storage.assign(newValue, observer: observer)
        }
    }

    /// `$property`: the model's did-change publisher on the observer's `updateScheduler`
    /// (see `ViewModelPublisher`). Reading it binds an unbound default value.
    public static subscript<EnclosingSelf: ViewModelObserver>(
        _enclosingInstance observer: EnclosingSelf,
        projected projectedKeyPath: KeyPath<EnclosingSelf, ViewModelPublisher<Model>>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, ViewModel<Model>>
    ) -> ViewModelPublisher<Model> {
        let storage = observer[keyPath: storageKeyPath].storage
        storage.bindIfNeeded(to: observer)
        return ViewModelPublisher(
            model: storage.currentModel(of: EnclosingSelf.self), scheduler: observer.updateScheduler)
    }
}

/// The state behind one `@ViewModel` property: the model (none until the first assignment for
/// a property declared without a value), its subscription and the observer's shared coordinator
/// (through its lease, held strongly, so updates go on exactly as long as the observer's
/// wrappers live). Used on
/// the observer's thread only.
@usableFromInline
final class ViewModelStorage<Model: AnyObject> {
    private(set) var model: Model?
    /// `model` once bound (nil before): what the inlined getter returns without a call.
    /// Unchecked exclusivity: observer's thread only, and each access is a single load or store.
    @usableFromInline @exclusivity(unchecked) private(set) var boundModel: Model?
    // The observer's `CoordinatorLease` (type-erased): held strongly, it keeps the coordinator's
    // updates going exactly as long as the observer's wrappers live.
    private var coordinator: AnyObject?
    private var subscription: AnyCancellable?
    private var bound = false
    // Reports a change of an unbound default value; ended by the first bind.
    var watch: UnboundDefaultWatch?

    init(model: Model?) {
        self.model = model
    }

    /// The wrapped property's getter: the model, bound first if it is an unbound default value
    /// (with its initial update). Traps with a message if the property was never given one.
    @usableFromInline
    func read<Observer: ViewModelObserver>(from observer: Observer) -> Model {
        if bound, let model { return model }
        bindIfNeeded(to: observer)
        return currentModel(of: Observer.self)
    }

    /// The model; traps with a message if the property was never given one.
    func currentModel<Observer>(of observer: Observer.Type) -> Model {
        guard let model else {
            preconditionFailure(
                "@ViewModel property of \(Observer.self) (\(Model.self)) read before it was assigned: "
                    + "assign it in init, once every stored property is set")
        }
        return model
    }

    /// Binds a default value on first access, with its initial update (none when the first
    /// access is inside `updateView()`, which is drawing it right now). An unassigned property
    /// has nothing to bind.
    func bindIfNeeded<Observer: ViewModelObserver>(to observer: Observer) {
        guard !bound, model != nil else { return }
        let coordinator = bind(to: observer)
        if !coordinator.isUpdating { coordinator.updateNow() }
    }

    /// Assignment: the old subscription goes, the new model binds, and so does every other
    /// wrapper of the observer not bound yet; then one synchronous update (one on the next turn
    /// when assigned inside `updateView()`, or while another `@ViewModel` is still unassigned).
    func assign<Observer: ViewModelObserver>(_ newModel: Model, observer: Observer) {
        model = newModel
        bind(to: observer).updateAfterAssignment(in: observer)
    }

    /// Binds without updating (used by `bindViewModels()`, which updates once at the end).
    @discardableResult
    func bind<Observer: ViewModelObserver>(to observer: Observer) -> UpdateCoordinator<Observer.UpdateScheduler> {
        let lease = CoordinatorTable.lease(for: observer)
        let shared = lease.coordinator
        let old = subscription
        old?.cancel()
        coordinator = lease
        if let model { subscription = shared.bind(model) }
        bound = true
        boundModel = model
        if let watch {
            watch.end()
            self.watch = nil
        }
        return shared
    }

    var isBound: Bool { bound }
    var isAssigned: Bool { model != nil }
}

extension UpdateCoordinator {
    /// After an assignment bound a wrapper of `observer`: binds its other wrappers not bound yet,
    /// then the synchronous update (one on the next turn inside `updateView()`), or, while a
    /// wrapper declared without a value is still unassigned, one on the next turn unless the
    /// assignment completing the set draws first.
    func updateAfterAssignment<Observer: ViewModelObserver>(in observer: Observer) {
        if !wrappersComplete {
            if observer.bindUnboundViewModels().unassigned {
                markDirty()
                return
            }
            wrappersComplete = true
        }
        updateAfterRebind()
    }
}

/// Lets `bindViewModels()` reach the storages it finds by reflection.
protocol ViewModelBindable {
    /// Binds if not yet bound, without an update; returns true if it bound now.
    func bindIfUnbound<Observer: ViewModelObserver>(to observer: Observer) -> Bool
    /// False for a `@ViewModel` declared without a value and not assigned yet.
    var isAssigned: Bool { get }
}

extension ViewModel: ViewModelBindable {
    func bindIfUnbound<Observer: ViewModelObserver>(to observer: Observer) -> Bool {
        guard !storage.isBound, storage.isAssigned else { return false }
        storage.bind(to: observer)
        return true
    }

    var isAssigned: Bool { storage.isAssigned }
}

extension ViewModelObserver {
    /// Binds every `@ViewModel` and `@ViewModels` property whose default value is not bound yet
    /// (found by reflection, superclasses included). Call it at the end of `init` when the
    /// observer's view models have default values (`@ViewModel var m = M()`) and none is assigned
    /// in `init`; see `ViewModel` for the rule. Call on the observer's thread.
    ///
    /// - `initialUpdate: true` (the default): if any property was bound now, calls `updateView()`
    ///   once, synchronously, before returning (the documented initial update, one for all of
    ///   them). While a `@ViewModel` declared without a value is still unassigned, that update
    ///   waits for its assignment instead (or the next turn).
    /// - `initialUpdate: false`: binds without drawing. The first `updateView()` then comes with
    ///   the first change of a bound model, on the scheduler (or when you call it yourself). Use
    ///   it when the observer draws its first frame itself, or cannot draw yet.
    public func bindViewModels(initialUpdate: Bool = true) {
        let (boundAny, unassigned) = bindUnboundViewModels()
        guard boundAny && initialUpdate else { return }
        // The storages just bound hold the lease; this reference only keeps it for the call.
        let lease = CoordinatorTable.lease(for: self)
        let coordinator = lease.coordinator
        defer { withExtendedLifetime(lease) {} }
        if unassigned {
            coordinator.markDirty()
        } else if !coordinator.isUpdating {
            coordinator.updateNow()  // never recursively
        }
    }

    /// Binds every wrapper not bound yet, without updating; says whether any bound now and
    /// whether any `@ViewModel` is still unassigned.
    func bindUnboundViewModels() -> (boundAny: Bool, unassigned: Bool) {
        var boundAny = false
        var unassigned = false
        var mirror: Mirror? = Mirror(reflecting: self)
        while let current = mirror {
            for child in current.children {
                if let bindable = child.value as? any ViewModelBindable {
                    boundAny = bindable.bindIfUnbound(to: self) || boundAny
                    if !bindable.isAssigned { unassigned = true }
                }
            }
            mirror = current.superclassMirror
        }
        return (boundAny, unassigned)
    }
}
