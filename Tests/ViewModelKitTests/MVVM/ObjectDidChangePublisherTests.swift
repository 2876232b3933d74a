import Testing
import ViewModelKitSchedulers

@testable import ViewModelKit

@Suite struct ObjectDidChangePublisherTests {
    @Test func emitsCurrentObjectOnFirstDemandThenOncePerTurn() {
        let scheduler = TestScheduler()
        let model = CounterModel()
        var seen: [Int] = []
        let token = model.observe(on: scheduler).sink { seen.append($0.count) }
        #expect(seen == [0])  // the current object at once, inside the first request (CombineViewModel)
        scheduler.advance()
        #expect(seen == [0])
        for i in 1...10 { model.count = i }
        model.label = "x"
        #expect(seen == [0])
        scheduler.advance()
        #expect(seen == [0, 10])
        scheduler.advance()
        #expect(seen == [0, 10])
        token.cancel()
    }

    @Test func changeWhileDemandIsZeroIsDeliveredWhenDemandReturns() {
        let scheduler = TestScheduler()
        let model = CounterModel()
        let subscriber = ManualSubscriber()
        model.observe(on: scheduler).subscribe(subscriber)
        scheduler.advance()
        #expect(subscriber.counts.count == 0)  // no demand yet: the current object waits
        subscriber.request(.max(1))
        scheduler.advance()
        #expect(subscriber.counts == [0])
        model.count = 1
        model.count = 2
        scheduler.advance()
        scheduler.advance()
        #expect(subscriber.counts == [0])  // pending, not dropped
        subscriber.request(.max(1))
        #expect(subscriber.counts == [0])
        scheduler.advance()
        #expect(subscriber.counts == [0, 2])
        scheduler.advance()
        #expect(subscriber.counts.count == 2)
        subscriber.request(.max(5))
        scheduler.advance()
        #expect(subscriber.counts.count == 2)  // nothing changed since: nothing owed
        subscriber.subscription?.cancel()
    }

    @Test func demandReturnedFromReceiveIsHonoured() {
        let scheduler = TestScheduler()
        let model = CounterModel()
        let subscriber = ManualSubscriber()
        subscriber.demandPerValue = .max(1)
        model.observe(on: scheduler).subscribe(subscriber)
        subscriber.request(.max(1))
        scheduler.advance()
        model.count = 7
        scheduler.advance()
        model.count = 8
        scheduler.advance()
        #expect(subscriber.counts == [0, 7, 8])
        subscriber.subscription?.cancel()
    }

    @Test func optionsReachTheScheduler() {
        let scheduler = OptionsRecordingScheduler(TestScheduler())
        let model = CounterModel()
        var seen = 0
        let first = model.observe(on: scheduler, options: "high").sink { _ in seen += 1 }
        let second = model.observe(on: scheduler).sink { _ in seen += 1 }
        #expect(scheduler.recordedOptions == ["high", nil])
        scheduler.base.advance()
        #expect(seen == 2)
        first.cancel()
        second.cancel()
    }

    @Test func cancelStopsDeliveryAndReleasesTheSubscriber() {
        let scheduler = TestScheduler()
        let model = CounterModel()
        var seen: [Int] = []
        let token = model.observe(on: scheduler).sink { seen.append($0.count) }
        scheduler.advance()
        model.count = 1
        token.cancel()
        scheduler.advance()
        model.count = 2
        scheduler.advance()
        #expect(seen == [0])
    }

    @Test func finishesWhenTheObjectDies() {
        let scheduler = TestScheduler()
        var model: CounterModel? = CounterModel()
        weak let weakModel = model
        var values = 0
        var finished = 0
        let token = model!.observe(on: scheduler).sink(
            receiveCompletion: { _ in finished += 1 }, receiveValue: { _ in values += 1 })
        scheduler.advance()
        #expect(values == 1)
        model!.count = 1
        model = nil
        #expect(weakModel == nil)  // the subscription does not retain the object
        scheduler.advance()
        #expect(values == 1)
        #expect(finished == 1)
        scheduler.advance()
        #expect(finished == 1)
        token.cancel()
    }

    @Test func finishesWhenTheObjectDiesWithoutAPendingChange() {
        let scheduler = TestScheduler()
        var model: CounterModel? = CounterModel()
        var finished = 0
        let token = model!.observe(on: scheduler).sink(
            receiveCompletion: { _ in finished += 1 }, receiveValue: { _ in })
        scheduler.advance()
        #expect(finished == 0)
        // No change is pending: the object's ObservableObjectPublisher finishes the will-change
        // relay when it dies with the object, which signals the subscription's event source.
        model = nil
        #expect(finished == 0)  // the completion arrives on the scheduler
        scheduler.advance()
        #expect(finished == 1)
        scheduler.advance()
        #expect(finished == 1)
        token.cancel()
    }

    @Test func publisherOfADeadObjectFinishesOnFirstDemand() {
        let scheduler = TestScheduler()
        var model: CounterModel? = CounterModel()
        let publisher = model!.observe(on: scheduler)
        model = nil
        #expect(publisher.object == nil)
        var finished = 0
        let token = publisher.sink(receiveCompletion: { _ in finished += 1 }, receiveValue: { _ in })
        scheduler.advance()
        #expect(finished == 1)
        token.cancel()
    }
}
