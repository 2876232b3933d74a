import Synchronization
import ViewModelKit

/// Renders recorded events as strings, for outputs (such as tuples) that are not `Equatable`.
func rendered<Input, Failure>(_ events: [Event<Input, Failure>]) -> [String] {
    events.map(\.description)
}

/// A publisher that logs every demand requested of it and every cancel, wrapping `upstream`.
struct RequestLogging<Upstream: Publisher>: Publisher {
    typealias Output = Upstream.Output
    typealias Failure = Upstream.Failure
    let upstream: Upstream
    let log: DemandLog

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        upstream.subscribe(
            AnySubscriber<Output, Failure>(
                receiveSubscription: { subscription in
                    subscriber.receive(subscription: LoggedSubscription(inner: subscription, log: log))
                },
                receiveValue: { subscriber.receive($0) },
                receiveCompletion: { subscriber.receive(completion: $0) }))
    }
}

final class LoggedSubscription: Subscription, @unchecked Sendable {
    let inner: Subscription
    let log: DemandLog
    init(inner: Subscription, log: DemandLog) {
        self.inner = inner
        self.log = log
    }
    func request(_ demand: Subscribers.Demand) {
        log.append("request \(demand)")
        inner.request(demand)
    }
    func cancel() {
        log.append("cancel")
        inner.cancel()
    }
}

extension Publisher {
    /// Wraps this publisher so the test can see what is requested of it.
    func logRequests(to log: DemandLog) -> RequestLogging<Self> {
        RequestLogging(upstream: self, log: log)
    }
}
