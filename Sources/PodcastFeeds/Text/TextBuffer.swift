#if canImport(Glibc)
import Glibc
#endif

/// The growable byte buffer a feed field's text is collected in. A plain malloc'd block: an
/// append is a capacity check and a `memcpy`, and emptying it for the next field is setting
/// the count to zero (a Swift `Array` pays a generic append and `replaceSubrange` per call,
/// and libxml2 splits text at every entity reference, so a field sees many appends).
/// Owned by one parse on one thread.
final class TextBuffer {
    private var storage: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int) {
        self.capacity = max(capacity, 16)
        storage = .allocate(capacity: self.capacity)
    }

    deinit { storage.deallocate() }

    var isEmpty: Bool { count == 0 }

    /// The collected bytes; valid until the next change to the buffer.
    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: storage, count: count) }

    func removeAll() { count = 0 }

    func append(_ bytes: UnsafePointer<UInt8>, _ length: Int) {
        if count + length > capacity { grow(to: count + length) }
        (storage + count).update(from: bytes, count: length)
        count += length
    }

    func append(_ byte: UInt8) {
        if count == capacity { grow(to: count + 1) }
        storage[count] = byte
        count += 1
    }

    func append<Bytes: Sequence<UInt8>>(contentsOf bytes: Bytes) {
        for byte in bytes { append(byte) }
    }

    private func grow(to minimum: Int) {
        var newCapacity = capacity * 2
        while newCapacity < minimum { newCapacity *= 2 }
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        bigger.update(from: storage, count: count)
        storage.deallocate()
        storage = bigger
        capacity = newCapacity
    }
}
