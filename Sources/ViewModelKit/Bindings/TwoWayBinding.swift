extension BindingOwner {
    /// Binds a model property (typically `@Published`) and a view-side control both ways:
    /// `modelChanges` (for example `model.$text`) drives `viewSink`, and `viewChanges` (what the
    /// user edited) is written to `model[keyPath: keyPath]`.
    ///
    /// - No ping-pong: one shared "last value" filters both directions (a `removeDuplicates`
    ///   across them), so a value that came from one side is not echoed back to it.
    /// - `@Published` replays its current value on subscription, so the view is set at once.
    /// - Lifetimes: the model is held weakly, the owner weakly (through the sinks). The returned
    ///   token is also stored in `subscriptions`; cancel it to end both directions.
    /// - Threads: values are applied on the threads the publishers deliver on; the shared state
    ///   is locked. Bind on the owner's thread.
    @discardableResult
    public func bindTwoWay<Model: AnyObject, Value: Equatable, ModelChanges: Publisher, ViewChanges: Publisher>(
        _ model: Model,
        _ keyPath: ReferenceWritableKeyPath<Model, Value>,
        changes modelChanges: ModelChanges,
        to viewSink: BindingSink<Self, Value>,
        viewChanges: ViewChanges
    ) -> AnyCancellable
    where
        ModelChanges.Output == Value, ModelChanges.Failure == Never,
        ViewChanges.Output == Value, ViewChanges.Failure == Never
    {
        let last = LastValue<Value>()
        let applyToView = viewSink.receiveValue
        weak let weakModel = model
        let toView = BindingSink<Self, Value>(owner: self) { owner, value in
            if last.replace(with: value) { applyToView(owner, value) }
        }
        let toModel = BindingSink<Self, Value>(owner: self) { _, value in
            if last.replace(with: value), let model = weakModel { model[keyPath: keyPath] = value }
        }
        let down = toView <~ modelChanges
        let up = toModel <~ viewChanges
        let token = AnyCancellable {
            down.cancel()
            up.cancel()
        }
        replaceBindings(down, up, with: token)
        return token
    }
}

/// The value last seen by either side of a two-way binding.
private final class LastValue<Value: Equatable>: @unchecked Sendable {
    private let lock = Lock()
    private var value: Value?

    /// Stores `newValue`; false if it equals the stored value (a duplicate to drop).
    func replace(with newValue: Value) -> Bool {
        lock.withLock {
            if value == newValue { return false }
            value = newValue
            return true
        }
    }
}
