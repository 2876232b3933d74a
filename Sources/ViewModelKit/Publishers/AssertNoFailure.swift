extension Publishers {
    /// Republishes upstream, trapping if it fails, as Combine's `Publishers.AssertNoFailure`.
    ///
    /// Values, demand, threads and `.finished` are upstream's; a failure stops the process with
    /// `fatalError`, its message naming `prefix`, `file`, `line` and the error (in every build
    /// configuration, as Combine).
    public struct AssertNoFailure<Upstream: Publisher>: Publisher {
        /// The upstream output type.
        public typealias Output = Upstream.Output
        /// This publisher never fails: it traps instead.
        public typealias Failure = Never

        /// The upstream publisher.
        public let upstream: Upstream
        /// A prefix for the trap message.
        public let prefix: String
        /// The file named in the trap message.
        public let file: StaticString
        /// The line named in the trap message.
        public let line: UInt

        /// Creates the operator.
        public init(upstream: Upstream, prefix: String, file: StaticString, line: UInt) {
            self.upstream = upstream
            self.prefix = prefix
            self.file = file
            self.line = line
        }

        /// Subscribes `subscriber`.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, prefix: prefix, file: file, line: line))
        }
    }
}

extension Publishers.AssertNoFailure {
    /// A pass-through subscriber (the downstream gets the upstream's subscription), named and
    /// reflected as Combine's: `AssertNoFailure`, with `file`, `line` and `prefix` as children.
    final class Inner<Downstream: Subscriber>: PassThroughSubscriber
    where Downstream.Input == Output, Downstream.Failure == Never {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        let downstream: Downstream
        private let prefix: String
        private let file: StaticString
        private let line: UInt

        init(downstream: Downstream, prefix: String, file: StaticString, line: UInt) {
            self.downstream = downstream
            self.prefix = prefix
            self.file = file
            self.line = line
        }

        var description: String { "AssertNoFailure" }

        var customMirror: Mirror {
            Mirror(self, children: ["file": file, "line": line, "prefix": prefix])
        }

        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            downstream.receive(input)
        }

        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            switch completion {
            case .finished:
                downstream.receive(completion: .finished)
            case .failure(let error):
                let lead = prefix.isEmpty ? "" : "\(prefix): "
                fatalError("\(lead)Unexpected failure: \(error)", file: file, line: line)
            }
        }
    }
}

extension Publisher {
    /// Traps if upstream fails, as Combine's `assertNoFailure(_:file:line:)`.
    public func assertNoFailure(
        _ prefix: String = "", file: StaticString = #file, line: UInt = #line
    ) -> Publishers.AssertNoFailure<Self> {
        Publishers.AssertNoFailure(upstream: self, prefix: prefix, file: file, line: line)
    }
}
