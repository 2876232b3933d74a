import Testing
import ViewModelKitSchedulers

@testable import ViewModelKit

// `@Published` announces before it stores. These tests run an update exactly in that gap (from
// an `objectWillChange` sink subscribed after the observer, so it runs after the observer's
// relay) — which is what a loop flush does when another thread is setting the property — and
// pin that the store's did-change edge gives exactly one more update with the stored value.

@Suite struct DidChangeEdgeTests {
    @Test func updateBetweenWillChangeAndStoreIsFollowedByExactlyOneMore() {
        let scheduler = TestScheduler()
        let observer = CounterObserver(CounterModel(), scheduler: scheduler)
        let model = observer.counter  // binds: the initial update
        var flushed = 0
        let gap = model.objectWillChange.sink {
            scheduler.advance()  // the "loop" flushes before the store
            flushed += 1
        }
        model.count = 1
        #expect(flushed == 1)
        #expect(observer.seen == [0, 0])  // the update in the gap drew the old value
        scheduler.advance()
        #expect(observer.seen == [0, 0, 1])  // the did-change edge: one more, with the new value
        scheduler.advance()
        #expect(observer.seen == [0, 0, 1])
        gap.cancel()
    }

    @Test func bothEdgesMergeIntoOneUpdateWhenNoFlushRunsBetween() {
        let scheduler = TestScheduler()
        let observer = CounterObserver(CounterModel(), scheduler: scheduler)
        let model = observer.counter
        var willChange = 0
        let counter = model.objectWillChange.sink { willChange += 1 }
        model.count = 1
        #expect(willChange == 1)  // the did-change channel is invisible to Combine-style sinks
        scheduler.advance()
        #expect(observer.seen == [0, 1])
        scheduler.advance()
        #expect(observer.seen == [0, 1])
        model.count = 2
        model.label = "x"
        #expect(willChange == 3)
        scheduler.advance()
        #expect(observer.seen == [0, 1, 2])
        counter.cancel()
    }

    @Test func objectWillChangeSinkGetsOneEventPerSetWithObserversOnBothEdges() {
        let scheduler = TestScheduler()
        let model = CounterModel()
        let observer = CounterObserver(model, scheduler: scheduler)
        var didChangeValues = 0
        let didChange = model.observe(on: scheduler).sink { _ in didChangeValues += 1 }
        let recorder = Recorder<Void, Never>()
        model.objectWillChange.subscribe(recorder)
        for i in 1...5 { model.count = i }
        #expect(recorder.events.count == 1 + 5)  // subscription + exactly one per set
        scheduler.advance()
        #expect(observer.seen == [0, 5])
        #expect(didChangeValues == 2)  // the current object on subscribing, then one for the turn
        recorder.cancel()
        didChange.cancel()
    }

    @Test func observeOnDeliversAgainAfterAFlushInTheGap() {
        let scheduler = TestScheduler()
        let model = CounterModel()
        var seen: [Int] = []
        let token = model.observe(on: scheduler).sink { seen.append($0.count) }
        scheduler.advance()
        #expect(seen == [0])
        let gap = model.objectWillChange.sink { scheduler.advance() }
        model.count = 1
        #expect(seen == [0, 0])
        scheduler.advance()
        #expect(seen == [0, 0, 1])
        scheduler.advance()
        #expect(seen == [0, 0, 1])
        gap.cancel()
        model.count = 2  // no gap: both edges merge
        scheduler.advance()
        #expect(seen == [0, 0, 1, 2])
        token.cancel()
    }

    @Test func observableValueReportsTheStoreToo() {
        let scheduler = TestScheduler()
        let subject = CurrentValueSubject<Int, Never>(0)
        let observable = subject.asObservable()
        var seen: [Int] = []
        let token = observable.observe(on: scheduler).sink { seen.append($0.value) }
        scheduler.advance()
        let gap = observable.objectWillChange.sink { scheduler.advance() }
        subject.send(1)
        #expect(seen == [0, 0])
        scheduler.advance()
        #expect(seen == [0, 0, 1])
        gap.cancel()
        token.cancel()
    }

    @Test func cancelledObserverStopsListeningToTheDidChangeChannel() {
        let scheduler = TestScheduler()
        let model = CounterModel()
        let publisher = model.objectWillChange
        var token: AnyCancellable? = model.observe(on: scheduler).sink { _ in }
        #expect(publisher.didChangeListenerCountForTesting == 1)
        token?.cancel()
        token = nil
        #expect(publisher.didChangeListenerCountForTesting == 0)
        do {
            let observer = CounterObserver(model, scheduler: scheduler)
            #expect(publisher.didChangeListenerCountForTesting == 1)  // bound by the assignment in init
            withExtendedLifetime(observer) {}
        }
        #expect(publisher.didChangeListenerCountForTesting == 0)  // the observer died
    }
}
