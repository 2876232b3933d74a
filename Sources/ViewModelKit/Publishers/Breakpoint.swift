#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension Publishers {
    /// Stops in the debugger when a closure says so, as Combine's `Publishers.Breakpoint`.
    ///
    /// Each closure sees its event before it is passed on; when one returns true the process
    /// raises `SIGTRAP` (a debugger stops there; without one the process ends, as on Apple
    /// platforms). Events, demand and threads are otherwise upstream's.
    public struct Breakpoint<Upstream: Publisher>: Publisher {
        /// The upstream output type.
        public typealias Output = Upstream.Output
        /// The upstream failure type.
        public typealias Failure = Upstream.Failure

        /// The upstream publisher.
        public let upstream: Upstream
        /// Returns true to stop on the subscription.
        public let receiveSubscription: ((Subscription) -> Bool)?
        /// Returns true to stop on a value.
        public let receiveOutput: ((Upstream.Output) -> Bool)?
        /// Returns true to stop on the completion.
        public let receiveCompletion: ((Subscribers.Completion<Failure>) -> Bool)?

        /// Creates the operator.
        public init(
            upstream: Upstream, receiveSubscription: ((Subscription) -> Bool)? = nil,
            receiveOutput: ((Upstream.Output) -> Bool)? = nil,
            receiveCompletion: ((Subscribers.Completion<Publishers.Breakpoint<Upstream>.Failure>) -> Bool)? = nil
        ) {
            self.upstream = upstream
            self.receiveSubscription = receiveSubscription
            self.receiveOutput = receiveOutput
            self.receiveCompletion = receiveCompletion
        }

        /// Subscribes `subscriber`, testing each event.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(
                Inner(
                    downstream: subscriber, receiveSubscription: receiveSubscription, receiveOutput: receiveOutput,
                    receiveCompletion: receiveCompletion))
        }
    }
}

extension Publishers.Breakpoint {
    /// A pass-through subscriber, as Combine's (its recorded tests: the downstream gets the
    /// upstream's own subscription, so every event, demand and cancel are the upstream's),
    /// named `Breakpoint` with no mirror children. Each closure sees its event before it is
    /// passed on.
    final class Inner<Downstream: Subscriber>: PassThroughSubscriber
    where Downstream.Input == Output, Downstream.Failure == Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        let downstream: Downstream
        private let testSubscription: ((Subscription) -> Bool)?
        private let testOutput: ((Upstream.Output) -> Bool)?
        private let testCompletion: ((Subscribers.Completion<Failure>) -> Bool)?

        init(
            downstream: Downstream, receiveSubscription: ((Subscription) -> Bool)?,
            receiveOutput: ((Upstream.Output) -> Bool)?,
            receiveCompletion: ((Subscribers.Completion<Failure>) -> Bool)?
        ) {
            self.downstream = downstream
            testSubscription = receiveSubscription
            testOutput = receiveOutput
            testCompletion = receiveCompletion
        }

        var description: String { "Breakpoint" }

        func receive(subscription: Subscription) {
            if testSubscription?(subscription) == true { stopInDebugger() }
            downstream.receive(subscription: subscription)
        }

        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            if testOutput?(input) == true { stopInDebugger() }
            return downstream.receive(input)
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            if testCompletion?(completion) == true { stopInDebugger() }
            downstream.receive(completion: completion)
        }
    }
}

/// Raises `SIGTRAP`, as Combine's breakpoint operators do.
private func stopInDebugger() {
    raise(SIGTRAP)
}

extension Publisher {
    /// Raises `SIGTRAP` when a closure returns true for its event, as Combine's
    /// `breakpoint(receiveSubscription:receiveOutput:receiveCompletion:)`.
    public func breakpoint(
        receiveSubscription: ((Subscription) -> Bool)? = nil, receiveOutput: ((Output) -> Bool)? = nil,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Bool)? = nil
    ) -> Publishers.Breakpoint<Self> {
        Publishers.Breakpoint(
            upstream: self, receiveSubscription: receiveSubscription, receiveOutput: receiveOutput,
            receiveCompletion: receiveCompletion)
    }

    /// Raises `SIGTRAP` when upstream fails, as Combine's `breakpointOnError()`.
    public func breakpointOnError() -> Publishers.Breakpoint<Self> {
        breakpoint(receiveCompletion: { completion in
            if case .failure = completion { return true }
            return false
        })
    }
}
