import Synchronization
import ViewModelKit

/// A serial virtual-time scheduler for operator tests, used until `TestScheduler` (branch `loop`)
/// lands: actions run only inside `advance(by:)`, in time order, FIFO among equal times, on the
/// calling thread. Same time type as `TestScheduler`.
final class VirtualScheduler: Scheduler, @unchecked Sendable {
    typealias SchedulerTimeType = MonotonicInstant
    typealias SchedulerOptions = Never

    private struct Item {
        let id: Int
        var date: MonotonicInstant
        let interval: MonotonicInstant.Stride?
        let action: () -> Void
    }

    private let mutex = Mutex<Void>(())
    private nonisolated(unsafe) var current = MonotonicInstant(nanoseconds: 0)
    private nonisolated(unsafe) var items: [Item] = []
    private nonisolated(unsafe) var nextID = 0

    var now: MonotonicInstant { mutex.withLock { _ in current } }
    var minimumTolerance: MonotonicInstant.Stride { .nanoseconds(0) }

    private func add(_ date: MonotonicInstant, _ interval: MonotonicInstant.Stride?, _ action: @escaping () -> Void) -> Int {
        mutex.withLock { _ in
            nextID += 1
            items.append(Item(id: nextID, date: date, interval: interval, action: action))
            return nextID
        }
    }

    func schedule(options: Never?, _ action: @escaping () -> Void) {
        _ = add(now, nil, action)
    }

    func schedule(after date: MonotonicInstant, tolerance: MonotonicInstant.Stride, options: Never?,
                  _ action: @escaping () -> Void) {
        _ = add(date, nil, action)
    }

    func schedule(after date: MonotonicInstant, interval: MonotonicInstant.Stride, tolerance: MonotonicInstant.Stride,
                  options: Never?, _ action: @escaping () -> Void) -> Cancellable {
        let id = add(date, interval, action)
        return AnyCancellable { [weak self] in
            self?.mutex.withLock { _ in self?.items.removeAll { $0.id == id } }
        }
    }

    /// Moves the clock forward by `stride`, running every action due on the way (including ones
    /// scheduled while advancing), then leaves the clock at the target.
    func advance(by stride: MonotonicInstant.Stride = .nanoseconds(0)) {
        let target = now.advanced(by: stride)
        while true {
            let next: Item? = mutex.withLock { _ in
                let due = items.indices.filter { items[$0].date <= target }
                guard let index = due.min(by: { (items[$0].date, items[$0].id) < (items[$1].date, items[$1].id) })
                else { return nil }
                let item = items[index]
                if item.date > current { current = item.date }
                if let interval = item.interval {
                    items[index].date = item.date.advanced(by: interval)
                } else {
                    items.remove(at: index)
                }
                return item
            }
            guard let next else { break }
            next.action()
        }
        mutex.withLock { _ in current = target }
    }
}

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
        upstream.subscribe(AnySubscriber<Output, Failure>(
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
