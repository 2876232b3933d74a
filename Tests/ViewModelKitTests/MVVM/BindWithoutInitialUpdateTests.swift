import Testing
import ViewModelKitSchedulers

@testable import ViewModelKit

/// Two view models bound without the initial draw.
private final class QuietObserver: ViewModelObserver {
    let updateScheduler: TestScheduler
    @ViewModel var counter = CounterModel()
    @ViewModel var flag = FlagModel()
    var seen: [Int] = []

    init(scheduler: TestScheduler, initialUpdate: Bool) {
        updateScheduler = scheduler
        bindViewModels(initialUpdate: initialUpdate)
    }

    nonisolated func updateView() { seen.append(counter.count) }
}

@Suite struct BindWithoutInitialUpdateTests {
    @Test func bindsWithoutDrawingThenUpdatesOnTheFirstChange() {
        let scheduler = TestScheduler()
        let observer = QuietObserver(scheduler: scheduler, initialUpdate: false)
        #expect(observer.seen == [])
        _ = observer.counter  // already bound: reading gives no initial update either
        scheduler.advance()
        #expect(observer.seen == [])
        observer.counter.count = 1
        observer.flag.isOn = true
        #expect(observer.seen == [])
        scheduler.advance()
        #expect(observer.seen == [1])  // one update for both models
        scheduler.advance()
        #expect(observer.seen == [1])
    }

    @Test func defaultStillDrawsOnceForAllProperties() {
        let scheduler = TestScheduler()
        let observer = QuietObserver(scheduler: scheduler, initialUpdate: true)
        #expect(observer.seen == [0])
        scheduler.advance()
        #expect(observer.seen == [0])
    }

    @Test func reassignmentAfterAQuietBindStillUpdatesOnce() {
        let scheduler = TestScheduler()
        let observer = QuietObserver(scheduler: scheduler, initialUpdate: false)
        let replacement = CounterModel()
        replacement.count = 7
        observer.counter = replacement
        #expect(observer.seen == [7])
        scheduler.advance()
        #expect(observer.seen == [7])
    }
}
