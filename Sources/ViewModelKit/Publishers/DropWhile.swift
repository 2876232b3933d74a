extension Publishers {
    /// Omits values while a predicate holds, then republishes everything, as Combine's
    /// `Publishers.DropWhile`.
    ///
    /// The predicate is called until it first returns false; that value and all later ones are
    /// published. Each omitted value asks upstream for one more, so the subscriber's demand
    /// counts only values it receives. Completion passes through.
    public struct DropWhile<Upstream: Publisher>: Publisher {
        /// The upstream output type.
        public typealias Output = Upstream.Output
        /// The upstream failure type.
        public typealias Failure = Upstream.Failure

        /// The upstream publisher.
        public let upstream: Upstream
        /// Returns true to keep omitting; called on the delivering thread.
        public let predicate: (Upstream.Output) -> Bool

        /// Creates the operator.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Subscribes `subscriber`.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let predicate = self.predicate
            var dropping = true
            upstream.subscribe(
                StepRelay<Output, Failure, S>(downstream: subscriber, name: "DropWhile") { value in
                    if dropping, predicate(value) { return .skip }
                    dropping = false
                    return .emit(value)
                })
        }
    }

    /// `DropWhile` with a predicate that may throw, as Combine's `Publishers.TryDropWhile`: a
    /// thrown error cancels upstream and fails the stream; an upstream failure is passed on as
    /// `any Error`.
    public struct TryDropWhile<Upstream: Publisher>: Publisher {
        /// The upstream output type.
        public typealias Output = Upstream.Output
        /// Any error: the upstream's or one thrown by the predicate.
        public typealias Failure = Error

        /// The upstream publisher.
        public let upstream: Upstream
        /// Returns true to keep omitting; may throw.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Creates the operator.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Subscribes `subscriber`.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let predicate = self.predicate
            var dropping = true
            upstream.subscribe(
                StepRelay<Output, Upstream.Failure, S>(throwingTo: subscriber, name: "TryDropWhile") { value in
                    if dropping, try predicate(value) { return .skip }
                    dropping = false
                    return .emit(value)
                })
        }
    }
}

extension Publisher {
    /// Omits values until `predicate` first returns false, as Combine's `drop(while:)`.
    public func drop(while predicate: @escaping (Output) -> Bool) -> Publishers.DropWhile<Self> {
        Publishers.DropWhile(upstream: self, predicate: predicate)
    }

    /// `drop(while:)` with a predicate that may throw, as Combine's `tryDrop(while:)`.
    public func tryDrop(while predicate: @escaping (Output) throws -> Bool) -> Publishers.TryDropWhile<Self> {
        Publishers.TryDropWhile(upstream: self, predicate: predicate)
    }
}
