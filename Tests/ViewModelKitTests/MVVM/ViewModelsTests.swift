import Observation
import Testing
import ViewModelKitSchedulers

@testable import ViewModelKit

/// An observer of a fixed model and a collection of models.
private final class ListObserver: ViewModelObserver {
    let updateScheduler: TestScheduler
    @ViewModel var flag = FlagModel()
    @ViewModels var items: [CounterModel]
    var seen: [[Int]] = []
    var onUpdate: ((ListObserver) -> Void)?

    init(_ items: [CounterModel], scheduler: TestScheduler, bind: Bool = true) {
        updateScheduler = scheduler
        self.items = items
        if bind { bindViewModels() }
    }

    nonisolated func updateView() {
        seen.append(items.map(\.count))
        onUpdate?(self)
    }
}

/// A collection of Swift Observation models.
private final class ObservationListObserver: ViewModelObserver {
    let updateScheduler: TestScheduler
    @ViewModels var items: [ObservationCounter] = [ObservationCounter(), ObservationCounter()]
    var seen: [[Int]] = []
    init(scheduler: TestScheduler) {
        updateScheduler = scheduler
        bindViewModels()
    }
    nonisolated func updateView() { seen.append(items.map(\.count)) }
}

private func models(_ count: Int) -> [CounterModel] {
    (0..<count).map { index in
        let model = CounterModel()
        model.count = index * 10
        return model
    }
}

@Suite struct ViewModelsTests {
    @Test func bindViewModelsGivesOneInitialUpdateForEverything() {
        let scheduler = TestScheduler()
        let observer = ListObserver(models(3), scheduler: scheduler)
        #expect(observer.seen == [[0, 10, 20]])
        scheduler.advance()
        #expect(observer.seen == [[0, 10, 20]])
    }

    @Test func assignmentInInitBindsEveryElementAndTheDefaultAndDrawsAtOnce() {
        let scheduler = TestScheduler()
        let observer = ListObserver(models(2), scheduler: scheduler, bind: false)
        #expect(observer.seen == [[0, 10]])  // no bindViewModels() needed
        let items = observer.items
        #expect(observer.seen == [[0, 10]])  // reading adds nothing
        items[1].count = 11
        scheduler.advance()
        #expect(observer.seen == [[0, 10], [0, 11]])
        observer.flag.isOn = true  // the default value was bound by the assignment too
        scheduler.advance()
        #expect(observer.seen == [[0, 10], [0, 11], [0, 11]])
    }

    @Test func changesToManyElementsAndAPropertyGiveOneUpdatePerTurn() {
        let scheduler = TestScheduler()
        let items = models(50)
        let observer = ListObserver(items, scheduler: scheduler)
        scheduler.schedule { for item in items { item.count += 1 } }
        scheduler.schedule { observer.flag.isOn = true }
        scheduler.schedule { items[0].label = "changed" }
        scheduler.advance()
        #expect(observer.seen.count == 2)
        #expect(observer.seen.last == items.map(\.count))
        #expect(observer.seen.last?.first == 1)
        scheduler.advance()
        #expect(observer.seen.count == 2)
    }

    @Test func reassignmentUnbindsRemovedElementsAndBindsNewOnesWithOneUpdate() {
        let scheduler = TestScheduler()
        let items = models(3)
        let observer = ListObserver(items, scheduler: scheduler)
        items[0].count = 1  // pending when the collection is replaced
        let newcomer = CounterModel()
        newcomer.count = 100
        observer.items = [items[1], items[2], newcomer]
        #expect(observer.seen == [[0, 10, 20], [10, 20, 100]])  // exactly one synchronous update
        scheduler.advance()
        #expect(observer.seen.count == 2)  // the removed element's pending change gives none
        items[0].count = 2
        scheduler.advance()
        #expect(observer.seen.count == 2)  // nor do its later changes
        items[1].count = 11  // a kept element is still bound
        scheduler.advance()
        #expect(observer.seen.last == [11, 20, 100])
        newcomer.count = 101  // and so is the new one
        scheduler.advance()
        #expect(observer.seen == [[0, 10, 20], [10, 20, 100], [11, 20, 100], [11, 20, 101]])
    }

    @Test func inPlaceMutationRebindsWithOneUpdate() {
        let scheduler = TestScheduler()
        let observer = ListObserver(models(1), scheduler: scheduler)
        let added = CounterModel()
        observer.items.append(added)
        #expect(observer.seen == [[0], [0, 0]])
        added.count = 5
        scheduler.advance()
        #expect(observer.seen == [[0], [0, 0], [0, 5]])
        let removed = observer.items.removeFirst()
        #expect(observer.seen.last == [5])
        removed.count = 1
        scheduler.advance()
        #expect(observer.seen.count == 4)
    }

