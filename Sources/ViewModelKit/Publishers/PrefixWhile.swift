extension Publishers {
    /// Republishes values while a predicate holds, then finishes, as Combine's
    /// `Publishers.PrefixWhile`.
    ///
    /// The first value that fails the predicate is not published: upstream is cancelled and the
    /// subscriber gets `.finished`. Demand passes straight through; the predicate runs on the
    /// delivering thread.
    public struct PrefixWhile<Upstream: Publisher>: Publisher {
        /// The upstream output type.
        public typealias Output = Upstream.Output
        /// The upstream failure type.
        public typealias Failure = Upstream.Failure

        /// The upstream publisher.
        public let upstream: Upstream
        /// Returns true to keep republishing.
        public let predicate: (Upstream.Output) -> Bool

        /// Creates the operator.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Subscribes `subscriber`.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let predicate = self.predicate
            upstream.subscribe(
                StepRelay<Output, Failure, S>(downstream: subscriber, name: "PrefixWhile") { value in
                    predicate(value) ? .emit(value) : .finish
                })
        }
    }

    /// `PrefixWhile` with a predicate that may throw, as Combine's `Publishers.TryPrefixWhile`:
    /// a thrown error cancels upstream and fails the stream; an upstream failure is passed on as
    /// `any Error`.
    public struct TryPrefixWhile<Upstream: Publisher>: Publisher {
        /// The upstream output type.
        public typealias Output = Upstream.Output
        /// Any error: the upstream's or one thrown by the predicate.
        public typealias Failure = Error

        /// The upstream publisher.
        public let upstream: Upstream
        /// Returns true to keep republishing; may throw.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Creates the operator.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Subscribes `subscriber`.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let predicate = self.predicate
            upstream.subscribe(
                StepRelay<Output, Upstream.Failure, S>(throwingTo: subscriber, name: "TryPrefixWhile") { value in
                    try predicate(value) ? .emit(value) : .finish
                })
        }
    }
}

extension Publisher {
    /// Republishes values while `predicate` returns true, then finishes, as Combine's
    /// `prefix(while:)`.
    public func prefix(while predicate: @escaping (Output) -> Bool) -> Publishers.PrefixWhile<Self> {
        Publishers.PrefixWhile(upstream: self, predicate: predicate)
    }

    /// `prefix(while:)` with a predicate that may throw, as Combine's `tryPrefix(while:)`.
    public func tryPrefix(while predicate: @escaping (Output) throws -> Bool) -> Publishers.TryPrefixWhile<Self> {
        Publishers.TryPrefixWhile(upstream: self, predicate: predicate)
    }
}
