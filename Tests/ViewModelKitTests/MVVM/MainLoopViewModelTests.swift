import Dispatch
import Foundation
import LoopTestSupport
import Synchronization
import XCTest

@testable import ViewModelKit

// The iteration contract on the real main loop. XCTest runs these on the main thread, which
// EventLoop.main, DispatchQueue.main and the MainActor need. Each test drives iterations itself
// with `EventLoop.main.runOnce(blocking:)`; nothing depends on machine speed.

/// An observer on the default scheduler (`LoopScheduler.main`).
private final class LoopObserver: ViewModelObserver, @unchecked Sendable {
    @ViewModel var counter: CounterModel
    @ViewModel var flag = FlagModel()
    let name: String
    let log: UpdateLog?
    var updates: [(count: Int, label: String, isOn: Bool)] = []
    var onUpdate: ((LoopObserver) -> Void)?

    init(_ counter: CounterModel, name: String = "", log: UpdateLog? = nil) {
        self.name = name
        self.log = log
        self.counter = counter
        bindViewModels()
    }

    func updateView() {
        XCTAssertTrue(Thread.isMainThread)
        updates.append((counter.count, counter.label, flag.isOn))
        log?.append("\(name):\(counter.count)")
        onUpdate?(self)
    }
}

private final class AtomicLoopObserver: ViewModelObserver {
    @ViewModel var counter = AtomicCounterModel()
    var seen: [Int] = []
    init() { bindViewModels() }
    func updateView() { seen.append(counter.count) }
}

private final class QuietLoopObserver: ViewModelObserver {
    @ViewModel var counter = CounterModel()
    var seen: [Int] = []
    init() { bindViewModels(initialUpdate: false) }
    func updateView() { seen.append(counter.count) }
}

private final class ListLoopObserver: ViewModelObserver, @unchecked Sendable {
    @ViewModels var items: [CounterModel]
    var seen: [[Int]] = []
    init(_ items: [CounterModel]) {
        self.items = items
        bindViewModels()
    }
    func updateView() { seen.append(items.map(\.count)) }
}

private final class MixedLoopObserver: ViewModelObserver {
    @ViewModel var counter = CounterModel()
    @ViewModel var model = ObservationCounter()
    var seen: [String] = []
    init() { bindViewModels() }
    func updateView() { seen.append("\(counter.count):\(model.count)") }
}

/// A view model isolated to the main actor.
@MainActor
private final class MainActorCounter: ObservableObject {
    @Published var count = 0
}

@MainActor
private final class MainActorObserver: @MainActor ViewModelObserver {
    @ViewModel var counter = MainActorCounter()
    var seen: [Int] = []
    var offMainThread = 0
    init() { bindViewModels() }
    func updateView() {
        if !Thread.isMainThread { offMainThread += 1 }
        seen.append(counter.count)
    }
}

final class MainLoopViewModelTests: XCTestCase {
    private var loop: EventLoop { EventLoop.main }

    /// Runs non-blocking iterations until none is left to do (bounded).
    private func drain(_ iterations: Int = 3) {
        for _ in 0..<iterations { loop.runOnce(blocking: false) }
    }

    /// Runs blocking iterations until `done()` (with a 5 s safety timer), then drains.
    private func run(until done: () -> Bool) {
        let timedOut = Shared(false)
        let guardTimer = loop.scheduleTimer(after: .seconds(5)) { timedOut.value = true }
        while !done() && !timedOut.value { loop.runOnce(blocking: true) }
        guardTimer.cancel()
        XCTAssertFalse(timedOut.value, "timed out")
    }

    override func setUp() {
        super.setUp()
        drain()  // nothing from a previous test may leak into this one
    }

    // 1
    func testTenChangesInOneIterationGiveOneUpdateWithTheFinalValue() {
        let observer = LoopObserver(CounterModel())
        XCTAssertEqual(observer.updates.count, 1)  // initial update
        let done = Shared(false)
        loop.execute { @Sendable in
            for i in 1...10 { observer.counter.count = i }
            done.value = true
        }
        run { done.value }
        XCTAssertEqual(observer.updates.map(\.count), [0, 10])
        drain()
        XCTAssertEqual(observer.updates.count, 2)
    }

