import Observation
import Testing
import ViewModelKitSchedulers

@testable import ViewModelKit

/// A Swift Observation model, in the same file as ViewModelKit's `Observable<Value>`.
@Observable
final class ObservationCounter {
    var count = 0
    var untracked = 0
}

private final class ObservationObserver: ViewModelObserver {
    let updateScheduler: TestScheduler
    @ViewModel var model = ObservationCounter()
    @ViewModel var title: ViewModelKit.Observable<String>
    var seen: [String] = []
    var onUpdate: ((ObservationObserver) -> Void)?

    init(scheduler: TestScheduler, title: ViewModelKit.Observable<String>) {
        updateScheduler = scheduler
        self.title = title
        bindViewModels()
    }

    nonisolated func updateView() {
        seen.append("\(title.value):\(model.count)")
        onUpdate?(self)
    }
}

@Suite struct ObservationSupportTests {
    @Test func observationAndViewModelKitObservableCoexist() {
        let subject = CurrentValueSubject<String, Never>("a")
        let title: ViewModelKit.Observable<String> = subject.asObservable()
        #expect(title.value == "a")
        let tracked: AnyObject = ObservationCounter()
        let wrapped: AnyObject = title
        #expect(tracked is any Observation.Observable)
        #expect(!(wrapped is any Observation.Observable))
        #expect(wrapped is any ObservableObject)
    }

    @Test func observationModelChangesAreCoalescedAndReArmed() {
        let scheduler = TestScheduler()
        let subject = CurrentValueSubject<String, Never>("t")
        let observer = ObservationObserver(scheduler: scheduler, title: subject.asObservable())
        #expect(observer.seen == ["t:0"])
        for _ in 0..<10 { observer.model.count += 1 }
        scheduler.advance()
        #expect(observer.seen == ["t:0", "t:10"])
        // Re-armed after the update: the next change is seen too.
        observer.model.count = 11
        subject.send("u")
        scheduler.advance()
        #expect(observer.seen == ["t:0", "t:10", "u:11"])
        // A property updateView() never reads does not trigger an update.
        observer.model.untracked = 1
        scheduler.advance()
        #expect(observer.seen.count == 3)
    }

    @Test func oneObservationChangeGivesExactlyOneUpdate() {
        let scheduler = TestScheduler()
        let observer = ObservationObserver(
            scheduler: scheduler, title: ViewModelKit.Observable("x"))
        observer.model.count = 1
        scheduler.advance()
        #expect(observer.seen == ["x:0", "x:1"])
        scheduler.advance()
        #expect(observer.seen == ["x:0", "x:1"])
    }

    /// Documented limitation: in the update that a tracked change triggered, nothing is armed
    /// while `updateView()` runs (Observation installs its tracking after it returns), so a
    /// change made inside it to an Observation model is not reported there.
    @Test func changeInsideUpdateViewOfAnObservationModelIsNotReported() {
        let scheduler = TestScheduler()
        let observer = ObservationObserver(scheduler: scheduler, title: ViewModelKit.Observable("x"))
        observer.onUpdate = { view in
            if view.model.count == 1 { view.model.count = 2 }
        }
        observer.model.count = 1
        scheduler.advance()
        #expect(observer.seen == ["x:0", "x:1"])
        #expect(observer.model.count == 2)
        scheduler.advance()
        #expect(observer.seen == ["x:0", "x:1"])
        // The next change outside updateView() is seen again (tracking was armed after it).
        observer.model.count = 3
        scheduler.advance()
        #expect(observer.seen == ["x:0", "x:1", "x:3"])
    }

    @Test func updatesTriggeredByOtherModelsDoNotPileUpTrackings() {
        let scheduler = TestScheduler()
        let observer = MixedObserver(scheduler: scheduler)
        let coordinator = CoordinatorTable.coordinator(for: observer)
        #expect(coordinator.installedTrackingCount == 1)  // the initial update armed it
        for i in 1...100 {
            observer.counter.count = i
            scheduler.advance()
        }
        #expect(observer.seen.count == 101)
        #expect(coordinator.installedTrackingCount == 1)  // still the one armed tracking
        observer.model.count = 7  // the armed tracking fires: one update, which re-arms
        scheduler.advance()
        #expect(observer.seen.count == 102)
        #expect(observer.seen.last == "100:7")
        #expect(coordinator.installedTrackingCount == 2)
        scheduler.advance()
        #expect(observer.seen.count == 102)
    }

