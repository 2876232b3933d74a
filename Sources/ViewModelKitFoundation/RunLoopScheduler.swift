import Foundation

// `RunLoop`'s own `Scheduler` conformance lives in LoopSchedulerFoundation (which this module
// re-exports): there `RunLoop.main` delivers through the main queue, so it runs on
// `EventLoop.main`. This file keeps the engine `Timer.publish` needs for an explicit mode.

/// A run loop in one mode, as a scheduler: the engine of
/// `Timer.publish(every:tolerance:on:in:options:)` (in the mode given).
///
/// `RunLoop.main` is the exception: the main thread of a LoopMVVM program runs `EventLoop.main`,
/// not a Foundation run loop, so a `Timer` added to it in any mode would never fire. Its actions
/// go through `RunLoop.main`'s own scheduler (the main dispatch queue, which `EventLoop.main` and
/// `RunLoop.main.run()` both drain), whatever the mode: `.common`, `.default` and custom modes all
/// tick.
struct RunLoopModeScheduler: ViewModelKit.Scheduler, @unchecked Sendable {
    typealias SchedulerTimeType = DateSchedulerTime
    typealias SchedulerOptions = RunLoop.SchedulerOptions

    let runLoop: RunLoop
    let mode: RunLoop.Mode

    init(_ runLoop: RunLoop, _ mode: RunLoop.Mode) {
        self.runLoop = runLoop
        self.mode = mode
    }

    var now: SchedulerTimeType { DateSchedulerTime(Date()) }
    var minimumTolerance: SchedulerTimeType.Stride { 0 }

    /// A timer due now rather than `perform(_:)`: adding a timer wakes a run loop that waits in
    /// another thread, and keeps these actions in order with the timed ones.
    func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        if isMain { return runLoop.schedule(options: options, action) }
        schedule(after: now, tolerance: 0, options: options, action)
    }

    private var isMain: Bool { runLoop === RunLoop.main }

    func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        if isMain { return runLoop.schedule(after: date, tolerance: tolerance, options: options, action) }
        let work = UncheckedAction(action)
        let timer = Timer(fire: date.date, interval: 0, repeats: false) { _ in work.action() }
        timer.tolerance = tolerance.magnitude
        runLoop.add(timer, forMode: mode)
    }

    func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> Cancellable {
        if isMain {
            return runLoop.schedule(
                after: date, interval: interval, tolerance: tolerance, options: options, action)
        }
        let work = UncheckedAction(action)
        let timer = Timer(fire: date.date, interval: interval.magnitude, repeats: true) { _ in work.action() }
        timer.tolerance = tolerance.magnitude
        runLoop.add(timer, forMode: mode)
        let invalidate = UncheckedTimer(timer)
        return AnyCancellable { invalidate.timer.invalidate() }
    }
}

/// `Timer` is thread-safe to invalidate but not annotated `Sendable`.
private struct UncheckedTimer: @unchecked Sendable {
    let timer: Timer
    init(_ timer: Timer) { self.timer = timer }
}

/// A scheduler action handed to Foundation's `@Sendable` callbacks. Combine's actions are not
/// `Sendable`; each scheduler documents the thread they run on, which makes the hand-over safe.
struct UncheckedAction: @unchecked Sendable {
    let action: () -> Void
    init(_ action: @escaping () -> Void) { self.action = action }
}