    // 2
    func testThreePropertiesOfTwoModelsFromThreeCallbacksOfOneIterationGiveOneUpdate() {
        let observer = LoopObserver(CounterModel())
        let fired = Shared(0)
        // Three different libevent callbacks, all ready before the iteration starts: a job,
        // the main dispatch queue and a zero timer.
        loop.execute { @Sendable in
            observer.counter.count = 1
            fired.mutate { $0 += 1 }
        }
        DispatchQueue.main.async {
            observer.counter.label = "one"
            fired.mutate { $0 += 1 }
        }
        let timer = loop.scheduleTimer(after: .nanoseconds(0)) {
            observer.flag.isOn = true
            fired.mutate { $0 += 1 }
        }
        loop.runOnce(blocking: true)
        XCTAssertEqual(fired.value, 3, "the three callbacks ran in one iteration")
        XCTAssertEqual(observer.updates.count, 2)
        XCTAssertTrue(observer.updates.last! == (1, "one", true))
        drain()
        XCTAssertEqual(observer.updates.count, 2)
        timer.cancel()
    }

    // 3
    func testChangeInsideUpdateViewGivesExactlyOneMoreUpdateInTheNextIteration() {
        let observer = LoopObserver(CounterModel())
        observer.onUpdate = { view in
            if view.counter.count == 1 { view.counter.count = 2 }
        }
        observer.counter.count = 1
        loop.runOnce(blocking: false)
        XCTAssertEqual(observer.updates.map(\.count), [0, 1])
        loop.runOnce(blocking: false)
        XCTAssertEqual(observer.updates.map(\.count), [0, 1, 2])
        drain()
        XCTAssertEqual(observer.updates.map(\.count), [0, 1, 2])
    }

    // 4
    func testTwoObserversEachGetOneUpdatePerIterationInCreationOrder() {
        let log = UpdateLog()
        let model = CounterModel()
        let first = LoopObserver(model, name: "first", log: log)
        let second = LoopObserver(model, name: "second", log: log)
        model.count = 1
        model.count = 2
        loop.runOnce(blocking: false)
        XCTAssertEqual(log.entries, ["first:0", "second:0", "first:2", "second:2"])
        model.count = 3
        loop.runOnce(blocking: false)
        XCTAssertEqual(Array(log.entries.suffix(2)), ["first:3", "second:3"])
        drain()
        XCTAssertEqual(log.entries.count, 6)
        withExtendedLifetime((first, second)) {}
    }

    // 5: the loop runs while four threads change the model.
    func testChangesFromFourThreadsWhileTheLoopRuns() {
        let observer = AtomicLoopObserver()
        let model = observer.counter
        let flushesBefore = loop.completedFlushCount
        let finished = Atomic<Int>(0)
        let threads = (0..<4).map { _ in
            TestThread {
                for _ in 0..<1_000 { model.increment() }
                finished.add(1, ordering: .releasing)
                // Wake the loop to see the count: the last change's signal may already have been
                // handled, and a blocking `runOnce` would then wait for the 5 s guard (seen under
                // TSan on a busy machine).
                DispatchQueue.main.async {}
            }
        }
        run { finished.load(ordering: .acquiring) == 4 }
        for thread in threads { thread.join() }
        drain()
        XCTAssertGreaterThanOrEqual(observer.seen.count, 2)  // initial + at least one
        // At most one update per flush pass. (Not per `runOnce`: with signals arriving from
        // other threads, one blocking `runOnce` may run more than one pass.)
        XCTAssertLessThanOrEqual(observer.seen.count - 1, loop.completedFlushCount - flushesBefore)
        XCTAssertEqual(observer.seen.last, 4_000)
        XCTAssertEqual(observer.seen, observer.seen.sorted())
    }

    // 5: 4,000 changes from four threads while the loop waits coalesce into one update.
    func testChangesFromFourThreadsCoalesceIntoOneUpdate() {
        let observer = AtomicLoopObserver()
        let model = observer.counter
        let threads = (0..<4).map { _ in
            TestThread { for _ in 0..<1_000 { model.increment() } }
        }
        for thread in threads { thread.join() }
        loop.runOnce(blocking: false)
        XCTAssertEqual(observer.seen, [0, 4_000])
        drain()
        XCTAssertEqual(observer.seen, [0, 4_000])
    }

