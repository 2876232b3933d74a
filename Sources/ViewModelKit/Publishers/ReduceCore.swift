// The engine of the operators that publish one result when upstream ends (or earlier):
// `first`, `last`, `collect`. As Combine's reducing operators, it asks upstream for `.unlimited`
// as soon as it is subscribed, keeps the result, and hands it over (value, then `.finished`) once
// the subscriber has asked for anything. A failure is passed on at once, without demand.
final class ReduceCore<Input, Result, Failure: Error, Downstream: Subscriber>: Subscriber, Subscription,
    CustomStringConvertible, @unchecked Sendable
where Downstream.Failure == Failure {
    private let lock = Lock()
    private var downstream: Downstream?
    private var upstream: Subscription?
    private var accumulated: Result
    private var demanded = false
    private var upstreamDone = false
    private var delivered = false
    private let name: String
    /// Folds a value in; returns true when the result is final (upstream is then cancelled).
    private let accumulate: (inout Result, Input) -> Bool
    /// The value to publish for the final result, if any.
    private let output: (Result) -> Downstream.Input?

    init(
        downstream: Downstream, name: String, initial: Result,
        accumulate: @escaping (inout Result, Input) -> Bool,
        output: @escaping (Result) -> Downstream.Input?
    ) {
        self.downstream = downstream
        self.name = name
        self.accumulated = initial
        self.accumulate = accumulate
        self.output = output
    }

    var description: String { name }

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
        guard !upstreamDone else {
            lock.unlock()
            return .none
        }
        lock.unlock()
        // The fold runs outside the lock (it is user code). Only the serial receive calls write
        // `accumulated`, and it is read only after `upstreamDone` is set, so it needs no lock.
        let done = accumulate(&accumulated, input)
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
        upstreamDone = true
        upstream = nil
        if case .failure(let error) = completion {
            let target = downstream
            downstream = nil
            delivered = true
            lock.unlock()
            target?.receive(completion: .failure(error))
            return
        }
        lock.unlock()
        deliverIfReady()
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
        let value = output(accumulated)
        // With nothing to publish, `.finished` needs no demand.
        guard demanded || value == nil else {
            lock.unlock()
            return
        }
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

extension ReduceCore where Result == Input?, Downstream.Input == Input {
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
