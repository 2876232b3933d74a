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
public protocol BindingOwner: AnyObject {
    /// The tokens of the bindings this object owns. Released (and so cancelled) with the object.
    var subscriptions: Set<AnyCancellable> { get set }
}
