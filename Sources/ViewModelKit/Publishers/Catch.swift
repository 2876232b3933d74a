extension Publishers {
    /// Replaces a failed upstream with the publisher `handler` returns for the error, as
    /// Combine's `Publishers.Catch`.
    ///
    /// Values pass through untouched. On failure, `handler` is called (on the failing thread,
    /// outside any lock) and its publisher is subscribed with the downstream's remaining demand;
    /// its values and completion end the stream.
    public struct Catch<Upstream: Publisher, NewPublisher: Publisher>: Publisher
    where Upstream.Output == NewPublisher.Output {
        /// The common output type.
        public typealias Output = Upstream.Output
        /// The failure of the replacement publisher.
        public typealias Failure = NewPublisher.Failure

        /// The publisher whose failure is caught.
        public let upstream: Upstream
        /// Builds the replacement publisher from the error.
        public let handler: (Upstream.Failure) -> NewPublisher

        /// Catches `upstream`'s failure with `handler`.
        public init(upstream: Upstream, handler: @escaping (Upstream.Failure) -> NewPublisher) {
            self.upstream = upstream
            self.handler = handler
        }

        /// Attaches `subscriber`.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let handler = self.handler
            subscribeRelay(
                subscriber, name: "Catch", first: upstream,
                then: { completion -> RelayStep<NewPublisher, Failure> in
                    switch completion {
                    case .finished: .end(.finished)
                    case .failure(let error): .then(handler(error))
                    }
                }, failure: { $0 })
        }
    }

    /// As `Catch`, but `handler` may throw: the thrown error ends the stream, as Combine's
    /// `Publishers.TryCatch`. Failure is `any Error`.
    public struct TryCatch<Upstream: Publisher, NewPublisher: Publisher>: Publisher
    where Upstream.Output == NewPublisher.Output {
        /// The common output type.
        public typealias Output = Upstream.Output
        /// Any error: the replacement's failure or the one `handler` threw.
        public typealias Failure = any Error

        /// The publisher whose failure is caught.
        public let upstream: Upstream
        /// Builds the replacement publisher from the error, or throws to fail the stream.
        public let handler: (Upstream.Failure) throws -> NewPublisher

        /// Catches `upstream`'s failure with `handler`.
        public init(upstream: Upstream, handler: @escaping (Upstream.Failure) throws -> NewPublisher) {
            self.upstream = upstream
            self.handler = handler
        }

        /// Attaches `subscriber`.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let handler = self.handler
            subscribeRelay(
                subscriber, name: "TryCatch", first: upstream,
                then: { completion -> RelayStep<NewPublisher, Failure> in
                    guard case .failure(let error) = completion else { return .end(.finished) }
                    do {
                        return .then(try handler(error))
                    } catch {
                        return .end(.failure(error))
                    }
                }, failure: { $0 })
        }
    }
}

extension Publisher {
    /// Replaces a failure with the publisher `handler` builds from the error, as Combine's
    /// `catch(_:)`. See `Publishers.Catch`.
    public func `catch`<P: Publisher>(_ handler: @escaping (Failure) -> P) -> Publishers.Catch<Self, P>
    where P.Output == Output {
        Publishers.Catch(upstream: self, handler: handler)
    }

    /// Replaces a failure with the publisher `handler` builds, or fails with what it throws, as
    /// Combine's `tryCatch(_:)`. See `Publishers.TryCatch`.
    public func tryCatch<P: Publisher>(_ handler: @escaping (Failure) throws -> P) -> Publishers.TryCatch<Self, P>
    where P.Output == Output {
        Publishers.TryCatch(upstream: self, handler: handler)
    }
}
