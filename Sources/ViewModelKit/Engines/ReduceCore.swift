// The engine of the operators that publish one result when upstream ends (or earlier):
// `first`, `last`, `collect`, `reduce`, `count`, `min`/`max`, `contains`, `allSatisfy`,
// `first(where:)`, `last(where:)` and their `try` forms. As Combine's reducing operators, it asks
// upstream for `.unlimited` as soon as it is subscribed, keeps the result, and hands it over
// (value, then `.finished`; `.finished` alone when there is no result) once the subscriber has
// asked for anything. A failure (upstream's, or
// thrown by the fold in a `try` form) is passed on at once, without demand; a thrown error also
// cancels upstream. `Failure` is the upstream's; `convertFailure` maps it to the downstream's.
final class ReduceCore<Input, Result, Failure: Error, Downstream: Subscriber>: Subscriber, Subscription,
    OperatorIntrospection, @unchecked Sendable
{
    private let lock = Lock()
    /// Nil once the stream has ended for the downstream: nothing more reaches it.
    private var downstream: Downstream?
    /// The downstream, held for the subscription's whole life, after the end too, as Combine's
    /// reducing operators were recorded to hold it (never read).
    private let keptDownstream: Downstream
    private var upstream: Subscription?
    private var accumulated: Result
    private let initial: Result
    private var demanded = false
    private var upstreamDone = false
    private var delivered = false
    private let name: String
    /// Folds a value in; returns true when the result is final (upstream is then cancelled).
    /// A thrown error ends the stream with that failure.
    private let accumulate: (inout Result, Input) throws(Downstream.Failure) -> Bool
    /// The value to publish for the final result, if any.
    private let output: (Result) -> Downstream.Input?
    private let convertFailure: (Failure) -> Downstream.Failure

    init(
        downstream: Downstream, name: String, initial: Result,
        accumulate: @escaping (inout Result, Input) throws(Downstream.Failure) -> Bool,
        output: @escaping (Result) -> Downstream.Input?,
        convertFailure: @escaping (Failure) -> Downstream.Failure
    ) {
        self.downstream = downstream
        self.keptDownstream = downstream
        self.name = name
        self.accumulated = initial
        self.initial = initial
        self.accumulate = accumulate
        self.output = output
        self.convertFailure = convertFailure
    }

    var description: String { name }

    /// As Combine reflects its reducing operators: `downstream`, `result` (so far), `initial` and
    /// `status`; `collect()` shows only the `count` of values it holds.
    var customMirror: Mirror {
        lock.lock()
        let (target, result, status) = (downstream, accumulated, statusName)
        lock.unlock()
        if name == "Collect" {
            return Mirror(self, children: ["count": (result as? any Collection)?.count ?? 0])
        }
        let children: KeyValuePairs<String, Any> = [
            "downstream": target as Any, "result": result, "initial": initial, "status": status,
        ]
        return Mirror(self, children: children)
    }

    /// Where the stream is, for the mirror. Called with `lock` held.
    private var statusName: String {
        if delivered || (upstreamDone && downstream == nil) { return "terminal" }
        if upstreamDone { return "upstreamFinished" }
        return upstream == nil ? "awaitingSubscription" : "subscribed"
    }

    func receive(subscription: Subscription) {
        lock.lock()
        guard upstream == nil, !upstreamDone, let target = downstream else {
            lock.unlock()
            subscription.cancel()
            return
        }
        upstream = subscription
        lock.unlock()
        target.receive(subscription: self)
        // Unless the subscriber cancelled from inside `receive(subscription:)`.
        lock.lock()
        let source = upstream
        lock.unlock()
        source?.request(.unlimited)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        // Before the subscription (a precondition failure in Combine) or after the end: dropped.
        guard !upstreamDone, upstream != nil else {
            lock.unlock()
            return .none
        }
        lock.unlock()
        // The fold runs outside the lock (it is user code). Only the serial receive calls write
        // `accumulated`, and it is read only after `upstreamDone` is set, so it needs no lock.
        let done: Bool
        do {
            done = try accumulate(&accumulated, input)
        } catch {
            fail(error, cancellingUpstream: true)
            return .none
        }
        lock.lock()
        var source: Subscription?
        if done {
            upstreamDone = true
            source = upstream
            upstream = nil
        }
        lock.unlock()
        if done {
            source?.cancel()
            deliverIfReady()
        }
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard !upstreamDone else {
            lock.unlock()
            return
        }
        guard upstream != nil else {
            // Before the subscription (a precondition failure in Combine): dropped, and the
            // stream is over (a later subscription is cancelled, nothing is published).
            upstreamDone = true
            delivered = true
            let target = downstream
            downstream = nil
            lock.unlock()
            withExtendedLifetime(target) {}
            return
        }
        if case .failure(let error) = completion {
            lock.unlock()
            fail(convertFailure(error), cancellingUpstream: false)
            return
        }
        upstreamDone = true
        upstream = nil
        lock.unlock()
        deliverIfReady()
    }

    /// Ends the stream with `error` at once (no demand needed); upstream is cancelled when the
    /// error is the fold's own.
    private func fail(_ error: Downstream.Failure, cancellingUpstream: Bool) {
        lock.lock()
        guard !delivered, let target = downstream else {
            lock.unlock()
            return
        }
        upstreamDone = true
        delivered = true
        downstream = nil
        let source = upstream
        upstream = nil
        lock.unlock()
        if cancellingUpstream { source?.cancel() }
        target.receive(completion: .failure(error))
    }

    func request(_ demand: Subscribers.Demand) {
        guard demand > 0 else { return }
        lock.lock()
        demanded = true
        lock.unlock()
        deliverIfReady()
    }

    private func deliverIfReady() {
        lock.lock()
        guard upstreamDone, !delivered, let target = downstream else {
            lock.unlock()
            return
        }
        // Even with nothing to publish, `.finished` waits for demand, as Combine was recorded.
        guard demanded else {
            lock.unlock()
            return
        }
        let value = output(accumulated)
        delivered = true
        downstream = nil
        lock.unlock()
        if let value { _ = target.receive(value) }
        target.receive(completion: .finished)
    }

    func cancel() {
        lock.lock()
        let source = upstream
        let target = downstream
        upstream = nil
        downstream = nil
        upstreamDone = true
        lock.unlock()
        source?.cancel()
        withExtendedLifetime(target) {}
    }
}

