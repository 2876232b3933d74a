import Testing
import ViewModelKitSchedulers

@testable import ViewModelKit

private struct Podcast: Equatable {
    var title: String
    var episodes: Int
}

@Suite struct ObservableValueTests {
    @Test func followsThePublisherWithWillChangeBeforeStore() {
        let subject = PassthroughSubject<Podcast, Never>()
        let podcast = Observable(initialValue: Podcast(title: "a", episodes: 1), subject)
        var seenAtWillChange: [String] = []
        let token = podcast.objectWillChange.sink { seenAtWillChange.append(podcast.title) }
        subject.send(Podcast(title: "b", episodes: 2))
        #expect(podcast.value == Podcast(title: "b", episodes: 2))
        #expect(podcast.episodes == 2)  // dynamic member lookup
        #expect(seenAtWillChange == ["a"])  // will-change fires before the store
        subject.send(completion: .finished)
        #expect(podcast.title == "b")  // the last value stays
        token.cancel()
    }

    @Test func currentValueSubjectAsObservable() {
        let subject = CurrentValueSubject<Int, Never>(3)
        let observable = subject.asObservable()
        #expect(observable.value == 3)
        subject.send(4)
        #expect(observable.value == 4)
    }

    @Test func observeOnCoalescesObservableChanges() {
        let scheduler = TestScheduler()
        let subject = CurrentValueSubject<Int, Never>(0)
        let observable = subject.asObservable()
        var seen: [Int] = []
        let token = observable.observe(on: scheduler).sink { seen.append($0.value) }
        scheduler.advance()
        for i in 1...5 { subject.send(i) }
        scheduler.advance()
        #expect(seen == [0, 5])
        token.cancel()
    }

    @Test func deallocationCancelsTheUpstream() {
        let subject = PassthroughSubject<Int, Never>()
        weak var weakObservable: Observable<Int>?
        do {
            let observable = Observable(initialValue: 0, subject)
            weakObservable = observable
            subject.send(1)
            #expect(observable.value == 1)
        }
        #expect(weakObservable == nil)
        subject.send(2)  // no crash, nobody listening
    }
}
