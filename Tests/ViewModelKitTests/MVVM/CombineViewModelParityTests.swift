import Dispatch
import Foundation
import Testing
import ViewModelKitSchedulers

@testable import ViewModelKit

// CombineViewModel's behaviour as our own tests, with the exact observations its
// tests expect; its suite itself runs, ported, in the CombineViewModelTests target. These run
// on a TestScheduler, off the main thread (Swift Testing), so their observers declare
// `nonisolated func updateView()` (see ViewModelObserver); the main-loop ones, with @MainActor
// views, are in CombineViewModelParityLoopTests.

/// CombineViewModel's test observer: a view model declared without a value, assigned in init.
private final class Controller: ViewModelObserver {
    let updateScheduler: TestScheduler
    var observations: [Int] = []
    @ViewModel var viewModel: CounterModel

    init(scheduler: TestScheduler) {
        updateScheduler = scheduler
        self.viewModel = CounterModel()
    }

    nonisolated func updateView() { observations.append(viewModel.count) }
}

/// A model changed only from outside the view: a "network" callback sets it.
private final class Feed: ObservableObject {
    @Published private(set) var items = 0
    func received(_ count: Int) { items = count }
}

/// Draws a feed it never hands out: nothing but the model itself changes it.
private final class FeedView: ViewModelObserver {
    let updateScheduler: TestScheduler
    @ViewModel private var feed: Feed
    var frames: [Int] = []

    init(feed: Feed, scheduler: TestScheduler) {
        updateScheduler = scheduler
        self.feed = feed
    }

    nonisolated func updateView() { frames.append(feed.items) }
}

/// Two view models declared without values: the update must wait for the second assignment.
private final class PairView: ViewModelObserver {
    let updateScheduler: TestScheduler
    @ViewModel var counter: CounterModel
    @ViewModel var flag: FlagModel
    var frames: [String] = []

    init(scheduler: TestScheduler) {
        updateScheduler = scheduler
        self.counter = CounterModel()
        self.flag = FlagModel()
    }

    nonisolated func updateView() { frames.append("\(counter.count):\(flag.isOn)") }
}

/// One view model assigned in init and one with a default value, never read by the test.
private final class MixedView: ViewModelObserver {
    let updateScheduler: TestScheduler
    @ViewModel var counter: CounterModel
    @ViewModel var flag: FlagModel
    var frames: [String] = []

    init(flag: FlagModel, scheduler: TestScheduler) {
        updateScheduler = scheduler
        _flag = ViewModel(wrappedValue: flag)  // a default value: stored, not bound
        self.counter = CounterModel()  // binds both, draws once
    }

    nonisolated func updateView() { frames.append("\(counter.count):\(flag.isOn)") }
}

/// A nonisolated view whose `updateView()` passes closures to the standard library: off the main
/// thread it must be `nonisolated`, or Swift's executor checks in those closures stop the process.
private final class OffMainListView: ViewModelObserver {
    let updateScheduler: TestScheduler
    @ViewModels var items: [CounterModel]
    var frames: [String] = []

    init(_ items: [CounterModel], scheduler: TestScheduler) {
        updateScheduler = scheduler
        self.items = items
    }

    nonisolated func updateView() {
        frames.append(items.map { "\($0.count)" }.filter { !$0.isEmpty }.joined(separator: ","))
    }
}

/// Default values only and no call in init: bound by the first read (the documented rule).
private final class DefaultsOnlyView: ViewModelObserver {
    let updateScheduler: TestScheduler
    @ViewModel var counter = CounterModel()
    var frames: [Int] = []
    init(scheduler: TestScheduler) { updateScheduler = scheduler }
    nonisolated func updateView() { frames.append(counter.count) }
}

/// A view model whose `objectWillChange` is a subject it can finish.
private final class CustomPublisherViewModel: ObservableObject {
    let objectWillChange = PassthroughSubject<Void, Never>()
    func change() { objectWillChange.send() }
    func finish() { objectWillChange.send(completion: .finished) }
}

/// Counts a scheduler's event-source deliveries using only CombineViewModel's names.
private func deliveries<S: EventSourceScheduler>(
    on scheduler: S, options: S.EventSourceOptions?, signals: Int, turn: () -> Void
) -> [Int] {
    var counts: [Int] = []
    let source: S.EventSource = scheduler.scheduleEventSource(
        options: options,
        eventHandler: { source in
            counts.append(source.eventCount)
        })
    for _ in 0..<signals { source.signal() }
    turn()
    source.cancel()
    return counts
}

@Suite struct CombineViewModelParityTests {
    @Test func assignmentInInitDrawsOnceAtOnceThenFiveChangesGiveOneMore() {
        let scheduler = TestScheduler()
        let controller = Controller(scheduler: scheduler)
        #expect(controller.observations == [0])
        for _ in 1...5 { controller.viewModel.count += 1 }
        #expect(controller.observations == [0])
        scheduler.advance()
        #expect(controller.observations == [0, 5])
        scheduler.advance()
        #expect(controller.observations == [0, 5])
    }

    @Test func modelChangedOnlyByOthersIsDrawnWithoutAnyRead() {
        let scheduler = TestScheduler()
        let feed = Feed()
        let view = FeedView(feed: feed, scheduler: scheduler)
        #expect(view.frames == [0])
        feed.received(3)
        feed.received(7)
        scheduler.advance()
        #expect(view.frames == [0, 7])
    }

