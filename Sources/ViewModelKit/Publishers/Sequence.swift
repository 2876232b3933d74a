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
            let inner = SequenceSubscription(
                downstream: subscriber, sequence: sequence, iterator: iterator, first: first)
            subscriber.receive(subscription: inner)
        }
    }
}

/// The per-subscriber state of `Publishers.Sequence`. As Combine's, it describes itself as the
/// sequence does (`"[1, 2, 3]"`, `"1...5"`) and reflects it as its one child, `sequence`.
private final class SequenceSubscription<Downstream: Subscriber, Elements: Sequence>:
    Subscription, OperatorIntrospection, @unchecked Sendable
where Downstream.Input == Elements.Element {
    typealias Iterator = Elements.Iterator
    private let lock = Lock()
    /// The sequence published, for the description and the mirror only.
    private let sequence: Elements
    private var downstream: Downstream?
    // Touched only by the thread that owns `emitting`.
    private var iterator: Iterator
    private var nextElement: Iterator.Element?
    private var demand = Subscribers.Demand.none
    private var emitting = false

    init(downstream: Downstream, sequence: Elements, iterator: Iterator, first: Iterator.Element) {
        self.downstream = downstream
        self.sequence = sequence
        self.iterator = iterator
        self.nextElement = first
    }

    var description: String { String(describing: sequence) }

    var customMirror: Mirror { Mirror(self, children: ["sequence": sequence]) }

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
