import Foundation
import Testing
import ViewModelKit
import ViewModelKitSchedulers

/// Tests of `Publishers.ReplaceNil` and the operator that returns it.
@Suite struct ReplaceNilTests {
    @Test func replaceNilMapsOptionals() {
        let recorder = Recorder<Int, Never>()
        [1, nil, 3].publisher.eraseToAnyPublisher().replaceNil(with: 0).subscribe(recorder)
        #expect(recorder.events == [.subscription, .value(1), .value(0), .value(3), .finished])
    }
}