    @Test func twoAssignmentsInInitGiveOneUpdateOnceBothAreSet() {
        let scheduler = TestScheduler()
        let view = PairView(scheduler: scheduler)
        #expect(view.frames == ["0:false"])  // after the second assignment, not the first
        scheduler.advance()
        #expect(view.frames == ["0:false"])  // the first assignment's deferred update was absorbed
        view.flag.isOn = true
        scheduler.advance()
        #expect(view.frames == ["0:false", "0:true"])
    }

    @Test func assignmentAlsoBindsADefaultValuedSibling() {
        let scheduler = TestScheduler()
        let flag = FlagModel()
        let view = MixedView(flag: flag, scheduler: scheduler)
        #expect(view.frames == ["0:false"])
        flag.isOn = true  // the view never read `flag`
        scheduler.advance()
        #expect(view.frames == ["0:false", "0:true"])
    }

    @Test func nonisolatedUpdateViewWithClosuresRunsOffTheMainThread() {
        // Swift Testing runs this off the main thread (see docs/ARCHITECTURE.md, "Two traps").
        let scheduler = TestScheduler()
        let items = [CounterModel(), CounterModel()]
        let view = OffMainListView(items, scheduler: scheduler)
        #expect(view.frames == ["0,0"])
        items[1].count = 4
        scheduler.advance()
        #expect(view.frames == ["0,0", "0,4"])
    }

    @Test func defaultValuesAloneBindOnFirstReadOrWithBindViewModels() {
        let scheduler = TestScheduler()
        let view = DefaultsOnlyView(scheduler: scheduler)
        #expect(view.frames == [])  // stored before the observer existed: nothing to bind to
        view.counter.count = 1  // the first read binds, with the initial update
        #expect(view.frames == [0])
        scheduler.advance()
        #expect(view.frames == [0, 1])
        let other = DefaultsOnlyView(scheduler: scheduler)
        other.bindViewModels()
        #expect(other.frames == [0])
    }

    @Test func observeOnDeliversTheCurrentObjectInsideTheFirstRequestOnly() {
        let scheduler = TestScheduler()
        let model = CounterModel()
        let subscriber = ManualSubscriber()
        model.observe(on: scheduler).subscribe(subscriber)
        model.count = 1  // before any demand
        #expect(subscriber.counts == [])
        subscriber.request(.max(1))
        #expect(subscriber.counts == [1])  // at once: the current object
        scheduler.advance()
        #expect(subscriber.counts == [1])  // the change before the request was in that value
        model.count = 2
        #expect(subscriber.counts == [1])  // no demand
        subscriber.request(.max(1))
        #expect(subscriber.counts == [1])  // a later request waits for the turn
        scheduler.advance()
        #expect(subscriber.counts == [1, 2])
        subscriber.subscription?.cancel()  // a stream that never ends: the subscription lets the subscriber go
    }

    @Test func nonObservableModelsProjectionGivesOneValueAtOnceThenFinishes() {
        let scheduler = TestScheduler()
        final class Plain {}
        let plain = Plain()
        var values = 0
        var finished = 0
        let token = ViewModelPublisher(model: plain, scheduler: scheduler).sink(
            receiveCompletion: { _ in finished += 1 }, receiveValue: { _ in values += 1 })
        #expect(values == 1)
        #expect(finished == 1)
        scheduler.advance()
        #expect(values == 1)
        #expect(finished == 1)
        token.cancel()
    }

    @Test func completedObjectWillChangeFinishesAtOnceWithoutCancelWhileTheObjectLives() {
        let scheduler = TestScheduler()
        let model = CustomPublisherViewModel()
        var events: [String] = []
        let token = model.observe(on: scheduler)
            .handleEvents(receiveCancel: { events.append("cancel") })
            .sink(receiveCompletion: { _ in events.append("finished") }, receiveValue: { _ in events.append("value") })
        #expect(events == ["value"])
        model.change()  // pending for the next turn...
        model.finish()  // ...but the stream ends first
        #expect(events == ["value", "finished"])
        scheduler.advance()
        token.cancel()
        #expect(events == ["value", "finished"])
        withExtendedLifetime(model) {}
    }

    @Test func completionAfterTheObjectDiedStillComesOnTheNextTurn() {
        let scheduler = TestScheduler()
        var model: CounterModel? = CounterModel()
        var events: [String] = []
        let token = model!.observe(on: scheduler)
            .sink(receiveCompletion: { _ in events.append("finished") }, receiveValue: { _ in events.append("value") })
        model = nil
        #expect(events == ["value"])
        scheduler.advance()
        #expect(events == ["value", "finished"])
        token.cancel()
    }

    @Test func combineViewModelNamesCompileAndCount() {
        #expect(LoopScheduler.EventSource.self == LoopEventSource.self)
        #expect(TestScheduler.EventSource.self == TestEventSource.self)
        #expect(DispatchQueue.EventSource.self == ScheduledEventSource<DispatchQueue>.self)
        #expect(ImmediateScheduler.EventSourceOptions.self == Never.self)
        let scheduler = TestScheduler()
        #expect(deliveries(on: scheduler, options: nil, signals: 3) { scheduler.advance() } == [3])
        #expect(deliveries(on: scheduler, options: .init(flushOrder: 1), signals: 1) { scheduler.advance() } == [1])
        let model = CounterModel()
        let options: TestScheduler.EventSourceOptions? = nil
        var seen: [Int] = []
        let token = model.observe(on: scheduler, options: options).sink { seen.append($0.count) }
        #expect(seen == [0])
        token.cancel()
    }
}
