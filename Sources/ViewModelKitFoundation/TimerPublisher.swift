import Foundation

extension Timer {
    /// A connectable publisher of the time at each tick of a repeating timer on a run loop, as
    /// Combine's `Timer.TimerPublisher`.
    ///
    /// Nothing happens until `connect()` (or `autoconnect()`): then a repeating `Timer` is added
    /// to `runLoop` in `mode`, first firing one `interval` after connecting. On `RunLoop.main` the
    /// ticks go through the main dispatch queue instead, in every mode, so they come while
    /// `EventLoop.main` (or `RunLoop.main.run()`) runs the main thread. Each tick sends
    /// `Date()` to every subscriber that has demand, on the run loop's thread; subscribers
    /// without demand miss that tick. Cancelling the connection invalidates the timer. It never
    /// completes. Built on the same timer engine as ViewModelKitSchedulers' `Publishers.Timer`, which ticks on any scheduler.
    public final class TimerPublisher: ConnectablePublisher, @unchecked Sendable {
        /// The time of the tick.
        public typealias Output = Date
        /// A timer cannot fail.
        public typealias Failure = Never

        /// Seconds between ticks.
        public let interval: TimeInterval
        /// The timer's tolerance, in seconds (`nil`: none).
        public let tolerance: TimeInterval?
        /// The run loop the timer is added to.
        public let runLoop: RunLoop
        /// The run loop mode the timer runs in.
        public let mode: RunLoop.Mode
        /// Accepted for Combine's signature; `RunLoop` has no options.
        public let options: RunLoop.SchedulerOptions?

        private let ticks: SchedulerTimer<RunLoopModeScheduler>

        /// A timer publisher; nothing happens until `connect()`.
        public init(
            interval: TimeInterval, tolerance: TimeInterval? = nil, runLoop: RunLoop, mode: RunLoop.Mode,
            options: RunLoop.SchedulerOptions? = nil
        ) {
            self.interval = interval
            self.tolerance = tolerance
            self.runLoop = runLoop
            self.mode = mode
            self.options = options
            ticks = SchedulerTimer(
                every: .init(interval), tolerance: tolerance.map { .init($0) },
                scheduler: RunLoopModeScheduler(runLoop, mode), options: options)
        }

        /// Attaches `subscriber`; it receives ticks within its demand until it cancels.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            ticks.map(\.date).receive(subscriber: subscriber)
        }

        /// Starts the timer; cancel the token to stop it. Thread-safe.
        public func connect() -> Cancellable {
            ticks.connect()
        }
    }

    /// A timer publisher ticking every `interval` seconds on `runLoop` in `mode`, as Foundation's
    /// `Timer.publish(every:tolerance:on:in:options:)`. Use `autoconnect()` to start it with
    /// the first subscriber.
    public static func publish(
        every interval: TimeInterval, tolerance: TimeInterval? = nil, on runLoop: RunLoop, in mode: RunLoop.Mode,
        options: RunLoop.SchedulerOptions? = nil
    ) -> TimerPublisher {
        TimerPublisher(interval: interval, tolerance: tolerance, runLoop: runLoop, mode: mode, options: options)
    }
}
