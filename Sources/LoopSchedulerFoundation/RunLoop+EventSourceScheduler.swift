import Foundation
import LoopScheduler

/// `RunLoop` as an `EventSourceScheduler`, as in CombineViewModel: signals coalesce into one
/// handler call on the run loop's thread (a `ScheduledEventSource` over `schedule(options:_:)`).
/// For `RunLoop.main` that call is one block on `DispatchQueue.main`, so it runs in the next
/// iteration of `EventLoop.main` (or of `RunLoop.main.run()`) that drains the main queue; use
/// `LoopScheduler.main` instead for the end-of-iteration flush order of the iteration contract.
extension RunLoop: EventSourceScheduler {
    /// A source whose signals merge into one handler call on this run loop's thread. Any thread.
    public func scheduleEventSource(
        options: SchedulerOptions?, _ handler: @escaping (ScheduledEventSource<RunLoop>) -> Void
    ) -> ScheduledEventSource<RunLoop> {
        ScheduledEventSource(scheduler: self, options: options, handler)
    }
}
