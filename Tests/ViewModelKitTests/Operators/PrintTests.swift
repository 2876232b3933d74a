import Testing
import ViewModelKit

/// Tests of `Publishers.Print` and the operator that returns it.
@Suite struct PrintTests {
    final class Lines: TextOutputStream, @unchecked Sendable {
        var text = ""
        func write(_ string: String) { text += string }
    }

    @Test func printWritesCombineStyleLines() {
        let lines = Lines()
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>(initialDemand: .max(1), demandPerValue: .max(1))
        subject.print("P", to: lines).subscribe(recorder)
        subject.send(1)
        subject.send(completion: .failure(TestError("bad")))
        #expect(
            lines.text == """
                P: receive subscription: (PassthroughSubject)
                P: request max: (1)
                P: receive value: (1)
                P: request max: (1) (synchronous)
                P: receive error: (bad)

                """)
        #expect(recorder.events == [.subscription, .value(1), .failure(TestError("bad"))])
    }

    @Test func printCancelAndFinishWithoutPrefix() {
        let lines = Lines()
        let recorder = Recorder<Int, Never>()
        Just(3).print(to: lines).subscribe(recorder)
        let subject = PassthroughSubject<Int, Never>()
        let cancelled = Recorder<Int, Never>()
        subject.print(to: lines).subscribe(cancelled)
        cancelled.cancel()
        #expect(
            lines.text == """
                receive subscription: (Just)
                request unlimited
                receive value: (3)
                receive finished
                receive subscription: (PassthroughSubject)
                request unlimited
                receive cancel

                """)
    }
}
