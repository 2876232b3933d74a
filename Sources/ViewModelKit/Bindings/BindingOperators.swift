// Binding operators: `target <~ source` (input) and `source ~> target` (output), after
// ReactiveSwift and CombineViewModel. The standard library already declares
// `infix operator ~> : DefaultPrecedence`; a second declaration would make every use ambiguous,
// so both operators use that group (not associative; parenthesise when mixing with other
// infix operators).

/// `sink <~ publisher`: feeds the publisher's values into the sink (see `BindingSink`).
/// `publisher ~> sink` (the standard library's `~>` declaration) is the same binding.
infix operator <~ : DefaultPrecedence

/// Subscribes `sink` to `publisher`. The returned token is also stored in the owner's
/// `subscriptions`, so the binding ends with the owner; cancel the token to end it earlier. If the
/// owner is already gone, nothing is subscribed and a cancelled token is returned. Call on the
/// owner's thread (it mutates `subscriptions`).
@discardableResult
public func <~ <Owner, P: Publisher>(sink: BindingSink<Owner, P.Output>, publisher: P) -> AnyCancellable
where P.Failure == Never {
    bind(publisher, to: sink)
}

/// Optional lifting: a non-optional publisher into a sink of optionals (`label.reactive.title
/// <~ names` where `title: String?`). Each value arrives as `.some(value)`.
@discardableResult
public func <~ <Owner, P: Publisher>(sink: BindingSink<Owner, P.Output?>, publisher: P) -> AnyCancellable
where P.Failure == Never {
    guard let lifted = sink.lifted() else { return cancelledToken() }
    return bind(publisher, to: lifted)
}

/// `publisher ~> sink`: the same as `sink <~ publisher`.
@discardableResult
public func ~> <Owner, P: Publisher>(publisher: P, sink: BindingSink<Owner, P.Output>) -> AnyCancellable
where P.Failure == Never {
    bind(publisher, to: sink)
}

/// `publisher ~> sink` with optional lifting: values arrive as `.some(value)`.
@discardableResult
public func ~> <Owner, P: Publisher>(publisher: P, sink: BindingSink<Owner, P.Output?>) -> AnyCancellable
where P.Failure == Never {
    guard let lifted = sink.lifted() else { return cancelledToken() }
    return bind(publisher, to: lifted)
}

private func bind<Owner, P: Publisher>(_ publisher: P, to sink: BindingSink<Owner, P.Output>) -> AnyCancellable
where P.Failure == Never {
    guard let owner = sink.owner else { return cancelledToken() }
    let token = AnyCancellable(sink)
    owner.storeBinding(token)
    publisher.subscribe(sink)
    return token
}

private func cancelledToken() -> AnyCancellable {
    let token = AnyCancellable {}
    token.cancel()
    return token
}