    // 6
    func testObserverDeallocatedWithAPendingChangeGetsNoCall() {
        let model = CounterModel()
        let calls = Shared(0)
        weak var weakObserver: LoopObserver?
        do {
            let observer = LoopObserver(model)
            observer.onUpdate = { _ in calls.mutate { $0 += 1 } }
            weakObserver = observer
            model.count = 1
        }
        XCTAssertNil(weakObserver)
        drain()
        model.count = 2
        drain()
        XCTAssertEqual(calls.value, 0)
    }

    // 6: the source's handler holds the coordinator strongly; the observer's death (its
    // storages' lease) must still free the coordinator, pending change or not.
    func testCoordinatorDiesWithItsObserverEvenWithAChangePending() {
        let model = CounterModel()
        weak var weakObserver: LoopObserver?
        weak var weakCoordinator: UpdateCoordinator<LoopScheduler>?
        do {
            let observer = LoopObserver(model)
            weakObserver = observer
            weakCoordinator = CoordinatorTable.coordinator(for: observer)
            XCTAssertNotNil(weakCoordinator)
            model.count = 1  // queued in the flush
        }
        XCTAssertNil(weakObserver)
        XCTAssertNil(weakCoordinator)
        drain()
        XCTAssertNil(weakCoordinator)
    }

    // 1, 6: an observer dropped by an earlier observer's updateView() in the same flush is not
    // called; the others get exactly one update each, in creation order.
    func testObserverDroppedDuringTheFlushByAnEarlierUpdateIsSkipped() {
        let log = UpdateLog()
        let model = CounterModel()
        let first = LoopObserver(model, name: "first", log: log)
        let second = LoopObserver(model, name: "second", log: log)
        var third: LoopObserver? = LoopObserver(model, name: "third", log: log)
        weak let weakThird = third
        first.onUpdate = { _ in third = nil }
        model.count = 1
        loop.runOnce(blocking: false)
        XCTAssertNil(weakThird)
        XCTAssertEqual(log.entries, ["first:0", "second:0", "third:0", "first:1", "second:1"])
        first.onUpdate = nil
        model.count = 2
        drain()
        XCTAssertEqual(Array(log.entries.dropFirst(5)), ["first:2", "second:2"])
        withExtendedLifetime((first, second)) {}
    }

    // 3, 6: an observer made inside updateView() draws once at once. A change made there gives
    // exactly one more update in the next iteration to every observer whose update of this
    // flush may have drawn the old state (the one that made it, the new one), in creation
    // order; an observer still waiting in this flush draws it now and gets no extra update.
    func testObserverCreatedDuringTheFlushJoinsTheNextIteration() {
        let log = UpdateLog()
        let model = CounterModel()
        let first = LoopObserver(model, name: "first", log: log)
        var created: LoopObserver?
        first.onUpdate = { _ in
            guard created == nil else { return }
            created = LoopObserver(model, name: "created", log: log)
            model.label = "changed in the flush"
        }
        let second = LoopObserver(model, name: "second", log: log)
        XCTAssertEqual(log.entries, ["first:0", "second:0"])
        model.count = 1
        loop.runOnce(blocking: false)
        // `created` draws synchronously when it binds, between first and second.
        XCTAssertEqual(Array(log.entries.dropFirst(2)), ["first:1", "created:1", "second:1"])
        loop.runOnce(blocking: false)
        XCTAssertEqual(Array(log.entries.dropFirst(5)), ["first:1", "created:1"])
        drain()
        XCTAssertEqual(log.entries.count, 7)
        withExtendedLifetime((first, second, created)) {}
    }

    // 7
    func testReassignmentGivesOneUpdateAndTheOldModelNone() {
        let old = CounterModel()
        let observer = LoopObserver(old)
        old.count = 1
        let new = CounterModel()
        new.count = 100
        observer.counter = new
        XCTAssertEqual(observer.updates.map(\.count), [0, 100])
        drain()
        old.count = 2
        drain()
        XCTAssertEqual(observer.updates.map(\.count), [0, 100])
    }

