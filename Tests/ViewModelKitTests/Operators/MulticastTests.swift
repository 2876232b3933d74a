import Testing
import ViewModelKit
import ViewModelKitSchedulers

@Suite struct MulticastTests {
    @Test func nothingFlowsUntilConnect() {
        let subject = PassthroughSubject<Int, TestError>()
        let multicast = subject.multicast { PassthroughSubject<Int, TestError>() }
        let recorder = Recorder<Int, TestError>()
        multicast.subscribe(recorder)
        subject.send(1)
        let connection = multicast.connect()
        subject.send(2)
        connection.cancel()
        subject.send(3)
        #expect(recorder.events == [.subscription, .value(2)])
        recorder.detachIfRunning()
    }

    @Test func givenSubjectReceivesUpstreamCompletion() {
        let through = CurrentValueSubject<Int, TestError>(0)
        let recorder = Recorder<Int, TestError>()
        let multicast = [1, 2].publisher.setFailureTypeForTest(TestError.self).multicast(subject: through)
        multicast.subscribe(recorder)
        let connection = multicast.connect()
        #expect(recorder.events == [.subscription, .value(0), .value(1), .value(2), .finished])
        connection.cancel()
    }

    @Test func autoconnectStartsWithTheFirstSubscriber() {
        let log = DemandLog()
        let subject = PassthroughSubject<Int, TestError>()
        let auto = subject.logRequests(to: log).multicast { PassthroughSubject<Int, TestError>() }.autoconnect()
        #expect(log.entries.isEmpty)
        let recorder = Recorder<Int, TestError>()
        auto.subscribe(recorder)
        subject.send(1)
        recorder.cancel()
        subject.send(2)
        #expect(recorder.events == [.subscription, .value(1)])
        #expect(log.entries == ["request unlimited", "cancel"])
    }
}
