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

/// A subscription's name carried as a type, for a subscription class shared by several
/// publishers: the name costs no stored field (some of these are allocated once per value).
protocol SubscriptionName {
    /// The name Combine gives this publisher's subscription.
    static var name: String { get }
}

/// `Just`'s subscription.
enum JustSubscriptionName: SubscriptionName { static var name: String { "Just" } }
/// `Optional.Publisher`'s subscription for a value.
enum OptionalSubscriptionName: SubscriptionName { static var name: String { "Optional" } }
/// `Result.Publisher`'s subscription for a success (Combine's `Once`).
enum OnceSubscriptionName: SubscriptionName { static var name: String { "Once" } }
