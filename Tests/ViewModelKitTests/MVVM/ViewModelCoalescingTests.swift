import Foundation
import Testing
import ViewModelKitSchedulers

@testable import ViewModelKit

/// An observer of two view models.
private final class DashboardObserver: ViewModelObserver {
    let updateScheduler: TestScheduler
    @ViewModel var counter = CounterModel()
    @ViewModel var flag = FlagModel()
    var updates: [(count: Int, label: String, isOn: Bool)] = []

    init(scheduler: TestScheduler) {
        updateScheduler = scheduler
        bindViewModels()
    }

    nonisolated func updateView() {
        updates.append((counter.count, counter.label, flag.isOn))
    }
}

/// An observer that names itself in a shared log.
private final class NamedObserver: ViewModelObserver {
    let updateScheduler: TestScheduler
    let name: String
    let log: UpdateLog
    @ViewModel var counter: CounterModel

    init(_ name: String, _ counter: CounterModel, scheduler: TestScheduler, log: UpdateLog) {
        self.name = name
        self.log = log
        updateScheduler = scheduler
        self.counter = counter
        bindViewModels()
    }

    nonisolated func updateView() { log.append("\(name):\(counter.count)") }
}

/// An observer of a thread-safe counter.
private final class AtomicObserver: ViewModelObserver {
    let updateScheduler: TestScheduler
    @ViewModel var counter = AtomicCounterModel()
    var seen: [Int] = []

    init(scheduler: TestScheduler) {
        updateScheduler = scheduler
        bindViewModels()
    }

    nonisolated func updateView() { seen.append(counter.count) }
}

@Suite struct ViewModelCoalescingTests {
    // 1
    @Test func tenChangesInOneTurnGiveOneUpdateWithTheFinalValue() {
        let scheduler = TestScheduler()
        let observer = CounterObserver(CounterModel(), scheduler: scheduler)
        #expect(observer.seen == [0])  // the assignment in init bound it and drew once, at once
        for i in 1...10 { observer.counter.count = i }
        scheduler.advance()
        #expect(observer.seen == [0, 10])
        scheduler.advance()
        #expect(observer.seen == [0, 10])
    }

    // 2
    @Test func threePropertiesOfTwoModelsFromThreeCallbacksGiveOneUpdate() {
        let scheduler = TestScheduler()
        let observer = DashboardObserver(scheduler: scheduler)
        #expect(observer.updates.count == 1)  // bindViewModels: one initial update for both
        scheduler.schedule { observer.counter.count = 1 }
        scheduler.schedule { observer.counter.label = "one" }
        scheduler.schedule { observer.flag.isOn = true }
        scheduler.advance()
        scheduler.advance()
        #expect(observer.updates.count == 2)
        #expect(observer.updates.last! == (1, "one", true))
        scheduler.advance()
        #expect(observer.updates.count == 2)
    }

    // 3
    @Test func changeInsideUpdateViewGivesExactlyOneMoreUpdateNextTurn() {
        let scheduler = TestScheduler()
        let observer = CounterObserver(CounterModel(), scheduler: scheduler)
        observer.onUpdate = { view in
            if view.counter.count == 1 { view.counter.count = 2 }
        }
        observer.counter.count = 1
        scheduler.advance()
        #expect(observer.seen == [0, 1])  // not recursive: the change inside waits a turn
        scheduler.advance()
        #expect(observer.seen == [0, 1, 2])
        scheduler.advance()
        #expect(observer.seen == [0, 1, 2])
    }

    // 4
    @Test func twoObserversOfOneModelEachGetOneUpdateInRegistrationOrder() {
        let scheduler = TestScheduler()
        let log = UpdateLog()
        let model = CounterModel()
        let first = NamedObserver("first", model, scheduler: scheduler, log: log)
        let second = NamedObserver("second", model, scheduler: scheduler, log: log)
        #expect(log.entries == ["first:0", "second:0"])
        model.count = 1
        model.count = 2
        scheduler.advance()
        #expect(log.entries == ["first:0", "second:0", "first:2", "second:2"])
        model.count = 3
        scheduler.advance()
        #expect(log.entries.suffix(2) == ["first:3", "second:3"])
        withExtendedLifetime((first, second)) {}
    }

