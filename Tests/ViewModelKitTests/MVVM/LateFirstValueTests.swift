import LoopTestSupport
import XCTest

@testable import ViewModelKit

/// Two view models declared without values, assigned in init: the first assignment leaves an
/// update pending (the pair is incomplete), the second draws at once, so the first flush finds
/// its signal with nothing left to draw.
private final class PairObserver: ViewModelObserver, @unchecked Sendable {
    @ViewModel var counter: CounterModel
    @ViewModel var flag: FlagModel
    var seen: [Int] = []

    init() {
        self.counter = CounterModel()
        self.flag = FlagModel()
    }

    func updateView() { seen.append(counter.count) }
}

/// A model's first change that arrives after the observer's first flush, on a later iteration
/// of the main loop (a network answer, a timer), is drawn by exactly one `updateView()` in the
/// iteration it arrives: a flush that found nothing to draw must leave the observer ready to be
/// signalled again. XCTest runs these on the main thread, as `EventLoop.main` needs.
final class LateFirstValueTests: XCTestCase {
    private var loop: EventLoop { EventLoop.main }

    override func setUp() {
        super.setUp()
        for _ in 0..<3 { loop.runOnce(blocking: false) }  // nothing from another test leaks in
    }

    func testAFirstChangeAfterTheFirstFlushGivesOneUpdateInTheIterationItArrives() {
        let observer = PairObserver()
        XCTAssertEqual(observer.seen, [0])  // the assignment completing the pair drew
        loop.runOnce(blocking: false)  // the first flush: its pending signal was drawn already
        XCTAssertEqual(observer.seen, [0])
        let arrived = Shared(false)
        loop.execute { @Sendable in
            observer.counter.count = 7
            arrived.value = true
        }
        // One iteration runs the callback, then its flush.
        let guardTimer = loop.scheduleTimer(after: .seconds(5)) {}
        loop.runOnce(blocking: true)
        guardTimer.cancel()
        XCTAssertTrue(arrived.value)
        XCTAssertEqual(observer.seen, [0, 7])
        for _ in 0..<3 { loop.runOnce(blocking: false) }
        XCTAssertEqual(observer.seen, [0, 7])
    }
}
