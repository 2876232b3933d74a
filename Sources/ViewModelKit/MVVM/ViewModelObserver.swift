/// Something that draws view models and wants one `updateView()` per loop iteration in which any
/// of them changed. Declare its view models with `@ViewModel`. After CombineViewModel's
/// `ViewModelObserver`.
///
/// ```swift
/// @MainActor final class ProfileView: ViewModelObserver {
///     @ViewModel var profile: Profile            // a @MainActor ObservableObject
///     init(profile: Profile) { self.profile = profile }  // binds, draws once
///     func updateView() { print(profile.name) }
/// }
/// ```
///
/// - Isolation: a `@MainActor` class conforms as written (Swift 6 mode, no isolated conformance):
///   `updateView()` is a `@MainActor` requirement. A nonisolated class conforms too; when its
///   updates run off the main thread (a `TestScheduler` advanced from a Swift Testing test, a
///   `DispatchQueue`), write `nonisolated func updateView()` (see `updateView()`).
/// - Coalescing: all `@ViewModel` properties of one observer share one event source on
///   `updateScheduler`, so an observer gets at most one `updateView()` per scheduler turn, however
///   many changes, properties or view models were involved (iteration contract, guarantee 1).
/// - A change made inside `updateView()` gives exactly one more call, on the next turn.
/// - Threads: `updateView()` runs on `updateScheduler` (the main thread for the default
///   `LoopScheduler.main`), plus once synchronously on the thread that assigns a `@ViewModel`.
///   Models may change from any thread (iteration contract, guarantee 4), and no change is lost:
///   `@Published` sends `objectWillChange` *before* it stores (Combine's order), so the observer's
///   event source is signalled on both edges, before the store and after it (through the
///   publisher's internal did-change channel). The two signals merge into one update when no
///   update runs between them; when one does (and so may draw the old value), one more update
///   follows on the next turn. The last update therefore always sees the last stored value.
///   `Observable<Value>` does the same. A model with its own `objectWillChange` should store
///   first and then send (as a thread-safe model does). This is about updates, not memory:
///   reading a `@Published` property while another thread sets it is still a data race on the
///   stored value (as in Combine, and ThreadSanitizer says so); set such properties on one
///   thread at a time, or guard the model's state yourself.
/// - Order: each observer has one event source, created when its first `@ViewModel` binds.
///   `LoopScheduler` and `TestScheduler` service sources by `flushOrder` (from `updateOptions`,
///   default 0), then in creation order. So, by default, observers changed in the same iteration
///   are updated in the order their first `@ViewModel` was bound, whatever the order of the
///   changes. `DispatchQueue` services them in signal order (FIFO blocks).
public protocol ViewModelObserver: AnyObject {
    /// The scheduler whose turns coalesce the updates.
    associatedtype UpdateScheduler: EventSourceScheduler = LoopScheduler

    /// Where `updateView()` is called. Read once, when the observer's first `@ViewModel` binds.
    /// Defaults to `LoopScheduler.main`; tests return a `TestScheduler`.
    var updateScheduler: UpdateScheduler { get }

    /// The options for the observer's event source (for `LoopScheduler`, a `flushOrder` that
    /// ranks this observer among others). Read once, with `updateScheduler`. Default `nil`.
    var updateOptions: UpdateScheduler.SchedulerOptions? { get }

    /// Redraws from the current state of the view models. Called once per scheduler turn in which
    /// any bound view model changed, and once synchronously when a `@ViewModel` is assigned.
    ///
    /// Isolation: declared `@MainActor`, so that a `@MainActor` view (the Swift 6 idiom,
    /// `@MainActor final class V: ViewModelObserver`) conforms as it is, with no isolated
    /// conformance. On `LoopScheduler.main` it is indeed called on the main thread, in the main
    /// loop's iteration. An observer on another scheduler (a `TestScheduler` on a test thread, a
    /// `DispatchQueue`) is called on that scheduler's thread: give it a nonisolated class and
    /// write `nonisolated func updateView()`. Without `nonisolated`, Swift infers `@MainActor`
    /// for the method from this requirement, and the executor checks Swift 6 puts into such
    /// code (in closures it passes to `map`, for example) stop the process off the main thread.
    @MainActor func updateView()
}

/// Calls `observer.updateView()` on the thread the caller is on: the observer's scheduler's
/// thread (the main thread for `LoopScheduler.main`, where this is a real main-actor call). For
/// an observer on another scheduler the requirement's `@MainActor` is not enforced: that thread
/// is the one the observer chose for its updates (see `updateView()`).
///
/// Non-generic on purpose: the generic form, called on an opened existential, allocated two
/// closure contexts and looked up the function types' metadata on every update (about 740
/// instructions per `updateView()` by callgrind, row "4 coalescing, per updateView()"); this
/// one is a capture-less closure cast between two concrete function types, then a witness call.
@inline(__always)
func callUpdateViewOf(_ observer: any ViewModelObserver) {
    // A synchronous @MainActor function has the same calling convention as a nonisolated one;
    // this is what MainActor.assumeIsolated does after its check.
    let call: @MainActor (any ViewModelObserver) -> Void = { $0.updateView() }
    unsafeBitCast(call, to: ((any ViewModelObserver) -> Void).self)(observer)
}

extension ViewModelObserver {
    /// No options: the scheduler's defaults.
    public var updateOptions: UpdateScheduler.SchedulerOptions? { nil }
}

extension ViewModelObserver where UpdateScheduler == LoopScheduler {
    /// The main loop: updates run at the end of a main-loop iteration, on the main thread.
    public var updateScheduler: LoopScheduler { LoopScheduler.main }
}
