extension Publishers {
    /// Logs every publishing event as a line of text, as Combine's `Publishers.Print`.
    ///
    /// Lines (each prefixed by `"<prefix>: "` when `prefix` is not empty), as Combine writes them:
    /// `receive subscription: (<subscription>)`, `request unlimited`, `request max: (<n>)`,
    /// `request max: (<n>) (synchronous)` (demand returned from a value), `receive value: (<v>)`,
    /// `receive finished`, `receive error: (<error>)`, `receive cancel`. Lines go to `stream`
    /// (each followed by `"\n"`) or, without one, to standard output. Writes are serialised.
    public struct Print<Upstream: Publisher>: Publisher {
        /// The upstream output type.
        public typealias Output = Upstream.Output
        /// The upstream failure type.
        public typealias Failure = Upstream.Failure

        /// Text written before each line.
        public let prefix: String
        /// The upstream publisher.
        public let upstream: Upstream
        /// Where lines go; `nil` means standard output.
        public let stream: TextOutputStream?

        /// Creates the operator.
        public init(upstream: Upstream, prefix: String, to stream: TextOutputStream? = nil) {
            self.upstream = upstream
            self.prefix = prefix
            self.stream = stream
        }

        /// Subscribes `subscriber`, logging every event.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, log: PrintLog(prefix: prefix, stream: stream)))
        }
    }
}

/// Formats and writes `Print` lines; the stream is mutated under a lock.
final class PrintLog: @unchecked Sendable {
    private let lock = Lock()
    private let prefix: String
    private var stream: TextOutputStream?

    init(prefix: String, stream: TextOutputStream?) {
        self.prefix = prefix.isEmpty ? "" : prefix + ": "
        self.stream = stream
    }

    func write(_ text: String) {
        let line = prefix + text
        lock.lock()
        defer { lock.unlock() }
        if stream != nil {
            stream!.write(line + "\n")
        } else {
            Swift.print(line)
        }
    }

    func request(_ demand: Subscribers.Demand, synchronous: Bool = false) {
        let suffix = synchronous ? " (synchronous)" : ""
        if let max = demand.max {
            write("request max: (\(max))" + suffix)
        } else {
            write("request unlimited" + suffix)
        }
    }
}

extension Publishers.Print {
    final class Inner<Downstream: Subscriber>: UpstreamRelay<Downstream>, Subscriber, @unchecked Sendable
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        private let log: PrintLog

        init(downstream: Downstream, log: PrintLog) {
            self.log = log
            super.init(downstream: downstream, name: "Print")
        }

        override func receive(subscription: Subscription) {
            guard attach(subscription) else { return }
            log.write("receive subscription: (\(subscription))")
            downstream?.receive(subscription: self)
        }

        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            guard isLive else { return .none }
            log.write("receive value: (\(input))")
            let more = downstream?.receive(input) ?? .none
            if more > 0 { log.request(more, synchronous: true) }
            return more
        }

        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            guard admitsCompletion() else { return }
            switch completion {
            case .finished: log.write("receive finished")
            case .failure(let error): log.write("receive error: (\(error))")
            }
            forward(completion)
        }

        override func request(_ demand: Subscribers.Demand) {
            log.request(demand)
            super.request(demand)
        }

        override func cancel() {
            log.write("receive cancel")
            super.cancel()
        }
    }
}

extension Publisher {
    /// Logs every publishing event, prefixed by `prefix`, to `stream` (standard output if nil),
    /// as Combine's `print(_:to:)`.
    public func print(_ prefix: String = "", to stream: TextOutputStream? = nil) -> Publishers.Print<Self> {
        Publishers.Print(upstream: self, prefix: prefix, to: stream)
    }
}
