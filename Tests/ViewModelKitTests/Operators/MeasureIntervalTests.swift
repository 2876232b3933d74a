import Foundation
import Testing
import ViewModelKit
import ViewModelKitSchedulers

/// Tests of `Publishers.MeasureInterval` and the operator that returns it.
@Suite struct MeasureIntervalTests {
    @Test func measureIntervalMeasuresFromSubscriptionThenBetweenValues() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<String, Never>()
        let recorder = Recorder<MonotonicInstant.Stride, Never>()
        scheduler.advance(by: .seconds(5))
        subject.measureInterval(using: scheduler).subscribe(recorder)
        scheduler.advance(by: .milliseconds(300))
        subject.send("a")
        scheduler.advance(by: .seconds(2))
        subject.send("b")
        subject.send("c")
        subject.send(completion: .finished)
        #expect(
            recorder.events == [
                .subscription, .value(.milliseconds(300)), .value(.seconds(2)), .value(.nanoseconds(0)), .finished,
            ])
    }

    @Test func measureIntervalPassesReturnedDemandAsARequestAndStopsAtCancel() {
        let scheduler = TestScheduler()
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder<MonotonicInstant.Stride, Never>(initialDemand: .max(2), demandPerValue: .max(1))
        upstream.measureInterval(using: scheduler).subscribe(recorder)
        scheduler.advance(by: .seconds(1))
        #expect(upstream.send(1) == .none)
        recorder.cancel()
        #expect(upstream.send(2) == .none)
        #expect(recorder.events == [.subscription, .value(.seconds(1))])
        #expect(upstream.log.entries == ["request max(2)", "request max(1)", "cancel"])
    }
}
