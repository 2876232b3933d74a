import Foundation
import Testing
import ViewModelKit

@Suite struct SequencePublisherTests {
    @Test func publishesElementsWithinDemandThenFinishes() {
        let recorder = Recorder<Int, Never>(initialDemand: .max(2))
        [1, 2, 3].publisher.subscribe(recorder)
        #expect(recorder.events == [.subscription, .value(1), .value(2)])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(1), .value(2), .value(3), .finished])
    }

    @Test func emptySequenceFinishesAtOnce() {
        let recorder = Recorder<Int, Never>(initialDemand: nil)
        [Int]().publisher.subscribe(recorder)
        #expect(recorder.events == [.subscription, .finished])
    }

    @Test func cancelFromInsideReceiveStops() {
        let recorder = Recorder<Int, Never>()
        recorder.onValue = { value in if value == 2 { recorder.cancel() } }
        [1, 2, 3].publisher.subscribe(recorder)
        #expect(recorder.events == [.subscription, .value(1), .value(2)])
        recorder.onValue = nil  // the closure holds the recorder
    }

    @Test func reentrantRequestsDoNotRecurse() {
        let recorder = Recorder<Int, Never>(initialDemand: .max(1))
        recorder.onValue = { _ in recorder.request(.max(1)) }
        (1...50_000).publisher.subscribe(recorder)
        #expect(recorder.values.count == 50_000)
        #expect(recorder.events.last == .finished)
        recorder.onValue = nil  // the closure holds the recorder
    }
}
