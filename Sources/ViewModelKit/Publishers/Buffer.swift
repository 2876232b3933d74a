extension Publishers {
    /// How `buffer` asks its upstream for values, as Combine's `Publishers.PrefetchStrategy`.
    public enum PrefetchStrategy: Hashable, Sendable {
        /// Ask for `size` values at subscription, then one more for each value handed on.
        case keepFull
        /// Ask for `.unlimited` at subscription, as Combine does for this strategy.
        case byRequest
    }

    /// What `buffer` does with a value that arrives when it is full, as Combine's
    /// `Publishers.BufferingStrategy`.
    public enum BufferingStrategy<Failure: Error> {
        /// Drop the arriving value.
        case dropNewest
        /// Drop the oldest buffered value to make room.
        case dropOldest
        /// Fail the stream with the error the closure returns (upstream is cancelled).
        case customError(() -> Failure)
    }

    /// Holds up to `size` values that the subscriber has not asked for yet, as Combine's
    /// `Publishers.Buffer`.
    ///
    /// Upstream is asked for values at subscription, before the subscriber gets its
    /// subscription (`.max(size)` with `.keepFull`, `.unlimited` with `.byRequest`); with
    /// `.keepFull` each value handed on asks upstream for one more. Values go out in order as the
    /// subscriber's demand allows, on the thread that receives the value or requests the demand
    /// (calls to the subscriber never overlap). `.finished` follows the last buffered value; a
    /// failure (upstream's or `.customError`) is passed on at once and the buffered values are
    /// dropped.
    public struct Buffer<Upstream: Publisher>: Publisher {
        /// The upstream output type.
        public typealias Output = Upstream.Output
        /// The upstream failure type.
        public typealias Failure = Upstream.Failure

        /// The buffered publisher.
        public let upstream: Upstream
        /// The most values held at once.
        public let size: Int
        /// How upstream is asked for values.
        public let prefetch: PrefetchStrategy
        /// What happens to a value that arrives when the buffer is full.
        public let whenFull: BufferingStrategy<Upstream.Failure>

        /// Creates the operator. A negative `size` is treated as zero.
        public init(upstream: Upstream, size: Int, prefetch: PrefetchStrategy, whenFull: BufferingStrategy<Failure>) {
            self.upstream = upstream
            self.size = Swift.max(0, size)
            self.prefetch = prefetch
            self.whenFull = whenFull
        }

        /// Subscribes `subscriber`.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, size: size, prefetch: prefetch, whenFull: whenFull))
        }
    }
}

extension Publishers.Buffer {
    final class Inner<Downstream: Subscriber>: UpstreamRelay<Downstream>, Subscriber, @unchecked Sendable
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        private let size: Int
        private let prefetch: Publishers.PrefetchStrategy
        private let whenFull: Publishers.BufferingStrategy<Failure>
        // Guarded by `lock`. `values[head...]` are the buffered values.
        private var values: [Input] = []
        private var head = 0
        private var demand = Subscribers.Demand.none
        private var upstreamFinished = false
        private var failure: Failure?
        private var terminated = false
        /// One thread at a time delivers (see `drain`).
        private var draining = false
        /// The subscriber has its subscription; nothing is delivered before.
        private var subscribed = false

        init(
            downstream: Downstream, size: Int, prefetch: Publishers.PrefetchStrategy,
            whenFull: Publishers.BufferingStrategy<Failure>
        ) {
            self.size = size
            self.prefetch = prefetch
            self.whenFull = whenFull
            super.init(downstream: downstream, name: "Buffer")
        }

        private var count: Int { values.count - head }

        override func receive(subscription: Subscription) {
            guard attach(subscription) else { return }
            switch prefetch {
            case .keepFull: if size > 0 { subscription.request(.max(size)) }
            case .byRequest: subscription.request(.unlimited)
            }
            downstream?.receive(subscription: self)
            lock.withLock { subscribed = true }
            // What arrived meanwhile (values, a completion, an overflow) goes out now.
            drain()
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            lock.lock()
            // Nothing before the subscription or after the end.
            guard !terminated, !upstreamFinished, failure == nil, upstream != nil else {
                lock.unlock()
                return .none
            }
            var overflow: Failure?
            if count < size {
                values.append(input)
            } else {
                switch whenFull {
                case .dropNewest: break
                case .dropOldest:
                    if count > 0 {
                        head += 1
                        values.append(input)
                    }
                case .customError(let makeError):
                    lock.unlock()
                    overflow = makeError()
                    lock.lock()
                }
            }
            if let overflow, failure == nil, !terminated {
                failure = overflow
                let source = upstream
                upstream = nil
                relayClosed = true
                lock.unlock()
                source?.cancel()
            } else {
                lock.unlock()
            }
            drain()
            return .none
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            lock.lock()
            guard !terminated, !upstreamFinished, failure == nil, upstream != nil else {
                relayClosed = true
                return lock.unlock()
            }
            upstream = nil
            relayClosed = true
            switch completion {
            case .finished: upstreamFinished = true
            case .failure(let error): failure = error
            }
            lock.unlock()
            drain()
        }

        override func request(_ more: Subscribers.Demand) {
            guard more > 0 else { return }
            let source = lock.withLock { () -> Subscription? in
                demand += more
                return prefetch == .byRequest ? upstream : nil
            }
            // `.byRequest` passes the subscriber's requests on, as Combine does (upstream was
            // already asked for `.unlimited`, so this changes nothing but the call log).
            source?.request(more)
            drain()
        }

        override func cancel() {
            releaseDownstream()
            let source = lock.withLock { () -> Subscription? in
                terminated = true
                values = []
                head = 0
                defer {
                    upstream = nil
                    relayClosed = true
                }
                return upstream
            }
            source?.cancel()
        }

        /// Hands on what the demand allows, then the completion once it is due. Whoever finds
        /// nobody draining drains; others leave their work (already recorded) to it.
        private func drain() {
            lock.lock()
            guard subscribed, !draining else { return lock.unlock() }
            draining = true
            while !terminated {
                if let error = failure {
                    terminate()
                    complete(.failure(error))
                    return
                }
                if demand > 0, count > 0 {
                    let value = values[head]
                    head += 1
                    if head > 32, head * 2 > values.count {
                        values.removeFirst(head)
                        head = 0
                    }
                    demand -= 1
                    let source = prefetch == .keepFull ? upstream : nil
                    lock.unlock()
                    let extra = downstream?.receive(value) ?? .none
                    source?.request(.max(1))
                    lock.lock()
                    demand += extra
                    continue
                }
                if upstreamFinished, count == 0 {
                    terminate()
                    complete(.finished)
                    return
                }
                break
            }
            draining = false
            lock.unlock()
        }

        /// Called with `lock` held; leaves it released and the stream ended.
        private func terminate() {
            terminated = true
            values = []
            head = 0
            lock.unlock()
        }
    }
}

extension Publisher {
    /// Buffers up to `size` values the subscriber has not asked for yet, as Combine's
    /// `buffer(size:prefetch:whenFull:)`. See `Publishers.Buffer`.
    public func buffer(
        size: Int, prefetch: Publishers.PrefetchStrategy, whenFull: Publishers.BufferingStrategy<Failure>
    ) -> Publishers.Buffer<Self> {
        Publishers.Buffer(upstream: self, size: size, prefetch: prefetch, whenFull: whenFull)
    }
}
