import Foundation
import Testing
import ViewModelKit

/// `Result.Publisher`, `Optional.Publisher`, the `Codable` conformances of `Demand` and
/// `Record`, and Combine's `Equatable` conformances of publishers.
@Suite struct ConformanceTests {
    @Test func resultPublisherSuccessWaitsForDemand() {
        let recorder = Recorder<Int, TestError>(initialDemand: nil)
        Result<Int, TestError>.success(5).publisher.subscribe(recorder)
        #expect(recorder.events == [.subscription])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(5), .finished])
    }

    @Test func resultPublisherFailureNeedsNoDemand() {
        let recorder = Recorder<Int, TestError>(initialDemand: nil)
        Result<Int, TestError>.Publisher(TestError("no")).subscribe(recorder)
        #expect(recorder.events == [.subscription, .failure(TestError("no"))])
        #expect(Result<Int, TestError>.Publisher(1) == Result<Int, TestError>.success(1).publisher)
        #expect(Result<Int, TestError>.Publisher(1) != Result<Int, TestError>.Publisher(2))
    }

    @Test func optionalPublisherPublishesTheValueOrJustFinishes() {
        let some = Recorder<Int, Never>(initialDemand: nil)
        Optional(3).publisher.subscribe(some)
        #expect(some.events == [.subscription])
        some.request(.max(1))
        #expect(some.events == [.subscription, .value(3), .finished])
        let none = Recorder<Int, Never>(initialDemand: nil)
        Optional<Int>.none.publisher.subscribe(none)
        #expect(none.events == [.subscription, .finished])
        #expect(Optional<Int>.Publisher(1) == Optional(1).publisher)
    }

    @Test func demandRoundTripsThroughJSON() throws {
        let demands: [Subscribers.Demand] = [.none, .max(7), .unlimited]
        let data = try JSONEncoder().encode(demands)
        #expect(String(decoding: data, as: UTF8.self) == "[0,7,\(UInt(Int.max) + 1)]")
        #expect(try JSONDecoder().decode([Subscribers.Demand].self, from: data) == demands)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Subscribers.Demand.self, from: Data("-1".utf8)) }
    }

    struct CodedError: Error, Codable, Equatable {
        let code: Int
    }

    @Test func recordRoundTripsThroughJSONAndReplaysTheSame() throws {
        let record = Record<String, CodedError>(output: ["a", "b"], completion: .failure(CodedError(code: 3)))
        let data = try JSONEncoder().encode(record)
        let decoded = try JSONDecoder().decode(Record<String, CodedError>.self, from: data)
        #expect(decoded.recording.output == ["a", "b"])
        #expect(decoded.recording.completion == .failure(CodedError(code: 3)))
        let recorder = Recorder<String, CodedError>()
        decoded.subscribe(recorder)
        #expect(recorder.events == [.subscription, .value("a"), .value("b"), .failure(CodedError(code: 3))])
        let finished = try JSONDecoder().decode(
            Record<Int, CodedError>.Recording.self, from: Data(#"{"output":[1],"completion":{"success":true}}"#.utf8))
        #expect(finished.output == [1])
        #expect(finished.completion == .finished)
    }

    @Test func publishersCompareByUpstreamAndParameters() {
        #expect(Empty<Int, Never>().dropFirst(2) == Empty<Int, Never>().dropFirst(2))
        #expect(Empty<Int, Never>().dropFirst(2) != Empty<Int, Never>().dropFirst(3))
        #expect(Empty<Int, Never>().prefix(2) == Empty<Int, Never>().prefix(2))
        #expect(Just(1).combineLatest(Just(2)) == Just(1).combineLatest(Just(2)))
        #expect(Just(1).zip(Just(2), Just(3)) != Just(1).zip(Just(2), Just(4)))
        #expect(Just(1).merge(with: Just(2)) == Just(1).merge(with: Just(2)))
        #expect([1, 2].publisher.append(3) == [1, 2].publisher.append(3))
        #expect(Empty<Int, Never>().collect() == Empty<Int, Never>().collect())
        #expect(Empty<Int, Never>().replaceEmpty(with: 2) == Empty<Int, Never>().replaceEmpty(with: 2))
        #expect(Empty<Int, Never>().contains(1) != Empty<Int, Never>().contains(2))
        #expect(Empty<Int, Never>().retry(2) == Empty<Int, Never>().retry(2))
    }
}
