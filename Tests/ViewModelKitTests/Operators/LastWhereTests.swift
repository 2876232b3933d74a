import Testing
import ViewModelKit

/// Tests of `Publishers.LastWhere` and the operator that returns it.
@Suite struct LastWhereTests {
    @Test func lastWhereKeepsTheLatestMatch() {
        let recorder = Recorder<Int, Never>()
        [2, 3, 4, 5].publisher.eraseToAnyPublisher().last { $0.isMultiple(of: 2) }.subscribe(recorder)
        #expect(recorder.events == [.subscription, .value(4), .finished])
        let none = Recorder<Int, Never>()
        [1, 3].publisher.eraseToAnyPublisher().last { $0.isMultiple(of: 2) }.subscribe(none)
        #expect(none.events == [.subscription, .finished])
    }
}
