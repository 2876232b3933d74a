extension Publishers {
    /// Publishes the elements of a sequence, in order, then finishes, as Combine's
    /// `Publishers.Sequence`.
    ///
    /// Each subscriber iterates its own copy of `sequence`, one element per unit of demand. The
    /// completion follows the last element without waiting for more demand; an empty sequence
    /// finishes right after the subscription. Elements are delivered on the thread that calls
    /// `request(_:)` (re-entrant requests from inside `receive(_:)` are folded into the running
    /// loop instead of recursing). `Failure` is only nominal: this publisher never fails.
    public struct Sequence<Elements: Swift.Sequence, Failure: Error>: Publisher {
        /// The element type.
        public typealias Output = Elements.Element

        /// The elements to publish.
        public let sequence: Elements

        /// A publisher of `sequence`'s elements.
        public init(sequence: Elements) {
            self.sequence = sequence
        }

        /// Attaches `subscriber`; see the type's documentation.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            var iterator = sequence.makeIterator()
            guard let first = iterator.next() else {
                subscriber.receive(subscription: Subscriptions.empty)
                subscriber.receive(completion: .finished)
                return
            }
            let inner = SequenceSubscription(downstream: subscriber, iterator: iterator, first: first)
            subscriber.receive(subscription: inner)
        }
    }
}

/// The per-subscriber state of `Publishers.Sequence`.
private final class SequenceSubscription<Downstream: Subscriber, Iterator: IteratorProtocol>:
    Subscription, @unchecked Sendable
where Downstream.Input == Iterator.Element {
    private let lock = Lock()
    private var downstream: Downstream?
    // Touched only by the thread that owns `emitting`.
    private var iterator: Iterator
    private var nextElement: Iterator.Element?
    private var demand = Subscribers.Demand.none
    private var emitting = false

    init(downstream: Downstream, iterator: Iterator, first: Iterator.Element) {
        self.downstream = downstream
        self.iterator = iterator
        self.nextElement = first
    }

    func request(_ more: Subscribers.Demand) {
        lock.lock()
        guard downstream != nil else { return lock.unlock() }
        demand += more
        guard !emitting else { return lock.unlock() }
        emitting = true
        while let target = downstream, demand > 0, let value = nextElement {
            demand -= 1
            lock.unlock()
            // Only the emitting thread touches the iterator, so it is read outside the lock.
            let following = iterator.next()
            nextElement = following
            let extra = target.receive(value)
            lock.lock()
            demand += extra
            if following == nil, downstream != nil {
                downstream = nil
                lock.unlock()
                target.receive(completion: .finished)
                return
            }
        }
        emitting = false
        lock.unlock()
    }

    func cancel() {
        let dropped = lock.withLock { () -> Downstream? in
            defer { downstream = nil }
            return downstream
        }
        _ = dropped
    }
}

extension Sequence {
    /// A publisher of this sequence's elements, as Combine's `Sequence.publisher`.
    public var publisher: Publishers.Sequence<Self, Never> {
        Publishers.Sequence(sequence: self)
    }
}
