import Foundation
import LoopScheduler
import ViewModelKit
import ViewModelKitSchedulers

/// The calls an operator makes on its scheduler, as OpenCombine's `VirtualTimeScheduler` records
/// them for Combine: `schedule` (at once), `schedule(after:tolerance:)` with the delay from
/// `now`, and `schedule(after:interval:)`.
final class SchedulerCallLog: @unchecked Sendable {
    private let mutex = NSLock()
    private var recorded: [String] = []

    var calls: [String] { mutex.withLock { recorded } }

    fileprivate func append(_ call: String) { mutex.withLock { recorded.append(call) } }
}

extension TestScheduler {
    /// This scheduler, with every call an operator makes on it written to `log` first.
    func recording(to log: SchedulerCallLog) -> AnyScheduler<SchedulerTimeType, SchedulerOptions> {
        AnyScheduler(
            minimumTolerance: { self.minimumTolerance },
            now: { self.now },
            scheduleImmediately: { options, action in
                log.append("schedule")
                self.schedule(options: options, action)
            },
            delayed: { date, tolerance, options, action in
                log.append("schedule(after: \(self.now.distance(to: date)), tolerance: \(tolerance))")
                self.schedule(after: date, tolerance: tolerance, options: options, action)
            },
            interval: { date, interval, tolerance, options, action in
                log.append(
                    "schedule(after: \(self.now.distance(to: date)), interval: \(interval), tolerance: \(tolerance))")
                return self.schedule(after: date, interval: interval, tolerance: tolerance, options: options, action)
            })
    }
}
