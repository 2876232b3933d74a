import LoopScheduler
import ViewModelKit

extension Publishers {
    /// A repeating timer on any scheduler that publishes the scheduler's time at each tick, as
    /// combine-schedulers' `Publishers.Timer` (Combine's own `Timer.TimerPublisher` is tied to
    /// `RunLoop`; ViewModelKitFoundation has it).
    ///
    /// It is connectable: ticks start at `connect()` (the first at `scheduler.now + interval`, then
    /// every `interval`, via the scheduler's repeating `schedule`) and stop when the returned token
    /// is cancelled. A second `connect()` while connected returns the same running connection.
    /// Use `autoconnect()` to start with the first subscriber and stop after the last. Each tick
    /// sends `scheduler.now` to every subscriber that has demand, in subscription order, on the
    /// scheduler's thread; subscribers without demand miss that tick. It never completes.
    /// Thread rules: subscribe, connect and cancel from any thread.
    public final class Timer<Context: Scheduler>: ConnectablePublisher, @unchecked Sendable {
        /// The scheduler time at the tick.
        public typealias Output = Context.SchedulerTimeType
        /// A timer cannot fail.
        public typealias Failure = Never

        private let engine: SchedulerTimer<Context>

        /// The time between ticks, in the scheduler's stride units.
        public var interval: Context.SchedulerTimeType.Stride { engine.interval }
        /// The tolerance passed to the scheduler; `nil` means its `minimumTolerance`.
        public var tolerance: Context.SchedulerTimeType.Stride? { engine.tolerance }
        /// The scheduler that drives the ticks.
        public var scheduler: Context { engine.scheduler }
        /// Passed to the scheduler.
        public var options: Context.SchedulerOptions? { engine.options }

        /// A timer ticking every `interval` on `scheduler`; nothing happens until `connect()`.
        public init(
            every interval: Context.SchedulerTimeType.Stride, tolerance: Context.SchedulerTimeType.Stride? = nil,
            scheduler: Context, options: Context.SchedulerOptions? = nil
        ) {
            engine = SchedulerTimer(every: interval, tolerance: tolerance, scheduler: scheduler, options: options)
        }

        /// Attaches `subscriber`; it receives ticks within its demand until it cancels.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            engine.receive(subscriber: subscriber)
        }

        /// Starts ticking; cancel the token to stop. Thread-safe.
        public func connect() -> Cancellable {
            engine.connect()
        }
    }
}