    // 5
    @Test func fourThousandChangesFromFourThreadsGiveOneUpdateSeeingAll() async {
        let scheduler = TestScheduler()
        let observer = AtomicObserver(scheduler: scheduler)
        let model = observer.counter
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    for _ in 0..<1_000 { model.increment() }
                }
            }
        }
        scheduler.advance()
        #expect(observer.seen == [0, 4_000])
        scheduler.advance()
        #expect(observer.seen == [0, 4_000])
    }

    // 6
    @Test func observerDeallocatedWithAPendingChangeGetsNoCallAndLeaksNothing() {
        let scheduler = TestScheduler()
        let model = CounterModel()
        var calls = 0
        weak var weakObserver: CounterObserver?
        do {
            let observer = CounterObserver(model, scheduler: scheduler)
            #expect(observer.seen == [0])  // the initial update, in init
            observer.onUpdate = { _ in calls += 1 }
            weakObserver = observer
            model.count = 1  // pending
        }
        #expect(weakObserver == nil)
        #expect(calls == 0)
        scheduler.advance()
        model.count = 2
        scheduler.advance()
        #expect(calls == 0)
    }

    @Test func observerDeathEndsEverySubscriptionAndReleasesTheModel() {
        let scheduler = TestScheduler()
        weak var weakModel: CounterModel?
        weak var weakObserver: DashboardObserver?
        var tokens: [AnyCancellable] = []
        var published = 0
        do {
            let observer = DashboardObserver(scheduler: scheduler)
            weakModel = observer.counter
            weakObserver = observer
            observer.$counter.sink { _ in published += 1 }.store(in: &tokens)
            scheduler.advance()
            #expect(published == 1)
        }
        #expect(weakObserver == nil)
        #expect(weakModel == nil)  // the wrapper owned it; nothing else retains it
        scheduler.advance()
        #expect(published == 1)
        _ = tokens
    }

    // 7
    @Test func reassignmentGivesOneUpdateAndTheOldModelGivesNone() {
        let scheduler = TestScheduler()
        let old = CounterModel()
        let observer = CounterObserver(old, scheduler: scheduler)
        old.count = 1  // pending when the model is replaced
        let new = CounterModel()
        new.count = 100
        observer.counter = new
        #expect(observer.seen == [0, 100])  // exactly one synchronous update
        scheduler.advance()
        #expect(observer.seen == [0, 100])  // the old pending change gives none
        old.count = 2
        scheduler.advance()
        #expect(observer.seen == [0, 100])
        new.count = 101
        scheduler.advance()
        #expect(observer.seen == [0, 100, 101])
    }

    @Test func defaultValueBindsOnFirstAccessOfTheProjection() {
        let scheduler = TestScheduler()
        let observer = DefaultValueObserver(scheduler: scheduler)
        #expect(observer.updates == 0)
        var seen: [Int] = []
        let token = observer.$counter.sink { seen.append($0.count) }
        #expect(observer.updates == 1)  // binding on first access gives the initial update
        observer.counter.count = 5
        scheduler.advance()
        #expect(observer.updates == 2)
        #expect(seen == [0, 5])  // the current model at once on the first demand, then the change
        token.cancel()
    }

    // The source's handler holds the coordinator strongly; the storages' lease cancels the
    // source when the observer dies, which must free the coordinator (also with a delivery
    // already queued on the scheduler) and call nothing.
    @Test func coordinatorDiesWithItsObserverWithAQueuedDelivery() {
        let scheduler = TestScheduler()
        let model = CounterModel()
        weak var weakObserver: CounterObserver?
        weak var weakCoordinator: UpdateCoordinator<TestScheduler>?
        let calls = UpdateLog()
        do {
            let observer = CounterObserver(model, scheduler: scheduler)
            observer.onUpdate = { _ in calls.append("update") }
            weakObserver = observer
            weakCoordinator = CoordinatorTable.coordinator(for: observer)
            #expect(weakCoordinator != nil)
            model.count = 1  // a delivery queued on the scheduler
        }
        #expect(weakObserver == nil)
        #expect(weakCoordinator == nil)
        scheduler.advance()
        model.count = 2
        scheduler.advance()
        #expect(calls.entries.isEmpty)
    }

    @Test func coordinatorTableDoesNotGrowWithDeadObservers() {
        let scheduler = TestScheduler()
        for _ in 0..<50 {
            _ = CounterObserver(CounterModel(), scheduler: scheduler)  // binds in init
        }
        #expect(CoordinatorTable.count < 50)
    }
}

