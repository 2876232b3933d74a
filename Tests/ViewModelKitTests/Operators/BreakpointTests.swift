import Foundation
import Testing
import ViewModelKit
import ViewModelKitSchedulers

/// Tests of `Publishers.Breakpoint` and the operator that returns it.
@Suite struct BreakpointTests {
    @Test func breakpointClosuresSeeEveryEventAndPassItOn() {
        var seen: [String] = []
        let recorder = Recorder<Int, TestError>()
        [1, 2].publisher.eraseToAnyPublisher().setFailureType(to: TestError.self)
            .breakpoint(
                receiveSubscription: { _ in
                    seen.append("subscription")
                    return false
                },
                receiveOutput: {
                    seen.append("value \($0)")
                    return false
                },
                receiveCompletion: { _ in
                    seen.append("completion")
                    return false
                }
            )
            .subscribe(recorder)
        #expect(seen == ["subscription", "value 1", "value 2", "completion"])
        #expect(recorder.events == [.subscription, .value(1), .value(2), .finished])
        let onError = Recorder<Int, TestError>()
        [3].publisher.eraseToAnyPublisher().setFailureType(to: TestError.self).breakpointOnError().subscribe(onError)
        #expect(onError.events == [.subscription, .value(3), .finished])
    }
}
