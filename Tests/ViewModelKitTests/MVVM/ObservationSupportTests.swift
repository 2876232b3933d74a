import Observation
import Testing
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

    func updateView() {
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

    /// Documented limitation: Observation installs its tracking after `updateView()` returns, so
    /// a change made inside `updateView()` to an Observation model is not reported (an
    /// `ObservableObject` model does give the one extra update).
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
}