extension ReduceCore where Downstream.Failure == Failure {
    /// A core whose failure type is the upstream's, passed on unchanged.
    convenience init(
        downstream: Downstream, name: String, initial: Result,
        accumulate: @escaping (inout Result, Input) -> Bool,
        output: @escaping (Result) -> Downstream.Input?
    ) {
        self.init(
            downstream: downstream, name: name, initial: initial, accumulate: accumulate, output: output,
            convertFailure: { $0 })
    }
}

extension ReduceCore where Downstream.Failure == any Error {
    /// The core of a `try` form: the fold may throw, and upstream's failure is passed on as
    /// `any Error`.
    convenience init(
        throwingTo downstream: Downstream, name: String, initial: Result,
        accumulate: @escaping (inout Result, Input) throws -> Bool,
        output: @escaping (Result) -> Downstream.Input?
    ) {
        self.init(
            downstream: downstream, name: name, initial: initial, accumulate: accumulate, output: output,
            convertFailure: { $0 })
    }
}

extension ReduceCore where Result == Input?, Downstream.Input == Input, Downstream.Failure == Failure {
    /// The core of `first` (`stopAtFirst`: the first value is final) and `last` (each value
    /// replaces the previous one until upstream finishes): publishes the value kept, if any.
    convenience init(keepingValuesOf downstream: Downstream, name: String, stopAtFirst: Bool) {
        self.init(
            downstream: downstream, name: name, initial: nil,
            accumulate: { result, value in
                result = value
                return stopAtFirst
            },
            output: { $0 })
    }
}
