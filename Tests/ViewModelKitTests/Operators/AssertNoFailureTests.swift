import Foundation
import Testing
import ViewModelKit
import ViewModelKitSchedulers

/// Tests of `Publishers.AssertNoFailure` and the operator that returns it.
@Suite struct AssertNoFailureTests {
    @Test func assertNoFailurePassesValuesAndFinishes() {
        let log = DemandLog()
        let recorder = Recorder<Int, Never>(initialDemand: .max(1))
        [1, 2].publisher.eraseToAnyPublisher().setFailureType(to: TestError.self).logRequests(to: log).assertNoFailure()
            .subscribe(recorder)
        #expect(recorder.events == [.subscription, .value(1)])
        #expect(log.entries == ["request max(1)"])
        recorder.detach()  // a stream that never ends: its subscriber and subscription hold each other
    }
}
