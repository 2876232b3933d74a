import Testing
import ViewModelKit

/// Subjects and `ObservableObjectPublisher` where Combine's demand and
/// storage rules differed from ours.
@Suite struct SubjectSemanticsTests {
    /// Combine's `ObservableObjectPublisher` ignores demand once a subscriber has requested any.
    @Test func observableObjectPublisherSendsToEverySubscriberThatEverRequested() {
        let publisher = ObservableObjectPublisher()
        let once = Recorder<Void, Never>(initialDemand: .max(1))
        let never = Recorder<Void, Never>(initialDemand: nil)
        publisher.subscribe(once)
        publisher.subscribe(never)
        publisher.send()
        publisher.send()
        publisher.send()
        #expect(once.events.count == 4)  // the subscription and three values
        #expect(never.events.count == 1)
        never.request(.max(1))
        publisher.send()
        publisher.send()
        #expect(once.events.count == 6)
        #expect(never.events.count == 3)
    }

    /// `publisher.subscribe(subject)`: the subject asks its upstream for values only once one of
    /// its subscribers has demand, then `.unlimited`, as Combine's.
    @Test func passthroughSubjectAsASubscriberRequestsUpstreamOnlyWithDownstreamDemand() {
        let log = DemandLog()
        let upstream = PassthroughSubject<Int, Never>()
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Int, Never>(initialDemand: nil)
        subject.subscribe(recorder)
        let token = upstream.logRequests(to: log).subscribe(subject)
        #expect(log.entries == [])
        upstream.send(1)
        recorder.request(.max(1))
        #expect(log.entries == ["request unlimited"])
        upstream.send(2)
        recorder.request(.max(1))
        #expect(log.entries == ["request unlimited"])
        #expect(recorder.values == [2])
        token.cancel()
        #expect(log.entries == ["request unlimited", "cancel"])
        recorder.detach()  // a stream that never ends: its subscriber and subscription hold each other
    }

    /// An upstream attached after a subscriber already asked is requested from at once.
    @Test func anUpstreamAttachedAfterDemandIsRequestedAtOnce() {
        let log = DemandLog()
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Int, Never>()
        subject.subscribe(recorder)
        let token = Just(7).logRequests(to: log).subscribe(subject)
        #expect(log.entries == ["request unlimited"])
        #expect(recorder.events == [.subscription, .value(7), .finished])
        withExtendedLifetime(token) {}
    }

    /// Unlike `PassthroughSubject`, Combine's `CurrentValueSubject` asks its upstream for
    /// everything as soon as it is subscribed: it keeps the latest value for later subscribers.
    @Test func currentValueSubjectAsASubscriberRequestsUnlimitedAtOnce() {
        let log = DemandLog()
        let subject = CurrentValueSubject<Int, Never>(0)
        let token = Just(5).logRequests(to: log).subscribe(subject)
        #expect(log.entries == ["request unlimited"])
        #expect(subject.value == 5)
        let recorder = Recorder<Int, Never>()
        subject.subscribe(recorder)
        #expect(recorder.events == [.subscription, .finished])
        withExtendedLifetime(token) {}
    }

    /// Combine's `value` setter stores even after completion (`send` does not).
    @Test func currentValueSubjectValueSetAfterCompletionStillStores() {
        let subject = CurrentValueSubject<Int, Never>(1)
        let recorder = Recorder<Int, Never>()
        subject.subscribe(recorder)
        subject.send(completion: .finished)
        subject.value = 2
        #expect(subject.value == 2)
        subject.send(3)
        #expect(subject.value == 2)
        #expect(recorder.events == [.subscription, .value(1), .finished])
        let late = Recorder<Int, Never>()
        subject.subscribe(late)
        #expect(late.events == [.subscription, .finished])
    }
}