    // 8
    @MainActor
    func testMainActorViewModelChangedFromATaskGivesOneUpdatePerIteration() {
        let observer = MainActorObserver()
        XCTAssertEqual(observer.seen, [0])
        for round in 1...3 {
            let done = Shared(false)
            Task { @MainActor in
                for _ in 0..<10 { observer.counter.count += 1 }
                done.value = true
            }
            run { done.value }
            XCTAssertEqual(observer.seen.count, round + 1, "one update for the task's iteration")
            XCTAssertEqual(observer.seen.last, round * 10)
            drain()
            XCTAssertEqual(observer.seen.count, round + 1)
        }
        XCTAssertEqual(observer.offMainThread, 0)
    }

    func testObjectDidChangeFinishesWhenTheObjectDiesWithoutAPendingChange() {
        var model: CounterModel? = CounterModel()
        var values = 0
        var finished = 0
        let token = model!.objectDidChange.sink(
            receiveCompletion: { _ in finished += 1 }, receiveValue: { _ in values += 1 })
        drain()
        XCTAssertEqual(values, 1)
        XCTAssertEqual(finished, 0)
        model = nil  // nothing pending: the dying object's publisher finishes the relay
        XCTAssertEqual(finished, 0)  // the completion arrives in the loop's flush
        loop.runOnce(blocking: false)
        XCTAssertEqual(finished, 1)
        drain()
        XCTAssertEqual(values, 1)
        XCTAssertEqual(finished, 1)
        token.cancel()
    }

    func testBindViewModelsWithoutInitialUpdateDrawsAtTheFirstChangeOnly() {
        let observer = QuietLoopObserver()
        XCTAssertEqual(observer.seen, [])
        drain()
        XCTAssertEqual(observer.seen, [])
        observer.counter.count = 3
        loop.runOnce(blocking: false)
        XCTAssertEqual(observer.seen, [3])
        drain()
        XCTAssertEqual(observer.seen, [3])
    }

    func testViewModelsElementsChangedFromThreeCallbacksGiveOneUpdatePerIteration() {
        let observer = ListLoopObserver((0..<3).map { _ in CounterModel() })
        XCTAssertEqual(observer.seen, [[0, 0, 0]])
        let items = observer.items
        loop.execute { @Sendable in items[0].count = 1 }
        DispatchQueue.main.async { items[1].count = 2 }
        let timer = loop.scheduleTimer(after: .nanoseconds(0)) { items[2].count = 3 }
        loop.runOnce(blocking: true)
        drain()
        XCTAssertEqual(observer.seen, [[0, 0, 0], [1, 2, 3]])
        let extra = CounterModel()
        observer.items = [items[2], extra]  // one synchronous update; items 0 and 1 unbound
        XCTAssertEqual(observer.seen.last, [3, 0])
        items[0].count = 10
        drain()
        XCTAssertEqual(observer.seen.count, 3)
        extra.count = 4
        items[2].count = 5
        loop.runOnce(blocking: false)
        XCTAssertEqual(observer.seen, [[0, 0, 0], [1, 2, 3], [3, 0], [5, 4]])
        drain()
        XCTAssertEqual(observer.seen.count, 4)
        timer.cancel()
    }

    func testObservationTrackingDoesNotPileUpAcrossIterations() {
        let observer = MixedLoopObserver()
        let coordinator = CoordinatorTable.coordinator(for: observer)
        XCTAssertEqual(coordinator.installedTrackingCount, 1)
        for i in 1...50 {
            observer.counter.count = i
            loop.runOnce(blocking: false)
        }
        XCTAssertEqual(observer.seen.count, 51)
        XCTAssertEqual(coordinator.installedTrackingCount, 1)
        observer.model.count = 9
        loop.runOnce(blocking: false)
        drain()
        XCTAssertEqual(observer.seen.last, "50:9")
        XCTAssertEqual(observer.seen.count, 52)
        XCTAssertEqual(coordinator.installedTrackingCount, 2)
    }

    func testObjectDidChangeOnTheMainLoop() {
        let model = CounterModel()
        var seen: [Int] = []
        let token = model.objectDidChange.sink { seen.append($0.count) }
        drain()
        XCTAssertEqual(seen, [0])
        for i in 1...5 { model.count = i }
        loop.runOnce(blocking: false)
        XCTAssertEqual(seen, [0, 5])
        token.cancel()
    }
}
