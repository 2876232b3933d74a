extension Publishers {
    /// Publishes the value of a key path of each upstream value, as Combine's
    /// `Publishers.MapKeyPath` (from `map(_:)` with one key path). Demand, threads and
    /// completion are upstream's.
    public struct MapKeyPath<Upstream: Publisher, Output>: Publisher {
        /// The upstream failure type.
        public typealias Failure = Upstream.Failure

        /// The upstream publisher.
        public let upstream: Upstream
        /// The key path read from each value.
        public let keyPath: KeyPath<Upstream.Output, Output>

        /// Creates the operator.
        public init(upstream: Upstream, keyPath: KeyPath<Upstream.Output, Output>) {
            self.upstream = upstream
            self.keyPath = keyPath
        }

        /// Subscribes `subscriber`.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let keyPath = self.keyPath
            upstream.subscribe(Publishers.Map<Upstream, Output>.Inner(downstream: subscriber) { $0[keyPath: keyPath] })
        }
    }

    /// Publishes the values of two key paths of each upstream value as a tuple, as Combine's
    /// `Publishers.MapKeyPath2`.
    public struct MapKeyPath2<Upstream: Publisher, Output0, Output1>: Publisher {
        /// The two values read.
        public typealias Output = (Output0, Output1)
        /// The upstream failure type.
        public typealias Failure = Upstream.Failure

        /// The upstream publisher.
        public let upstream: Upstream
        /// The first key path.
        public let keyPath0: KeyPath<Upstream.Output, Output0>
        /// The second key path.
        public let keyPath1: KeyPath<Upstream.Output, Output1>

        /// Creates the operator.
        public init(
            upstream: Upstream, keyPath0: KeyPath<Upstream.Output, Output0>, keyPath1: KeyPath<Upstream.Output, Output1>
        ) {
            self.upstream = upstream
            self.keyPath0 = keyPath0
            self.keyPath1 = keyPath1
        }

        /// Subscribes `subscriber`.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let (path0, path1) = (keyPath0, keyPath1)
            upstream.subscribe(
                Publishers.Map<Upstream, Output>.Inner(downstream: subscriber) {
                    ($0[keyPath: path0], $0[keyPath: path1])
                })
        }
    }

    /// Publishes the values of three key paths of each upstream value as a tuple, as Combine's
    /// `Publishers.MapKeyPath3`.
    public struct MapKeyPath3<Upstream: Publisher, Output0, Output1, Output2>: Publisher {
        /// The three values read.
        public typealias Output = (Output0, Output1, Output2)
        /// The upstream failure type.
        public typealias Failure = Upstream.Failure

        /// The upstream publisher.
        public let upstream: Upstream
        /// The first key path.
        public let keyPath0: KeyPath<Upstream.Output, Output0>
        /// The second key path.
        public let keyPath1: KeyPath<Upstream.Output, Output1>
        /// The third key path.
        public let keyPath2: KeyPath<Upstream.Output, Output2>

        /// Creates the operator.
        public init(
            upstream: Upstream, keyPath0: KeyPath<Upstream.Output, Output0>,
            keyPath1: KeyPath<Upstream.Output, Output1>,
            keyPath2: KeyPath<Upstream.Output, Output2>
        ) {
            self.upstream = upstream
            self.keyPath0 = keyPath0
            self.keyPath1 = keyPath1
            self.keyPath2 = keyPath2
        }

        /// Subscribes `subscriber`.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let (path0, path1, path2) = (keyPath0, keyPath1, keyPath2)
            upstream.subscribe(
                Publishers.Map<Upstream, Output>.Inner(downstream: subscriber) {
                    ($0[keyPath: path0], $0[keyPath: path1], $0[keyPath: path2])
                })
        }
    }
}

extension Publisher {
    /// Publishes the value of `keyPath` of each value, as Combine's `map(_:)` with a key path.
    public func map<T>(_ keyPath: KeyPath<Output, T>) -> Publishers.MapKeyPath<Self, T> {
        Publishers.MapKeyPath(upstream: self, keyPath: keyPath)
    }

    /// Publishes the values of two key paths of each value, as Combine's `map(_:_:)`.
    public func map<T0, T1>(_ keyPath0: KeyPath<Output, T0>, _ keyPath1: KeyPath<Output, T1>)
        -> Publishers.MapKeyPath2<Self, T0, T1>
    {
        Publishers.MapKeyPath2(upstream: self, keyPath0: keyPath0, keyPath1: keyPath1)
    }

    /// Publishes the values of three key paths of each value, as Combine's `map(_:_:_:)`.
    public func map<T0, T1, T2>(
        _ keyPath0: KeyPath<Output, T0>, _ keyPath1: KeyPath<Output, T1>, _ keyPath2: KeyPath<Output, T2>
    ) -> Publishers.MapKeyPath3<Self, T0, T1, T2> {
        Publishers.MapKeyPath3(upstream: self, keyPath0: keyPath0, keyPath1: keyPath1, keyPath2: keyPath2)
    }
}
