extension Publishers {
    /// Shares one upstream subscription among many subscribers through a subject, as Combine's
    /// `Publishers.Multicast`.
    ///
    /// Subscribers attach to the subject (made once, lazily, by `createSubject`). Nothing flows
    /// until `connect()` subscribes the subject to the upstream; cancelling the returned token
    /// cancels that upstream subscription. Each `connect()` call makes a new upstream
    /// subscription into the same subject. Delivery, demand and late-subscriber rules are the
    /// subject's (a `PassthroughSubject` drops values for subscribers without demand).
    public final class Multicast<Upstream: Publisher, SubjectType: Subject>: ConnectablePublisher, @unchecked Sendable
    where Upstream.Output == SubjectType.Output, Upstream.Failure == SubjectType.Failure {
        /// The upstream's output.
        public typealias Output = Upstream.Output
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The shared publisher.
        public let upstream: Upstream
        /// Makes the subject, once, on first use.
        public let createSubject: () -> SubjectType

        private let lock = Lock()
        private var madeSubject: SubjectType?

        /// Multicasts `upstream` through the subject `createSubject` returns.
        public init(upstream: Upstream, createSubject: @escaping () -> SubjectType) {
            self.upstream = upstream
            self.createSubject = createSubject
        }

        private var subject: SubjectType {
            if let existing = lock.withLock({ madeSubject }) { return existing }
            let fresh = createSubject()
            return lock.withLock {
                if let existing = madeSubject { return existing }
                madeSubject = fresh
                return fresh
            }
        }

        /// Attaches `subscriber` to the subject.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            subject.subscribe(subscriber)
        }

        /// Subscribes the subject to the upstream; cancel the token to disconnect.
        public func connect() -> Cancellable {
            upstream.subscribe(subject)
        }
    }
}

extension Publisher {
    /// Shares this publisher through the subject `createSubject` makes (once, lazily), as
    /// Combine's `multicast(_:)`. Call `connect()` or `autoconnect()` to start.
    public func multicast<S: Subject>(_ createSubject: @escaping () -> S) -> Publishers.Multicast<Self, S>
    where S.Output == Output, S.Failure == Failure {
        Publishers.Multicast(upstream: self, createSubject: createSubject)
    }

    /// Shares this publisher through `subject`, as Combine's `multicast(subject:)`. Call
    /// `connect()` or `autoconnect()` to start.
    public func multicast<S: Subject>(subject: S) -> Publishers.Multicast<Self, S>
    where S.Output == Output, S.Failure == Failure {
        Publishers.Multicast(upstream: self, createSubject: { subject })
    }
}
