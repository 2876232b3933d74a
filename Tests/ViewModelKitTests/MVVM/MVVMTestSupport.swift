import Dispatch
import Foundation
import LoopTestSupport
import Synchronization
import ViewModelKitSchedulers

@testable import ViewModelKit

/// A view model with two published properties.
final class CounterModel: ObservableObject, @unchecked Sendable {
    @Published var count = 0
    @Published var label = ""
}

/// A second kind of view model.
final class FlagModel: ObservableObject, @unchecked Sendable {
    @Published var isOn = false
}

/// A counter safe to bump from many threads: the change is stored before `objectWillChange` is
/// sent, so an update triggered by the last signal always sees the last change.
final class AtomicCounterModel: ObservableObject, @unchecked Sendable {
    let objectWillChange = ObservableObjectPublisher()
    private let storage = Atomic<Int>(0)
    var count: Int { storage.load(ordering: .acquiring) }

    func increment() {
        storage.add(1, ordering: .releasing)
        objectWillChange.send()
    }
}

/// An observer of one counter on a test scheduler, recording what each update saw.
final class CounterObserver: ViewModelObserver {
    let updateScheduler: TestScheduler
    @ViewModel var counter: CounterModel
    var seen: [Int] = []
    var onUpdate: ((CounterObserver) -> Void)?

    init(_ counter: CounterModel, scheduler: TestScheduler) {
        updateScheduler = scheduler
        self.counter = counter
    }

    nonisolated func updateView() {
        seen.append(counter.count)
        onUpdate?(self)
    }
}

/// Records the order in which observers were updated.
final class UpdateLog: @unchecked Sendable {
    private let lock = Mutex<[String]>([])
    func append(_ name: String) { lock.withLock { $0.append(name) } }
    var entries: [String] { lock.withLock { $0 } }
}

/// A scheduler wrapper that records the options its event sources were created with.
final class OptionsRecordingScheduler: EventSourceScheduler, @unchecked Sendable {
    typealias SchedulerTimeType = TestScheduler.SchedulerTimeType
    typealias SchedulerOptions = String
    typealias EventSourceType = TestScheduler.EventSourceType

    let base: TestScheduler
    private(set) var recordedOptions: [String?] = []

    init(_ base: TestScheduler) { self.base = base }

    var now: SchedulerTimeType { base.now }
    var minimumTolerance: SchedulerTimeType.Stride { base.minimumTolerance }

    func schedule(options: String?, _ action: @escaping () -> Void) {
        base.schedule(action)
    }

    func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: String?,
        _ action: @escaping () -> Void
    ) {
        base.schedule(after: date, tolerance: tolerance, action)
    }

    func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride, options: String?, _ action: @escaping () -> Void
    ) -> Cancellable {
        base.schedule(after: date, interval: interval, tolerance: tolerance, action)
    }

    func scheduleEventSource(
        options: String?, _ handler: @escaping (EventSourceType) -> Void
    ) -> EventSourceType {
        recordedOptions.append(options)
        return base.scheduleEventSource(handler)
    }
}

/// A subscriber of counters that records the count each value had when it arrived, and
/// requests demand only when told.
final class ManualSubscriber: Subscriber, @unchecked Sendable {
    typealias Input = CounterModel
    typealias Failure = Never
    private(set) var counts: [Int] = []
    private(set) var completions = 0
    private(set) var subscription: Subscription?
    var demandPerValue = Subscribers.Demand.none

    func receive(subscription: Subscription) { self.subscription = subscription }
    func receive(_ input: Input) -> Subscribers.Demand {
        counts.append(input.count)
        return demandPerValue
    }
    func receive(completion: Subscribers.Completion<Never>) { completions += 1 }
    func request(_ demand: Subscribers.Demand) { subscription?.request(demand) }
}
