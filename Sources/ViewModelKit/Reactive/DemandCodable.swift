/// `Subscribers.Demand` as one unsigned integer, as Combine's `Codable` conformance: `.max(n)` is
/// `n`, `.unlimited` is `UInt.max`; a decoded value above `Int.max` means `.unlimited`.
extension Subscribers.Demand: Codable {
    /// Decodes a demand; throws `DecodingError` if the value is not an unsigned integer.
    public init(from decoder: Decoder) throws {
        let raw = try decoder.singleValueContainer().decode(UInt.self)
        self = raw > UInt(Int.max) ? .unlimited : .max(Int(raw))
    }

    /// Encodes the demand as one unsigned integer.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(max.map { UInt($0) } ?? UInt.max)
    }
}
