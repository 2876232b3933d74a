import Synchronization

/// A unique identifier for a subscription or subscriber, as Combine's `CombineIdentifier`.
///
/// For a class it is derived from the object's identity; otherwise it comes from a process-wide
/// counter. Thread-safe.
public struct CombineIdentifier: Hashable, Sendable, CustomStringConvertible {
    private let value: UInt64

    /// A fresh identifier, unique within the process.
    public init() {
        value = CombineIdentifier.counter.next()
    }

    /// The identifier of `obj`, equal for equal object identity.
    public init(_ obj: AnyObject) {
        value = UInt64(UInt(bitPattern: ObjectIdentifier(obj).hashValue))
    }

    /// A hexadecimal rendering of the identifier.
    public var description: String { "0x" + String(value, radix: 16) }

    private static let counter = AtomicCounter()
}

/// A process-wide atomic counter for `CombineIdentifier()`.
/// Starts high so that counter values do not collide with object addresses in practice.
private final class AtomicCounter: Sendable {
    private let atomic = Atomic<UInt64>(1 << 63)
    func next() -> UInt64 {
        atomic.add(1, ordering: .relaxed).newValue
    }
}

/// A type that has a `CombineIdentifier`, as Combine's `CustomCombineIdentifierConvertible`.
/// Classes get an identity-based identifier by default.
public protocol CustomCombineIdentifierConvertible {
    /// The identifier used for debugging and for telling subscribers apart.
    var combineIdentifier: CombineIdentifier { get }
}

extension CustomCombineIdentifierConvertible where Self: AnyObject {
    /// The object's identity as a `CombineIdentifier`.
    public var combineIdentifier: CombineIdentifier { CombineIdentifier(self) }
}
