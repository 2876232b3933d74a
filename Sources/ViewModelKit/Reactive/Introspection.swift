// How Combine's subscribers and operator subscriptions show themselves: a fixed name as their
// `description` and, the same name, as their `playgroundDescription`; a `customMirror` with the
// children Combine reflects (none for most operators). These are read only when someone prints,
// dumps or inspects a subscription: nothing on the value path touches them.

/// An operator's subscriber or subscription that introspects as Combine's: `playgroundDescription`
/// is its `description` (the operator's name, e.g. `"Map"`), and its mirror has no children
/// unless the conformer says otherwise. Read-only and safe from any thread.
@usableFromInline
protocol OperatorIntrospection: CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible {}

extension OperatorIntrospection {
    /// The operator's name, as Combine shows it in a playground.
    @usableFromInline var playgroundDescription: Any { description }

    /// No children, as Combine reflects most operators' subscriptions.
    @usableFromInline var customMirror: Mirror { Mirror(self, children: [:]) }
}
