import Testing
import ViewModelKit

/// Tests of `Publishers.TryCompactMap` and the operator that returns it.
@Suite struct TryCompactMapTests {
    @Test func tryCompactMapDropsNilAndFailsOnThrow() {
        let recorder = Recorder<Int, any Error>()
        ["1", "x", "3", "boom", "5"].publisher.eraseToAnyPublisher().tryCompactMap { text -> Int? in
            if text == "boom" { throw TestError("boom") }
            return Int(text)
        }.subscribe(recorder)
        #expect(rendered(recorder.events) == ["subscription", "value(1)", "value(3)", "failure(boom)"])
    }
}
