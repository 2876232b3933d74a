import Foundation
import LoopScheduler
import LoopTestSupport
import Synchronization

extension EventLoop {
    /// A timer that stops the loop and records that it had to: tests assert it never fires, so a
    /// missing wake-up fails instead of hanging.
    func watchdog(_ fired: Shared<Bool>, seconds: Int = 10) -> EventRegistration {
        scheduleTimer(after: .seconds(seconds)) { [self] in
            fired.value = true
            stop()
        }
    }
}
