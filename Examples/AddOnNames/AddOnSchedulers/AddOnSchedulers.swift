// A stand-in for a Combine add-on library ported to ViewModelKit by changing its import: it
// declares, with the same names and (but for one) the same shapes, what point-free's
// combine-schedulers declares
// (`AnyScheduler`, `AnySchedulerOf`, `TestScheduler`, `TestSchedulerOf`, `ImmediateSchedulerOf`,
// `UnimplementedScheduler`, `Publishers.Timer`, `eraseToAnyScheduler()`, `timerPublisher`,
// `DispatchQueue.test`/`.immediate`). Our own code, written for this check: if ViewModelKit
// exported any of these names, the program beside it would not compile.
import Dispatch
import ViewModelKit

/// A type-erased scheduler, in combine-schedulers' shape.
public struct AnyScheduler<SchedulerTimeType: Strideable, SchedulerOptions>: Scheduler
where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible {
    private let nowBody: () -> SchedulerTimeType
    private let scheduleBody: (@escaping () -> Void) -> Void
    private let scheduleAfterBody: (SchedulerTimeType, @escaping () -> Void) -> Void
    private let intervalBody: (SchedulerTimeType, SchedulerTimeType.Stride, @escaping () -> Void) -> Cancellable

    /// Erases `scheduler`.
    public init<S: Scheduler>(_ scheduler: S)
    where S.SchedulerTimeType == SchedulerTimeType, S.SchedulerOptions == SchedulerOptions {
        nowBody = { scheduler.now }
        scheduleBody = { scheduler.schedule($0) }
        scheduleAfterBody = { scheduler.schedule(after: $0, $1) }
        intervalBody = { scheduler.schedule(after: $0, interval: $1, $2) }
    }

    /// The wrapped scheduler's time.
    public var now: SchedulerTimeType { nowBody() }
    /// Zero.
    public var minimumTolerance: SchedulerTimeType.Stride { .nanoseconds(0) }
    /// Forwards (options are dropped).
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) { scheduleBody(action) }
    /// Forwards (tolerance and options are dropped).
    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        scheduleAfterBody(date, action)
    }
    /// Forwards (tolerance and options are dropped).
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> Cancellable {
        intervalBody(date, interval, action)
    }
}

/// `AnyScheduler` named by the scheduler it stands for.
public typealias AnySchedulerOf<S: Scheduler> = AnyScheduler<S.SchedulerTimeType, S.SchedulerOptions>

extension Scheduler {
    /// Wraps the scheduler in an `AnyScheduler`.
    public func eraseToAnyScheduler() -> AnySchedulerOf<Self> { AnyScheduler(self) }

    /// A timer on this scheduler.
    public func timerPublisher(every interval: SchedulerTimeType.Stride) -> Publishers.Timer<Self> {
        Publishers.Timer(every: interval, scheduler: self)
    }
}

/// A virtual clock: actions run when the test advances it, in deadline order.
public final class TestScheduler<SchedulerTimeType: Strideable, SchedulerOptions>: Scheduler, @unchecked Sendable
where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible {
    private var queue: [(id: Int, date: SchedulerTimeType, action: () -> Void)] = []
    private var lastID = 0
    /// The virtual time.
    public private(set) var now: SchedulerTimeType

    /// A clock starting at `now`.
    public init(now: SchedulerTimeType) { self.now = now }

    /// Zero.
    public var minimumTolerance: SchedulerTimeType.Stride { .nanoseconds(0) }

    /// Runs at the current time on the next advance.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        enqueue(now, action)
    }
    /// Runs at `date`.
    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        enqueue(date, action)
    }
    /// Runs at `date` and every `interval` after, until cancelled.
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> Cancellable {
        var cancelled = false
        func tick(at date: SchedulerTimeType) {
            enqueue(date) { [weak self] in
                guard !cancelled, let self else { return }
                action()
                tick(at: self.now.advanced(by: interval))
            }
        }
        tick(at: date)
        return AnyCancellable { cancelled = true }
    }

    /// Moves the clock forward, running what falls due.
    public func advance(by stride: SchedulerTimeType.Stride) {
        let end = now.advanced(by: stride)
        while let next = queue.filter({ $0.date <= end }).min(by: { ($0.date, $0.id) < ($1.date, $1.id) }) {
            queue.removeAll { $0.id == next.id }
            now = Swift.max(now, next.date)
            next.action()
        }
        now = end
    }

    private func enqueue(_ date: SchedulerTimeType, _ action: @escaping () -> Void) {
        lastID += 1
        queue.append((lastID, date, action))
    }
}

