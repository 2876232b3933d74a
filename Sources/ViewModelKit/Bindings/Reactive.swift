/// The `reactive` namespace of a binding owner: binding targets for its properties, after
/// ReactiveSwift's `Reactive<Base>`.
///
/// Any writable property is a target through dynamic member lookup
/// (`label.reactive.text <~ names`). Add named targets in an extension:
///
/// ```swift
/// extension Reactive where Base: Label {
///     var text: BindingSink<Base, String> { BindingSink(owner: base) { $0.setText($1) } }
/// }
/// ```
@dynamicMemberLookup
public struct Reactive<Base: BindingOwner> {
    /// The owner the targets write to (held strongly by this short-lived value only; the sinks
    /// hold it weakly).
    public let base: Base

    /// The namespace for `base`; usually reached through `base.reactive`.
    public init(_ base: Base) {
        self.base = base
    }

    /// A fresh sink that assigns each value to `base[keyPath:]`.
    public subscript<Value>(dynamicMember keyPath: ReferenceWritableKeyPath<Base, Value>) -> BindingSink<Base, Value> {
        BindingSink(owner: base) { owner, value in owner[keyPath: keyPath] = value }
    }
}

extension BindingOwner {
    /// Binding targets for this object's properties; see `Reactive`.
    public var reactive: Reactive<Self> { Reactive(self) }
}