    @Test func anUpdateThatReadsNoObservationPropertyArmsNothing() {
        let scheduler = TestScheduler()
        let observer = MixedObserver(scheduler: scheduler, readsModelWhen: { $0 >= 1 })
        let coordinator = CoordinatorTable.coordinator(for: observer)
        #expect(observer.seen == ["0:-"])
        #expect(coordinator.installedTrackingCount == 0)
        observer.model.count = 1  // not read yet: not tracked
        scheduler.advance()
        #expect(observer.seen == ["0:-"])
        observer.counter.count = 1  // now updateView() reads the model: tracking is armed
        scheduler.advance()
        #expect(observer.seen == ["0:-", "1:1"])
        #expect(coordinator.installedTrackingCount == 1)
        observer.model.count = 2
        scheduler.advance()
        #expect(observer.seen == ["0:-", "1:1", "1:2"])
    }

    /// The documented consequence of not re-arming while armed: a property first read in an
    /// update that found a tracking armed is tracked only after that tracking fires.
    @Test func aPropertyFirstReadWhileArmedIsTrackedAfterTheArmedTrackingFires() {
        let scheduler = TestScheduler()
        let observer = MixedObserver(scheduler: scheduler, readsUntrackedWhen: { $0 >= 1 })
        #expect(observer.seen == ["0:0"])
        observer.counter.count = 1  // updateView() now also reads `untracked`; still armed
        scheduler.advance()
        #expect(observer.seen == ["0:0", "1:0+0"])
        observer.model.untracked = 5  // not in the armed tracking: no update
        scheduler.advance()
        #expect(observer.seen.count == 2)
        observer.model.count = 1  // fires: the update re-arms with both properties
        scheduler.advance()
        #expect(observer.seen == ["0:0", "1:0+0", "1:1+5"])
        observer.model.untracked = 6
        scheduler.advance()
        #expect(observer.seen == ["0:0", "1:0+0", "1:1+5", "1:1+6"])
    }

    @Test func changeInsideUpdateViewIsReportedWhileATrackingIsArmed() {
        let scheduler = TestScheduler()
        let observer = MixedObserver(scheduler: scheduler)
        observer.onUpdate = { view in
            if view.counter.count == 1 && view.model.count == 0 { view.model.count = 1 }
        }
        observer.counter.count = 1  // an ObservableObject change: the tracking stays armed
        scheduler.advance()
        #expect(observer.seen == ["0:0", "1:0"])
        scheduler.advance()
        #expect(observer.seen == ["0:0", "1:0", "1:1"])  // exactly one more, next turn
        scheduler.advance()
        #expect(observer.seen.count == 3)
    }

    @Test func replacingAnObservationModelIgnoresTheOldOne() {
        let scheduler = TestScheduler()
        let observer = MixedObserver(scheduler: scheduler)
        let old = observer.model
        let replacement = ObservationCounter()
        replacement.count = 40
        observer.model = replacement
        #expect(observer.seen == ["0:0", "0:40"])
        old.count = 1  // its tracking is stale: nothing
        scheduler.advance()
        #expect(observer.seen.count == 2)
        replacement.count = 41
        scheduler.advance()
        #expect(observer.seen == ["0:0", "0:40", "0:41"])
    }
}

/// An observer of an ObservableObject and an Observation model.
private final class MixedObserver: ViewModelObserver {
    let updateScheduler: TestScheduler
    @ViewModel var counter = CounterModel()
    @ViewModel var model = ObservationCounter()
    let readsModelWhen: (Int) -> Bool
    let readsUntrackedWhen: (Int) -> Bool
    var seen: [String] = []
    var onUpdate: ((MixedObserver) -> Void)?

    init(
        scheduler: TestScheduler, readsModelWhen: @escaping (Int) -> Bool = { _ in true },
        readsUntrackedWhen: @escaping (Int) -> Bool = { _ in false }
    ) {
        updateScheduler = scheduler
        self.readsModelWhen = readsModelWhen
        self.readsUntrackedWhen = readsUntrackedWhen
        bindViewModels()
    }

    nonisolated func updateView() {
        let count = counter.count
        guard readsModelWhen(count) else {
            seen.append("\(count):-")
            return
        }
        if readsUntrackedWhen(count) {
            seen.append("\(count):\(model.count)+\(model.untracked)")
        } else {
            seen.append("\(count):\(model.count)")
        }
        onUpdate?(self)
    }
}
