import Dispatch
import Foundation
import LoopScheduler

/// `RunLoop` as a `Scheduler` with Combine's shapes: `SchedulerTimeType` wraps a `Date` and
/// strides in seconds (`TimeInterval`), as Combine's `RunLoop.SchedulerTimeType`.
///
/// - Where actions run. `RunLoop.main` is the main thread. In a LoopMVVM program that thread
///   runs `EventLoop.main` rather than a Foundation run loop, so `RunLoop.main`'s actions are
///   queued on `DispatchQueue.main`, which both `EventLoop.main` and `RunLoop.main.run()` drain:
///   they run on the main thread whichever of the two runs it. Any other run loop gets
///   Foundation `Timer`s added to it in `options.mode` (default `.default`); its thread must run
///   that run loop.
/// - Threads: `schedule` may be called from any thread.
extension RunLoop: Scheduler {
    /// A point in time, as Combine's `RunLoop.SchedulerTimeType`: a wall-clock `Date`, striding
    /// in seconds. Shared with `OperationQueue` (see `DateSchedulerTime`).
    public typealias SchedulerTimeType = DateSchedulerTime

    /// Per-call options: the run-loop mode a non-main run loop's timers are added in (CombineViewModel's
    /// `RunLoop.EventSourceOptions(mode:)`). Ignored for `RunLoop.main` (see the type's notes).
    public struct SchedulerOptions: Sendable {
        /// The mode, `.default` unless given.
        public var mode: RunLoop.Mode

        /// Options with `mode`.
        public init(mode: RunLoop.Mode = .default) {
            self.mode = mode
        }
    }

    /// `Date()`.
    public var now: SchedulerTimeType { SchedulerTimeType(Date()) }

    /// Zero.
    public var minimumTolerance: SchedulerTimeType.Stride { SchedulerTimeType.Stride(0) }

    /// Runs `action` on this run loop's thread as soon as possible. Any thread.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        let transfer = RunLoopAction(action)
        if isMain {
            DispatchQueue.main.async { transfer.action() }
        } else {
            addTimer(firing: Date(), interval: 0, mode: options?.mode) { transfer.action() }
        }
    }

    /// Runs `action` once at `date` or later; `tolerance` is not used. Any thread.
    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        let transfer = RunLoopAction(action)
        if isMain {
            DispatchQueue.main.asyncAfter(deadline: Self.deadline(for: date.date)) { transfer.action() }
        } else {
            addTimer(firing: date.date, interval: 0, mode: options?.mode) { transfer.action() }
        }
    }

    /// Runs `action` at `date` and then every `interval` until the token is cancelled (or
    /// dropped). Any thread.
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> Cancellable {
        let transfer = RunLoopAction(action)
        if isMain {
            let timer = DispatchSource.makeTimerSource(queue: .main)
            timer.setEventHandler { transfer.action() }
            let nanoseconds = Self.nanoseconds(interval.magnitude)
            timer.schedule(
                deadline: Self.deadline(for: date.date), repeating: .nanoseconds(max(nanoseconds, 1)),
                leeway: .nanoseconds(Self.nanoseconds(tolerance.magnitude)))
            timer.activate()
            return AnyCancellable { timer.cancel() }
        }
        let seconds = interval.magnitude.isNaN ? .greatestFiniteMagnitude : max(interval.magnitude, 0.000_001)
        let timer = addTimer(firing: date.date, interval: seconds, mode: options?.mode) {
            transfer.action()
        }
        let token = UncheckedTimer(timer)
        return AnyCancellable { token.timer.invalidate() }
    }

    private var isMain: Bool { self === RunLoop.main }

    @discardableResult
    private func addTimer(
        firing date: Date, interval: TimeInterval, mode: RunLoop.Mode?, _ body: @escaping @Sendable () -> Void
    ) -> Timer {
        // A date of NaN or infinity (a `.seconds(.nan)` stride) is "never" or "now", never a trap.
        let seconds = date.timeIntervalSinceReferenceDate
        let fire =
            seconds.isNaN || seconds == .infinity ? Date.distantFuture : seconds == -.infinity ? .distantPast : date
        let timer = Timer(fire: fire, interval: interval, repeats: interval > 0) { _ in body() }
        add(timer, forMode: mode ?? .default)
        return timer
    }

    private static func deadline(for date: Date) -> DispatchTime {
        let delay = date.timeIntervalSinceNow
        return delay.isNaN || delay == .infinity ? .distantFuture : .now() + .nanoseconds(nanoseconds(delay))
    }

    /// `seconds` in whole nanoseconds (rounded up), clamped to `0...Int.max`; NaN gives `Int.max`
    /// (Dispatch's rule for a NaN interval: its largest time). Never traps.
    static func nanoseconds(_ seconds: Double) -> Int {
        let ns = (seconds * 1e9).rounded(.up)
        if ns.isNaN || ns >= Double(Int.max) { return .max }
        return ns <= 0 ? 0 : Int(ns)
    }
}

/// Carries a non-Sendable action to the run loop's thread (the scheduler's thread rule makes it
/// safe, as for every Combine scheduler).
struct RunLoopAction: @unchecked Sendable {
    let action: () -> Void
    init(_ action: @escaping () -> Void) { self.action = action }
}

/// A `Timer` handed to a cancellation closure (`invalidate()` is thread-safe).
struct UncheckedTimer: @unchecked Sendable {
    let timer: Timer
    init(_ timer: Timer) { self.timer = timer }
}
