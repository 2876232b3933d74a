// How a subject's subscription (`Conduit`) shows itself in a mirror, kept apart from the
// delivery code.

extension SubjectCore: CustomStringConvertible {
    /// The subject's name, as a subscription's mirror shows its `parent`.
    @usableFromInline var description: String { name.description }
}

extension Conduit: CustomReflectable {
    /// As Combine reflects a subject's subscription: `parent`, `downstream`, `demand` and
    /// `subject`. `parent` and `subject` are the subject's shared state (described by the
    /// subject's name); `downstream` is the `Sink` when one is attached, otherwise the closure
    /// that calls the subscriber (the conduit keeps no other reference to it, to stay small);
    /// nil once released.
    @usableFromInline var customMirror: Mirror {
        delivery.lock()
        let downstream: Any? = sink.map { $0 as Any } ?? relay.map { $0 as Any }
        delivery.unlock()
        let raw = demand.load(ordering: .relaxed)
        let outstanding: Subscribers.Demand = raw == Int.max ? .unlimited : .max(raw)
        let children: KeyValuePairs<String, Any> = [
            "parent": core, "downstream": downstream as Any, "demand": outstanding, "subject": core,
        ]
        return Mirror(self, children: children)
    }
}