    @Test func removedElementDiesWithoutAnUpdateAndLeavesNoListener() {
        let scheduler = TestScheduler()
        let keeper = CounterModel()
        weak var weakRemoved: CounterModel?
        let observer: ListObserver
        do {
            let removed = CounterModel()
            weakRemoved = removed
            observer = ListObserver([keeper, removed], scheduler: scheduler)
            removed.count = 3  // pending when it is removed and dies
            observer.items = [keeper]
        }
        #expect(weakRemoved == nil)  // unbound and released: nothing retains it
        #expect(observer.seen == [[0, 0], [0]])
        scheduler.advance()
        #expect(observer.seen == [[0, 0], [0]])
        #expect(keeper.objectWillChange.didChangeListenerCountForTesting == 1)
    }

    @Test func observerDeathReleasesEveryElementAndCallsNothing() {
        let scheduler = TestScheduler()
        let survivor = CounterModel()
        weak var weakOwned: CounterModel?
        var calls = 0
        do {
            let owned = CounterModel()
            weakOwned = owned
            let observer = ListObserver([survivor, owned], scheduler: scheduler)
            observer.onUpdate = { _ in calls += 1 }
            survivor.count = 1  // pending when the observer dies
        }
        #expect(weakOwned == nil)
        scheduler.advance()
        survivor.count = 2
        scheduler.advance()
        #expect(calls == 0)
        #expect(survivor.objectWillChange.didChangeListenerCountForTesting == 0)
    }

    @Test func anElementListedTwiceIsBoundOnceAndStaysBoundWhileListed() {
        let scheduler = TestScheduler()
        let shared = CounterModel()
        let observer = ListObserver([shared, shared], scheduler: scheduler)
        #expect(shared.objectWillChange.didChangeListenerCountForTesting == 1)
        shared.count = 1
        scheduler.advance()
        #expect(observer.seen == [[0, 0], [1, 1]])
        observer.items = [shared]
        shared.count = 2
        scheduler.advance()
        #expect(observer.seen == [[0, 0], [1, 1], [1], [2]])
    }

    @Test func assignmentInsideUpdateViewGivesOneMoreUpdateNextTurnNotARecursiveOne() {
        let scheduler = TestScheduler()
        let items = models(2)
        let observer = ListObserver([items[0]], scheduler: scheduler)
        var depth = 0
        var maxDepth = 0
        observer.onUpdate = { view in
            depth += 1
            maxDepth = max(maxDepth, depth)
            if view.items.count == 1 && view.flag.isOn { view.items = items }  // sync the list
            depth -= 1
        }
        observer.flag.isOn = true
        scheduler.advance()
        #expect(observer.seen == [[0], [0]])
        #expect(maxDepth == 1)  // not recursive
        scheduler.advance()
        #expect(observer.seen == [[0], [0], [0, 10]])  // exactly one more, next turn
        scheduler.advance()
        #expect(observer.seen.count == 3)
        items[1].count = 11  // the element bound inside updateView() is observed
        scheduler.advance()
        #expect(observer.seen.last == [0, 11])
    }

    @Test func observationElementsShareTheCoalescing() {
        let scheduler = TestScheduler()
        let observer = ObservationListObserver(scheduler: scheduler)
        #expect(observer.seen == [[0, 0]])
        observer.items[0].count = 1
        observer.items[1].count = 2
        scheduler.advance()
        #expect(observer.seen == [[0, 0], [1, 2]])
        let replacement = ObservationCounter()
        replacement.count = 7
        let old = observer.items[1]
        observer.items[1] = replacement
        #expect(observer.seen.last == [1, 7])
        replacement.count = 8
        scheduler.advance()
        #expect(observer.seen.last == [1, 8])
        old.count = 99  // removed: gives nothing
        scheduler.advance()
        #expect(observer.seen.count == 4)
    }
}

/// `@ViewModel` follows the same rule as `@ViewModels` inside `updateView()`.
private final class SwappingObserver: ViewModelObserver {
    let updateScheduler: TestScheduler
    @ViewModel var counter = CounterModel()
    var next: CounterModel?
    var seen: [Int] = []
    var depth = 0
    var maxDepth = 0
    init(scheduler: TestScheduler) {
        updateScheduler = scheduler
        bindViewModels()
    }
    nonisolated func updateView() {
        depth += 1
        maxDepth = max(maxDepth, depth)
        seen.append(counter.count)
        if let next {
            self.next = nil
            counter = next
        }
        depth -= 1
    }
}

@Suite struct ViewModelAssignmentInsideUpdateTests {
    @Test func reassigningAViewModelInsideUpdateViewDoesNotRecurse() {
        let scheduler = TestScheduler()
        let observer = SwappingObserver(scheduler: scheduler)
        let replacement = CounterModel()
        replacement.count = 5
        observer.next = replacement
        observer.counter.count = 1
        scheduler.advance()
        #expect(observer.seen == [0, 1])
        #expect(observer.maxDepth == 1)
        scheduler.advance()
        #expect(observer.seen == [0, 1, 5])
        scheduler.advance()
        #expect(observer.seen == [0, 1, 5])
    }
}
