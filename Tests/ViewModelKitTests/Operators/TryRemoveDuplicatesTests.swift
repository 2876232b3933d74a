import Testing
import ViewModelKit

/// Tests of `Publishers.TryRemoveDuplicates` and the operator that returns it.
@Suite struct TryRemoveDuplicatesTests {
    @Test func tryRemoveDuplicatesComparesWithThePreviousValue() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder<Int, any Error>()
        var compared: [String] = []
        upstream.tryRemoveDuplicates { a, b in
            compared.append("\(a)-\(b)")
            if b == 0 { throw TestError("zero") }
            return a == b
        }.subscribe(recorder)
        #expect(upstream.send(1) == .none)
        #expect(upstream.send(1) == .max(1))
        #expect(upstream.send(2) == .none)
        #expect(upstream.send(0) == .none)
        #expect(upstream.send(3) == .none)
        #expect(compared == ["1-1", "1-2", "2-0"])
        #expect(upstream.log.entries == ["request unlimited", "cancel"])
        #expect(rendered(recorder.events) == ["subscription", "value(1)", "value(2)", "failure(zero)"])
    }
}
