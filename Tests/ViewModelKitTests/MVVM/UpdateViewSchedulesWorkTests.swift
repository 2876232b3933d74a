import Testing

@testable import ViewModelKit

/// An observer on a loop of its own whose `updateView()` schedules work that changes its model
/// ("mark as seen after drawing").
private final class MarkSeenObserver: ViewModelObserver {
    let updateScheduler: LoopScheduler
    @ViewModel var counter = CounterModel()
    var drawn: [Int] = []

    init(loop: EventLoop) {
        updateScheduler = LoopScheduler(loop: loop)
        bindViewModels(initialUpdate: false)
    }

    func updateView() {
        drawn.append(counter.count)
        // Bounded, so that a failure is a count and not a hang.
        if drawn.count >= 100 { updateScheduler.loop.stop() }
        updateScheduler.schedule { [counter] in counter.count += 1 }
    }
}

/// Regression: one `runOnce` never ended when `updateView()` scheduled work that changed a
/// model (libevent's `EVLOOP_ONCE` kept running while callbacks were active). The work queued by
/// the update belongs to the next iteration: one `updateView()` per `runOnce`.
@Suite struct UpdateViewSchedulesWorkTests {
    @Test func oneUpdatePerRunOnceWhenUpdateViewSchedulesAChange() throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let observer = MarkSeenObserver(loop: loop)
        observer.counter.count = 10
        loop.runOnce(blocking: true)
        #expect(observer.drawn == [10])
        loop.runOnce(blocking: true)
        #expect(observer.drawn == [10, 11])
        loop.runOnce(blocking: true)
        #expect(observer.drawn == [10, 11, 12])
    }
}
