/// One input's typed place in a combining rule: its latest value (`LatestSlot`, for
/// `combineLatest`) or the queue of its values not yet combined (`QueueSlot`, for `zip`).
/// Inlinable, so that a client specialises it for its value type (docs/DESIGN-NOTES.md).
@usableFromInline
protocol CombiningSlot {
    associatedtype Value
    init()
    /// Whether a value is there for the next combination.
    var isReady: Bool { get }
    /// Takes the value out of `carried` (non-nil), leaving in it whatever was displaced.
    mutating func put(_ carried: inout Value?)
    /// The value for the next combination (`isReady` must be true): a copy of the latest, or
    /// the oldest, dequeued.
    mutating func take() -> Value
}

/// The latest value of an input; nil until the first.
@usableFromInline
struct LatestSlot<Value>: CombiningSlot {
    @usableFromInline var value: Value?

    @inlinable init() { value = nil }

    @inlinable var isReady: Bool { value != nil }

    @inlinable mutating func put(_ carried: inout Value?) {
        swap(&value, &carried)
    }

    @inlinable mutating func take() -> Value { value.unsafelyUnwrapped }
}

/// The values of an input waiting to be combined, oldest first.
///
/// `items[head..<tail]` wait; the slots around them are nil and reused, so a queue that
/// empties and refills (zip's steady state) neither shrinks nor reallocates its array
/// (`removeAll(keepingCapacity:)` per emptying cost about 60 instructions per value).
@usableFromInline
struct QueueSlot<Value>: CombiningSlot {
    @usableFromInline var items: ContiguousArray<Value?> = []
    @usableFromInline var head = 0
    @usableFromInline var tail = 0

    @inlinable init() {}

    @inlinable var isReady: Bool { head < tail }

    /// How many values wait.
    @inlinable var count: Int { tail - head }

    @inlinable mutating func put(_ carried: inout Value?) {
        if tail < items.count {
            swap(&items[tail], &carried)  // the slot was nil: `carried` is left nil
        } else {
            items.append(carried)
            carried = nil
        }
        tail += 1
    }

    @inlinable mutating func take() -> Value {
        var taken: Value? = nil
        swap(&taken, &items[head])  // released as soon as it is delivered
        head += 1
        if head == tail {
            head = 0
            tail = 0
        } else if head >= 64, head * 2 >= tail {
            // A long-lived backlog: drop the consumed prefix (amortised O(1) per value).
            items.removeFirst(head)
            tail -= head
            head = 0
        }
        return taken.unsafelyUnwrapped
    }
}

/// One typed slot per input, for a fixed number of inputs: what a `CombiningRule` keeps.
@usableFromInline
protocol CombiningSlots {
    /// The combination: a tuple of the slots' values, in input order.
    associatedtype Output
    /// How many inputs.
    static var arity: Int { get }
    init()
    /// Puts the value carried at `carried` (an `Optional` of input `index`'s value type) into
    /// slot `index`, leaving in `carried` whatever it displaced.
    mutating func put(_ carried: UnsafeMutableRawPointer, at index: Int)
    /// Whether every slot has a value ready.
    var allReady: Bool { get }
    /// Whether slot `index` has a value ready.
    func isReady(at index: Int) -> Bool
    /// Takes one value from every slot (all must be ready).
    mutating func take() -> Output
}

/// Two typed slots.
@usableFromInline
struct Slots2<S0: CombiningSlot, S1: CombiningSlot>: CombiningSlots {
    @usableFromInline typealias Output = (S0.Value, S1.Value)
    @usableFromInline var s0 = S0()
    @usableFromInline var s1 = S1()

    @inlinable static var arity: Int { 2 }

    @inlinable init() {}

    @inlinable mutating func put(_ carried: UnsafeMutableRawPointer, at index: Int) {
        if index == 0 {
            s0.put(&carried.assumingMemoryBound(to: Optional<S0.Value>.self).pointee)
        } else {
            s1.put(&carried.assumingMemoryBound(to: Optional<S1.Value>.self).pointee)
        }
    }

    @inlinable var allReady: Bool { s0.isReady && s1.isReady }

    @inlinable func isReady(at index: Int) -> Bool { index == 0 ? s0.isReady : s1.isReady }

    @inlinable mutating func take() -> Output { (s0.take(), s1.take()) }
}

/// Three typed slots.
@usableFromInline
struct Slots3<S0: CombiningSlot, S1: CombiningSlot, S2: CombiningSlot>: CombiningSlots {
    @usableFromInline typealias Output = (S0.Value, S1.Value, S2.Value)
    @usableFromInline var s0 = S0()
    @usableFromInline var s1 = S1()
    @usableFromInline var s2 = S2()

    @inlinable static var arity: Int { 3 }

    @inlinable init() {}

    @inlinable mutating func put(_ carried: UnsafeMutableRawPointer, at index: Int) {
        switch index {
        case 0: s0.put(&carried.assumingMemoryBound(to: Optional<S0.Value>.self).pointee)
        case 1: s1.put(&carried.assumingMemoryBound(to: Optional<S1.Value>.self).pointee)
        default: s2.put(&carried.assumingMemoryBound(to: Optional<S2.Value>.self).pointee)
        }
    }

    @inlinable var allReady: Bool { s0.isReady && s1.isReady && s2.isReady }

    @inlinable func isReady(at index: Int) -> Bool {
        switch index {
        case 0: s0.isReady
        case 1: s1.isReady
        default: s2.isReady
        }
    }

    @inlinable mutating func take() -> Output { (s0.take(), s1.take(), s2.take()) }
}

/// Four typed slots.
@usableFromInline
struct Slots4<S0: CombiningSlot, S1: CombiningSlot, S2: CombiningSlot, S3: CombiningSlot>: CombiningSlots {
    @usableFromInline typealias Output = (S0.Value, S1.Value, S2.Value, S3.Value)
    @usableFromInline var s0 = S0()
    @usableFromInline var s1 = S1()
    @usableFromInline var s2 = S2()
    @usableFromInline var s3 = S3()

    @inlinable static var arity: Int { 4 }

    @inlinable init() {}

    @inlinable mutating func put(_ carried: UnsafeMutableRawPointer, at index: Int) {
        switch index {
        case 0: s0.put(&carried.assumingMemoryBound(to: Optional<S0.Value>.self).pointee)
        case 1: s1.put(&carried.assumingMemoryBound(to: Optional<S1.Value>.self).pointee)
        case 2: s2.put(&carried.assumingMemoryBound(to: Optional<S2.Value>.self).pointee)
        default: s3.put(&carried.assumingMemoryBound(to: Optional<S3.Value>.self).pointee)
        }
    }

    @inlinable var allReady: Bool { s0.isReady && s1.isReady && s2.isReady && s3.isReady }

    @inlinable func isReady(at index: Int) -> Bool {
        switch index {
        case 0: s0.isReady
        case 1: s1.isReady
        case 2: s2.isReady
        default: s3.isReady
        }
    }

    @inlinable mutating func take() -> Output { (s0.take(), s1.take(), s2.take(), s3.take()) }
}
