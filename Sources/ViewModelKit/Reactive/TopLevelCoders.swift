/// A type that encodes values into one top-level representation, as Combine's
/// `TopLevelEncoder` (`encode(encoder:)` takes one). `ViewModelKitFoundation` makes
/// Foundation's `JSONEncoder` and `PropertyListEncoder` conform.
public protocol TopLevelEncoder {
    /// The encoded representation (for example `Data`).
    associatedtype Output
    /// Encodes `value`; throws the encoder's error if it cannot.
    func encode<T: Encodable>(_ value: T) throws -> Output
}

/// A type that decodes values from one top-level representation, as Combine's
/// `TopLevelDecoder` (`decode(type:decoder:)` takes one). `ViewModelKitFoundation` makes
/// Foundation's `JSONDecoder` and `PropertyListDecoder` conform.
public protocol TopLevelDecoder {
    /// The encoded representation (for example `Data`).
    associatedtype Input
    /// Decodes a `type` from `from`; throws the decoder's error if it cannot.
    func decode<T: Decodable>(_ type: T.Type, from: Input) throws -> T
}
