/// `Subscribers.Demand` as one unsigned integer, as Combine's `Codable` conformance was recorded:
/// `.max(n)` is `n`, `.unlimited` is `Int.max + 1`; a decoded value above `Int.max` means
/// `.unlimited`, a negative one is a `DecodingError`.
extension Subscribers.Demand: Codable {
    /// Decodes a demand; throws `DecodingError` if the value is not an unsigned integer.
    public init(from decoder: Decoder) throws {
        let raw = try decoder.singleValueContainer().decode(UInt.self)
        self = raw > UInt(Int.max) ? .unlimited : .max(Int(raw))
    }

    /// Encodes the demand as one unsigned integer.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(max.map { UInt($0) } ?? UInt(Int.max) + 1)
    }
}