/// `TestScheduler` named by the scheduler it stands for.
public typealias TestSchedulerOf<S: Scheduler> = TestScheduler<S.SchedulerTimeType, S.SchedulerOptions>

/// Combine-schedulers' immediate scheduler, named by the scheduler it stands for. Theirs aliases
/// a generic `ImmediateScheduler<Time, Options>` struct; this stand-in leaves that struct out on
/// purpose: Combine itself declares `ImmediateScheduler` (ViewModelKit exports it as Combine
/// does), so whatever that name does beside an add-on's is the same on Apple's Combine; this
/// check is about the names ViewModelKit adds.
public typealias ImmediateSchedulerOf<S: Scheduler> = AnySchedulerOf<S>

/// A scheduler that must not be used: it reports every call.
public struct UnimplementedScheduler<SchedulerTimeType: Strideable, SchedulerOptions>: Scheduler
where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible {
    /// The time it reports.
    public let now: SchedulerTimeType

    /// A scheduler reporting `now` as its time.
    public init(now: SchedulerTimeType) { self.now = now }
    /// Zero.
    public var minimumTolerance: SchedulerTimeType.Stride { .nanoseconds(0) }
    /// Reports the call.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        print("unimplemented: schedule")
    }
    /// Reports the call.
    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        print("unimplemented: schedule(after:)")
    }
    /// Reports the call.
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> Cancellable {
        print("unimplemented: schedule(after:interval:)")
        return AnyCancellable {}
    }
}

extension DispatchQueue {
    /// A virtual clock with a dispatch queue's time.
    public static var test: TestSchedulerOf<DispatchQueue> { TestScheduler(now: .init(.init(uptimeNanoseconds: 1))) }
    /// A scheduler that runs everything at once, with a dispatch queue's time.
    public static var immediate: ImmediateSchedulerOf<DispatchQueue> { DispatchQueue.main.eraseToAnyScheduler() }
}

extension AnyScheduler
where SchedulerTimeType == DispatchQueue.SchedulerTimeType, SchedulerOptions == DispatchQueue.SchedulerOptions {
    /// combine-schedulers' spelling of the immediate scheduler.
    public static var immediate: Self { DispatchQueue.immediate }
}

extension Publishers {
    /// A repeating timer on any scheduler, in combine-schedulers' shape (connectable).
    public final class Timer<Scheduler: ViewModelKit.Scheduler>: ConnectablePublisher, @unchecked Sendable {
        /// The scheduler's time at each tick.
        public typealias Output = Scheduler.SchedulerTimeType
        /// Never fails.
        public typealias Failure = Never

        private let interval: Scheduler.SchedulerTimeType.Stride
        private let scheduler: Scheduler
        private let subject = PassthroughSubject<Output, Never>()

        /// A timer every `interval` on `scheduler`.
        public init(every interval: Scheduler.SchedulerTimeType.Stride, scheduler: Scheduler) {
            self.interval = interval
            self.scheduler = scheduler
        }

        /// Attaches `subscriber`.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            subject.subscribe(subscriber)
        }

        /// Starts ticking.
        public func connect() -> Cancellable {
            scheduler.schedule(after: scheduler.now.advanced(by: interval), interval: interval) {
                [subject, scheduler] in
                subject.send(scheduler.now)
            }
        }
    }
}
