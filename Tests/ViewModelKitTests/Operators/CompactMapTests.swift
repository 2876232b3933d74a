import Testing
import ViewModelKit

/// Tests of `Publishers.CompactMap` and the operator that returns it.
@Suite struct CompactMapTests {
    @Test func compactMapDropsNilAndAsksForMore() {
        let upstream = ManualPublisher<String, Never>()
        let recorder = Recorder<Int, Never>(initialDemand: .max(1))
        upstream.compactMap { Int($0) }.subscribe(recorder)
        #expect(upstream.send("x") == .max(1))
        #expect(upstream.send("7") == .none)
        upstream.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(7), .finished])
    }

    @Test func compactMapCancel() {
        let subject = PassthroughSubject<Int?, Never>()
        let recorder = Recorder<Int, Never>()
        subject.compactMap { $0 }.subscribe(recorder)
        subject.send(nil)
        subject.send(1)
        recorder.cancel()
        subject.send(2)
        #expect(recorder.events == [.subscription, .value(1)])
    }
}
