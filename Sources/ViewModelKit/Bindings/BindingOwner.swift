/// An object that owns bindings: the `<~` / `~>` operators store their tokens in
/// `subscriptions`, so every binding ends when the owner is deallocated (the set is released and
/// each `AnyCancellable` cancels). After ReactiveSwift's and CombineViewModel's binding owners, but
/// with an explicit stored property instead of Objective-C associated objects.
///
/// ```swift
/// final class Label: BindingOwner {
///     var subscriptions = Set<AnyCancellable>()
///     var text = ""
/// }
/// ```
///
/// Threads: the operators mutate `subscriptions` on the calling thread; bind on the owner's thread.
/// A `@MainActor` owner (a view, the Swift 6 idiom) conforms as it is: the requirement is
/// `@MainActor`. An owner used off the main thread keeps a nonisolated class and, if other code
/// reads `subscriptions` there, declares it `nonisolated var subscriptions` (a non-annotated
/// witness is inferred `@MainActor` from the requirement).
public protocol BindingOwner: AnyObject {
    /// The tokens of the bindings this object owns. Released (and so cancelled) with the object.
    @MainActor var subscriptions: Set<AnyCancellable> { get set }
}

extension BindingOwner {
    /// Stores `token` in `subscriptions`, on the calling thread, which the operators' thread
    /// rule makes the owner's thread: the main actor for a `@MainActor` owner. For an owner on
    /// another thread the requirement's `@MainActor` is not enforced (see the protocol).
    func storeBinding(_ token: AnyCancellable) {
        // A synchronous @MainActor function has the same calling convention as a nonisolated
        // one; this is what MainActor.assumeIsolated does after its check.
        let store: @MainActor (Self) -> Void = { $0.subscriptions.insert(token) }
        unsafeBitCast(store, to: ((Self) -> Void).self)(self)
    }

    /// Replaces the tokens `first` and `second` in `subscriptions` with `combined`; the same
    /// thread rule as `storeBinding`.
    func replaceBindings(_ first: AnyCancellable, _ second: AnyCancellable, with combined: AnyCancellable) {
        let replace: @MainActor (Self) -> Void = {
            $0.subscriptions.remove(first)
            $0.subscriptions.remove(second)
            $0.subscriptions.insert(combined)
        }
        unsafeBitCast(replace, to: ((Self) -> Void).self)(self)
    }
}
