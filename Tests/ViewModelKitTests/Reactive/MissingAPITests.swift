import Dispatch
import Foundation
import LoopSchedulerFoundation
import Testing
import ViewModelKit

/// API Combine has that was missing: `Codable` completions and scheduler time types,
/// `Record.Recording.encode(into:)`, async `Future.value`. Encodings as Combine's were recorded.
@Suite struct MissingAPITests {
    struct Keyed<Value: Codable & Equatable>: Codable, Equatable { let value: Value }
    struct CodedError: Error, Codable, Equatable { let code: Int }

    private func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test func completionIsCodable() throws {
        typealias Completion = Subscribers.Completion<CodedError>
        #expect(try json(Completion.finished) == #"{"success":true}"#)
        #expect(try json(Completion.failure(CodedError(code: 7))) == #"{"error":{"code":7},"success":false}"#)
        let decoder = JSONDecoder()
        #expect(try decoder.decode(Completion.self, from: Data(#"{"success":true}"#.utf8)) == .finished)
        let failed = try decoder.decode(Completion.self, from: Data(#"{"success":false,"error":{"code":3}}"#.utf8))
        #expect(failed == .failure(CodedError(code: 3)))
        #expect(throws: DecodingError.self) {
            try decoder.decode(Completion.self, from: Data(#"{"success":false}"#.utf8))
        }
    }

    @Test func recordingEncodesIntoAnEncoderAsItEncodesToOne() throws {
        let recording = Record<Int, CodedError>.Recording(output: [1, 2], completion: .failure(CodedError(code: 1)))
        struct Into: Encodable {
            let recording: Record<Int, CodedError>.Recording
            func encode(to encoder: Encoder) throws { try recording.encode(into: encoder) }
        }
        #expect(try json(Into(recording: recording)) == json(recording))
        #expect(try json(recording) == #"{"completion":{"error":{"code":1},"success":false},"output":[1,2]}"#)
    }

    @Test func dispatchQueueTimeAndStrideAreCodableAsCombine() throws {
        typealias Time = DispatchQueue.SchedulerTimeType
        let time = Time(DispatchTime(uptimeNanoseconds: 42))
        #expect(try json(Keyed(value: time)) == #"{"value":42}"#)
        #expect(try JSONDecoder().decode(Keyed<Time>.self, from: Data(#"{"value":42}"#.utf8)).value == time)
        let stride = Time.Stride.nanoseconds(419_872)
        #expect(try json(Keyed(value: stride)) == #"{"value":{"magnitude":419872}}"#)
        #expect(
            try JSONDecoder().decode(Keyed<Time.Stride>.self, from: Data(#"{"value":{"magnitude":419872}}"#.utf8)).value
                == stride)
    }

    @Test func dispatchStrideFromAnIntegerIsNanosecondsAndHashingUsesTheRawTime() {
        typealias Time = DispatchQueue.SchedulerTimeType
        #expect(Time.Stride(exactly: 871 as UInt64)?.magnitude == 871)
        #expect(Time.Stride(exactly: UInt64.max) == nil)
        #expect((34 as Time.Stride).magnitude == 34_000_000_000)  // a literal is seconds
        let time = Time(DispatchTime(uptimeNanoseconds: 10_000))
        #expect(time.hashValue == time.dispatchTime.rawValue.hashValue)
    }

    @Test func runLoopTimeAndMonotonicInstantsAreCodable() throws {
        let date = DateSchedulerTime(Date(timeIntervalSinceReferenceDate: 1024.75))
        #expect(try json(date) == #"{"date":1024.75}"#)
        let instant = MonotonicInstant(nanoseconds: 5)
        #expect(try json(instant) == #"{"nanoseconds":5}"#)
        #expect(try JSONDecoder().decode(MonotonicInstant.self, from: Data(#"{"nanoseconds":5}"#.utf8)) == instant)
    }

    @Test func futureValueAwaitsTheFulfilledPromise() async throws {
        let promised = PromiseBox<Int, Never>()
        let future = Future<Int, Never> { promised.promise = $0 }
        let task = Task { await future.value }
        promised.promise?(.success(42))
        #expect(await task.value == 42)

        let failing = PromiseBox<Int, CodedError>()
        let throwing = Future<Int, CodedError> { failing.promise = $0 }
        let failingTask = Task { try await throwing.value }
        failing.promise?(.failure(CodedError(code: 9)))
        await #expect(throws: CodedError(code: 9)) { try await failingTask.value }

        let succeeded = Future<Int, CodedError> { $0(.success(3)) }
        #expect(try await succeeded.value == 3)
    }
}

/// Holds a future's promise for the test to fulfil later.
private final class PromiseBox<Output, Failure: Error>: @unchecked Sendable {
    var promise: Future<Output, Failure>.Promise?
}
