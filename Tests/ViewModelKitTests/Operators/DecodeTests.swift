import Foundation
import Testing
import ViewModelKit
import ViewModelKitSchedulers

/// Tests of `Publishers.Decode` and the operator that returns it.
@Suite struct DecodeTests {
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
