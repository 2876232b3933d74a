import Dispatch
import Testing
import ViewModelKit
import ViewModelKitSchedulers

@Suite struct CollectByTimeTests {
    @Test func groupsByIntervalAndDropsTheOpenGroupOnFailure() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<[Int], TestError>()
        subject.collect(.byTime(scheduler, .seconds(2))).subscribe(recorder)
        subject.send(1)
        subject.send(2)
        scheduler.advance(by: .seconds(2))
        #expect(recorder.events == [.subscription, .value([1, 2])])
        subject.send(3)
        scheduler.advance(by: .seconds(1))
        subject.send(completion: .failure(TestError("e")))
        #expect(recorder.events == [.subscription, .value([1, 2])])
        scheduler.advance()
        #expect(recorder.events == [.subscription, .value([1, 2]), .failure(TestError("e"))])
        #expect(scheduler.pendingActionCount == 0)
    }

    @Test func finishingPublishesTheOpenGroupOnTheScheduler() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder<[Int], Never>()
        subject.collect(.byTime(scheduler, .seconds(2))).subscribe(recorder)
        scheduler.advance(by: .seconds(2))
        #expect(recorder.events == [.subscription])
        subject.send(3)
        subject.send(4)
        subject.send(completion: .finished)
        #expect(recorder.events == [.subscription])
        scheduler.advance()
        #expect(recorder.events == [.subscription, .value([3, 4]), .finished])
    }

    @Test func byTimeOrCountClosesAtTheCountButDeliversOnTheScheduler() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder<[Int], Never>()
        subject.collect(.byTimeOrCount(scheduler, .seconds(2), 2)).subscribe(recorder)
        subject.send(1)
        subject.send(2)
        subject.send(3)
        #expect(recorder.events == [.subscription])
        scheduler.advance(by: .seconds(2))
        for value in 4...8 { subject.send(value) }
        scheduler.advance(by: .seconds(2))
        subject.send(completion: .finished)
        scheduler.advance()
        #expect(
            recorder.events == [
                .subscription, .value([1, 2]), .value([3]), .value([4, 5]), .value([6, 7]), .value([8]), .finished,
            ])
    }

    @Test func asksUpstreamForOneValueAtATimeAndGroupsWaitForDemand() {
        let scheduler = TestScheduler()
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder<[Int], Never>(initialDemand: .max(1))
        upstream.collect(.byTime(scheduler, .seconds(1))).subscribe(recorder)
        #expect(upstream.log.entries == ["request max(1)"])
        #expect(upstream.send(1) == .max(1))
        scheduler.advance(by: .seconds(1))
        upstream.send(2)
        scheduler.advance(by: .seconds(1))
        upstream.send(3)
        scheduler.advance(by: .seconds(1))
        #expect(recorder.events == [.subscription, .value([1])])
        recorder.request(.max(5))
        #expect(recorder.events == [.subscription, .value([1])])
        scheduler.advance()
        #expect(recorder.events == [.subscription, .value([1]), .value([2]), .value([3])])
        recorder.detach()  // streams that never end: subscriber and subscription hold each other
    }

    @Test func cancelStopsTheTimerAndUpstream() {
        let scheduler = TestScheduler()
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder<[Int], Never>()
        upstream.collect(.byTime(scheduler, .seconds(1))).subscribe(recorder)
        upstream.send(1)
        recorder.cancel()
        scheduler.advance(by: .seconds(3))
        #expect(recorder.events == [.subscription])
        #expect(upstream.log.entries == ["request max(1)", "cancel"])
        #expect(scheduler.pendingActionCount == 0)
    }

    @Test func collectByTimeOnADispatchQueueDeliversEveryValueOnce() {
        let queue = DispatchQueue(label: "collect-by-time")
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder<[Int], Never>()
        let done = DispatchSemaphore(value: 0)
        recorder.onCompletion = { done.signal() }
        subject.collect(.byTimeOrCount(queue, .milliseconds(1), 7)).subscribe(recorder)
        DispatchQueue.global().async {
            for value in 1...1_000 { subject.send(value) }
            subject.send(completion: .finished)
        }
        #expect(done.wait(timeout: .now() + 30) == .success)
        #expect(recorder.values.flatMap { $0 } == Array(1...1_000))
        #expect(recorder.values.allSatisfy { !$0.isEmpty && $0.count <= 7 })
    }
}
