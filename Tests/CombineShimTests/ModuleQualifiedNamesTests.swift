import Combine
import Foundation
import Testing

/// Code written for Apple's Combine with module-qualified names builds against the `Combine`
/// shim unchanged and behaves as ViewModelKit does.
@Suite struct ModuleQualifiedNamesTests {
    /// As a Combine user writes it, qualified names and all.
    func numbers(_ values: [Int]) -> Combine.AnyPublisher<Int, Never> {
        values.publisher.eraseToAnyPublisher()
    }

    @Test func qualifiedPublisherAndSubscriberNamesResolve() {
        var received: [Int] = []
        var ended: Combine.Subscribers.Completion<Never>?
        let token: Combine.AnyCancellable = numbers([1, 2, 3])
            .map { $0 * 10 }
            .sink(receiveCompletion: { ended = $0 }, receiveValue: { received.append($0) })
        #expect(received == [10, 20, 30])
        #expect(ended == .finished)
        token.cancel()
    }

    @Test func qualifiedSubjectsDemandAndSchedulerNamesResolve() {
        let subject = Combine.CurrentValueSubject<String, Never>("a")
        var seen: [String] = []
        let token = subject.receive(on: Combine.ImmediateScheduler.shared).sink { seen.append($0) }
        subject.send("b")
        #expect(seen == ["a", "b"])
        #expect(Combine.Subscribers.Demand.max(2) + 1 == .max(3))
        token.cancel()
    }

    @Test func foundationsCombineExtensionsComeWithIt() {
        let encoded = Combine.Just(7).encode(encoder: JSONEncoder()).map { String(decoding: $0, as: UTF8.self) }
            .first()
        var text: [String] = []
        _ = encoded.sink(receiveCompletion: { _ in }, receiveValue: { text.append($0) })
        #expect(text == ["7"])
        let publisher: Foundation.Timer.TimerPublisher = Timer.publish(every: 1, on: .main, in: .common)
        #expect(publisher.interval == 1)
    }
}
