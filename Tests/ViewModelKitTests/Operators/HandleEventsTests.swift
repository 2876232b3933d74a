import Testing
import ViewModelKit

/// Tests of `Publishers.HandleEvents` and the operator that returns it.
@Suite struct HandleEventsTests {
    @Test func handleEventsCallsHooksBeforeEachEvent() {
        let upstream = ManualPublisher<Int, Never>()
        var log: [String] = []
        let recorder = Recorder<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
        recorder.onValue = { log.append("downstream \($0)") }
        upstream.handleEvents(
            receiveSubscription: { _ in log.append("subscription") },
            receiveOutput: { log.append("output \($0)") },
            receiveCompletion: { log.append("completion \($0)") },
            receiveCancel: { log.append("cancel") },
            receiveRequest: { log.append("request \($0)") }
        ).subscribe(recorder)
        upstream.send(5)
        recorder.cancel()
        recorder.cancel()
        #expect(log == ["subscription", "request max(1)", "output 5", "downstream 5", "request max(1)", "cancel"])
        #expect(upstream.log.entries == ["request max(1)", "cancel"])
    }

    @Test func handleEventsCompletion() {
        var log: [String] = []
        let recorder = Recorder<Int, Never>()
        Just(1).handleEvents(receiveCompletion: { _ in log.append("completion") }).subscribe(recorder)
        #expect(log == ["completion"])
        #expect(recorder.events == [.subscription, .value(1), .finished])
    }
}
