import Foundation
import Testing
import ViewModelKit
import ViewModelKitSchedulers

/// `replaceEmpty`, `replaceNil`, key-path `map`, `measureInterval`, `breakpoint`,
/// `assertNoFailure`, `encode` and `decode`, as Combine's.
@Suite struct MiscOperatorTests {
    @Test func nothingIsDeliveredAfterTheSubscriberCancelled() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder<Int, Never>(demandPerValue: .max(4))
        upstream.replaceEmpty(with: 0).subscribe(recorder)
        #expect(upstream.send(1) == .max(4))
        recorder.cancel()
        #expect(upstream.send(2) == .none)
        upstream.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(1)])
    }

    @Test func replaceEmptyWaitsForDemandThenPublishesTheReplacement() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>(initialDemand: nil)
        subject.replaceEmpty(with: 42).subscribe(recorder)
        subject.send(completion: .finished)
        #expect(recorder.events == [.subscription])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(42), .finished])
    }

    @Test func replaceEmptyPassesValuesAndFailuresUnchanged() {
        let values = Recorder<Int, Never>()
        [1, 2].publisher.eraseToAnyPublisher().replaceEmpty(with: 42).subscribe(values)
        #expect(values.events == [.subscription, .value(1), .value(2), .finished])
        let failed = Recorder<Int, TestError>()
        Fail<Int, TestError>(error: TestError("f")).replaceEmpty(with: 42).subscribe(failed)
        #expect(failed.events == [.subscription, .failure(TestError("f"))])
        let log = DemandLog()
        let demand = Recorder<Int, Never>(initialDemand: .max(3))
        Empty<Int, Never>(completeImmediately: false).logRequests(to: log).replaceEmpty(with: 1).subscribe(demand)
        // As Combine: the subscriber's demand, then `.unlimited` once it is subscribed.
        #expect(log.entries == ["request max(3)", "request unlimited"])
        demand.detach()  // a stream that never ends: its subscriber and subscription hold each other
    }

    @Test func replaceNilMapsOptionals() {
        let recorder = Recorder<Int, Never>()
        [1, nil, 3].publisher.eraseToAnyPublisher().replaceNil(with: 0).subscribe(recorder)
        #expect(recorder.events == [.subscription, .value(1), .value(0), .value(3), .finished])
    }

    struct Point {
        let x: Int
        let y: Int
        let label: String
    }

    @Test func keyPathMapsReadOneTwoOrThreePaths() {
        let points = [Point(x: 1, y: 2, label: "a"), Point(x: 3, y: 4, label: "b")]
        let one = Recorder<Int, Never>()
        points.publisher.map(\.x).subscribe(one)
        #expect(one.events == [.subscription, .value(1), .value(3), .finished])
        let two = Recorder<(Int, String), Never>()
        points.publisher.map(\.y, \.label).subscribe(two)
        #expect(rendered(two.events) == ["subscription", "value((2, \"a\"))", "value((4, \"b\"))", "finished"])
        let three = Recorder<(Int, Int, String), Never>()
        points.publisher.map(\.x, \.y, \.label).subscribe(three)
        #expect(rendered(three.events) == ["subscription", "value((1, 2, \"a\"))", "value((3, 4, \"b\"))", "finished"])
    }

    @Test func measureIntervalMeasuresFromSubscriptionThenBetweenValues() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<String, Never>()
        let recorder = Recorder<MonotonicInstant.Stride, Never>()
        scheduler.advance(by: .seconds(5))
        subject.measureInterval(using: scheduler).subscribe(recorder)
        scheduler.advance(by: .milliseconds(300))
        subject.send("a")
        scheduler.advance(by: .seconds(2))
        subject.send("b")
        subject.send("c")
        subject.send(completion: .finished)
        #expect(
            recorder.events == [
                .subscription, .value(.milliseconds(300)), .value(.seconds(2)), .value(.nanoseconds(0)), .finished,
            ])
    }

    @Test func measureIntervalPassesReturnedDemandAsARequestAndStopsAtCancel() {
        let scheduler = TestScheduler()
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder<MonotonicInstant.Stride, Never>(initialDemand: .max(2), demandPerValue: .max(1))
        upstream.measureInterval(using: scheduler).subscribe(recorder)
        scheduler.advance(by: .seconds(1))
        #expect(upstream.send(1) == .none)
        recorder.cancel()
        #expect(upstream.send(2) == .none)
        #expect(recorder.events == [.subscription, .value(.seconds(1))])
        #expect(upstream.log.entries == ["request max(2)", "request max(1)", "cancel"])
    }

    @Test func breakpointClosuresSeeEveryEventAndPassItOn() {
        var seen: [String] = []
        let recorder = Recorder<Int, TestError>()
        [1, 2].publisher.eraseToAnyPublisher().setFailureType(to: TestError.self)
            .breakpoint(
                receiveSubscription: { _ in
                    seen.append("subscription")
                    return false
                },
                receiveOutput: {
                    seen.append("value \($0)")
                    return false
                },
                receiveCompletion: { _ in
                    seen.append("completion")
                    return false
                }
            )
            .subscribe(recorder)
        #expect(seen == ["subscription", "value 1", "value 2", "completion"])
        #expect(recorder.events == [.subscription, .value(1), .value(2), .finished])
        let onError = Recorder<Int, TestError>()
        [3].publisher.eraseToAnyPublisher().setFailureType(to: TestError.self).breakpointOnError().subscribe(onError)
        #expect(onError.events == [.subscription, .value(3), .finished])
    }

    @Test func assertNoFailurePassesValuesAndFinishes() {
        let log = DemandLog()
        let recorder = Recorder<Int, Never>(initialDemand: .max(1))
        [1, 2].publisher.eraseToAnyPublisher().setFailureType(to: TestError.self).logRequests(to: log).assertNoFailure()
            .subscribe(recorder)
        #expect(recorder.events == [.subscription, .value(1)])
        #expect(log.entries == ["request max(1)"])
        recorder.detach()  // a stream that never ends: its subscriber and subscription hold each other
    }

    struct JSONCoder: TopLevelEncoder, TopLevelDecoder {
        func encode<T: Encodable>(_ value: T) throws -> Data { try JSONEncoder().encode(value) }
        func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
            try JSONDecoder().decode(type, from: data)
        }
    }

    struct Item: Codable, Equatable {
        let id: Int
    }

    @Test func encodeThenDecodeRoundTrips() {
        let recorder = Recorder<Item, any Error>()
        [Item(id: 1), Item(id: 2)].publisher
            .encode(encoder: JSONCoder())
            .decode(type: Item.self, decoder: JSONCoder())
            .subscribe(recorder)
        #expect(rendered(recorder.events) == ["subscription", "value(Item(id: 1))", "value(Item(id: 2))", "finished"])
    }

    @Test func decodeErrorCancelsUpstreamAndFails() {
        let upstream = ManualPublisher<Data, Never>()
        let recorder = Recorder<Item, any Error>()
        upstream.decode(type: Item.self, decoder: JSONCoder()).subscribe(recorder)
        upstream.send(Data(#"{"id":7}"#.utf8))
        upstream.send(Data("not json".utf8))
        upstream.send(Data(#"{"id":8}"#.utf8))
        #expect(recorder.values == [Item(id: 7)])
        #expect(recorder.events.count == 3)
        if case .completion(.failure(let error)) = recorder.events.last {
            #expect(error is DecodingError)
        } else {
            Issue.record("expected a failure, got \(recorder.events)")
        }
        #expect(upstream.log.entries == ["request unlimited", "cancel"])
    }
}
