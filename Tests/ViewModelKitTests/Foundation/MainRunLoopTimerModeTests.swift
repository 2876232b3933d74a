import Foundation
import ViewModelKitFoundation
import XCTest

/// `Timer.publish(every:on: .main, in:)` ticks under `EventLoop.main` in every run-loop mode
/// Foundation code uses: the main thread runs `EventLoop.main`, not a Foundation run loop, so a
/// timer added to `RunLoop.main` in some mode would never fire. XCTest runs these on the main
/// thread, where `EventLoop.main` lives.
final class MainRunLoopTimerModeTests: XCTestCase {
    func testTimerOnTheMainRunLoopTicksInEveryModeUnderTheMainLoop() {
        let modes: [RunLoop.Mode] = [.common, .default, RunLoop.Mode("com.example.tracking")]
        for mode in modes {
            var ticks: [Date] = []
            let start = Date()
            let token = Timer.publish(every: 0.005, on: .main, in: mode).autoconnect().sink { ticks.append($0) }
            let deadline = Date(timeIntervalSinceNow: 10)
            while ticks.count < 3, Date() < deadline { EventLoop.main.runOnce(blocking: false) }
            token.cancel()
            XCTAssertEqual(ticks.count, 3, "mode \(mode.rawValue)")
            XCTAssertTrue(ticks.allSatisfy { $0 > start }, "mode \(mode.rawValue)")
            XCTAssertEqual(ticks, ticks.sorted(), "mode \(mode.rawValue)")
            // A cancelled main-queue timer source finishes cancelling on the main queue.
            for _ in 0..<3 { EventLoop.main.runOnce(blocking: false) }
        }
    }
}