private final class DefaultValueObserver: ViewModelObserver {
    let updateScheduler: TestScheduler
    @ViewModel var counter = CounterModel()
    var updates = 0
    init(scheduler: TestScheduler) { updateScheduler = scheduler }
    nonisolated func updateView() { updates += 1 }
}

private final class OptionedObserver: ViewModelObserver {
    let updateScheduler: OptionsRecordingScheduler
    var updateOptions: String? { "observer-options" }
    @ViewModel var first = CounterModel()
    @ViewModel var second = FlagModel()
    var updates = 0
    init(scheduler: OptionsRecordingScheduler) {
        updateScheduler = scheduler
        bindViewModels()
    }
    nonisolated func updateView() { updates += 1 }
}

@Suite struct ViewModelObserverOptionsTests {
    @Test func updateOptionsReachTheSchedulerOncePerObserver() {
        let scheduler = OptionsRecordingScheduler(TestScheduler())
        let observer = OptionedObserver(scheduler: scheduler)
        #expect(scheduler.recordedOptions == ["observer-options"])  // one source for two properties
        observer.first.count = 1
        observer.second.isOn = true
        scheduler.base.advance()
        #expect(observer.updates == 2)
    }
}

private class BaseObserver: ViewModelObserver {
    let updateScheduler: TestScheduler
    @ViewModel var counter = CounterModel()
    var updates = 0
    init(scheduler: TestScheduler) { updateScheduler = scheduler }
    nonisolated func updateView() { updates += 1 }
}

private final class DerivedObserver: BaseObserver {
    @ViewModel var flag = FlagModel()
    override init(scheduler: TestScheduler) {
        super.init(scheduler: scheduler)
        bindViewModels()
    }
}

@Suite struct ViewModelInheritanceTests {
    @Test func propertiesOfBaseAndSubclassShareOneCoordinator() {
        let scheduler = TestScheduler()
        let observer = DerivedObserver(scheduler: scheduler)
        #expect(observer.updates == 1)  // one initial update for both properties
        observer.counter.count = 1
        observer.flag.isOn = true
        scheduler.advance()
        #expect(observer.updates == 2)
    }
}

private final class RankedObserver: ViewModelObserver {
    let updateScheduler: TestScheduler
    let updateOptions: TestScheduler.SchedulerOptions?
    let name: String
    let log: UpdateLog
    @ViewModel var counter: CounterModel

    init(_ name: String, rank: Int, _ counter: CounterModel, scheduler: TestScheduler, log: UpdateLog) {
        self.name = name
        self.log = log
        updateScheduler = scheduler
        updateOptions = .init(flushOrder: rank)
        self.counter = counter
        bindViewModels()
    }

    nonisolated func updateView() { log.append("\(name):\(counter.count)") }
}

@Suite struct ViewModelObserverOrderTests {
    @Test func flushOrderFromUpdateOptionsRanksObservers() {
        let scheduler = TestScheduler()
        let log = UpdateLog()
        let model = CounterModel()
        let late = RankedObserver("late", rank: 0, model, scheduler: scheduler, log: log)
        let early = RankedObserver("early", rank: -1, model, scheduler: scheduler, log: log)
        model.count = 1
        scheduler.advance()
        #expect(log.entries == ["late:0", "early:0", "early:1", "late:1"])
        withExtendedLifetime((late, early)) {}
    }
}
