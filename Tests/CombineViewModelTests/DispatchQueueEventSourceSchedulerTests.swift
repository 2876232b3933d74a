// thoughtbot/CombineViewModel's
// Tests/CombineViewModelTests/DispatchQueueEventSourceSchedulerTests.swift, ported with only
// mechanical changes: imports (`CombineViewModel` becomes `ViewModelKit`, plus
// `Dispatch`), and `CFRunLoopRunInMode(.defaultMode, 0, true)` becomes
// `EventLoop.main.runOnce(blocking: false)`.
import Dispatch
import ViewModelKit
import XCTest

final class DispatchQueueEventSourceSchedulerTests: XCTestCase {
    var source: DispatchQueue.EventSource!
    lazy var sourceFired: XCTestExpectation! = expectation(description: "event source fired")

    override func tearDown() {
        source = nil
        super.tearDown()
    }

    func testItCoalescesEvents() {
        var eventCount: Int?
        source = DispatchQueue.main.scheduleEventSource { source in
            eventCount = source.eventCount
            self.sourceFired.fulfill()
        }

        source.signal()
        source.signal()
        wait(for: [sourceFired], timeout: 0.1)

        XCTAssertEqual(eventCount, 2)
    }

    func testItStopsDeliveringEventsWhenCancelled() {
        var fireCount = 0

        source = DispatchQueue.main.scheduleEventSource { _ in
            fireCount += 1
        }

        source.signal()
        EventLoop.main.runOnce(blocking: false)

        source.signal()
        source.cancel()
        EventLoop.main.runOnce(blocking: false)

        XCTAssertEqual(fireCount, 1)
    }

    func testItStopsDeliveringEventsDeinitialized() {
        var fireCount = 0

        source = DispatchQueue.main.scheduleEventSource { _ in
            fireCount += 1
        }

        source.signal()
        EventLoop.main.runOnce(blocking: false)

        source.signal()
        source = nil
        EventLoop.main.runOnce(blocking: false)

        XCTAssertEqual(fireCount, 1)
    }
}
