import Testing
import ViewModelKit
import ViewModelKitSchedulers

@Suite struct MakeConnectableTests {
    @Test func valuesFlowOnlyWhileConnected() {
        let subject = PassthroughSubject<Int, Never>()
        let connectable = subject.makeConnectable()
        let first = Recorder<Int, Never>()
        let second = Recorder<Int, Never>(initialDemand: .max(1))
        connectable.subscribe(first)
        connectable.subscribe(second)
        subject.send(1)
        let connection = connectable.connect()
        subject.send(2)
        subject.send(3)
        connection.cancel()
        subject.send(4)
        #expect(first.values == [2, 3])
        #expect(second.values == [2])
        first.detachIfRunning()
        second.detachIfRunning()
    }

    @Test func completionReachesSubscribers() {
        let connectable = [1, 2].publisher.makeConnectable()
        let recorder = Recorder<Int, Never>()
        connectable.subscribe(recorder)
        let connection = connectable.connect()
        #expect(recorder.events == [.subscription, .value(1), .value(2), .finished])
        connection.cancel()
    }
}
