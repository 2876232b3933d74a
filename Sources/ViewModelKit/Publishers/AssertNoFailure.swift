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
            let (prefix, file, line) = (self.prefix, self.file, self.line)
            upstream.subscribe(
                Publishers.MapError<Upstream, Never>.Inner(downstream: subscriber) { error in
                    let lead = prefix.isEmpty ? "" : "\(prefix): "
                    fatalError("\(lead)Unexpected failure: \(error)", file: file, line: line)
                })
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
