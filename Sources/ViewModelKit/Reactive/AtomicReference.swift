import Synchronization

/// A reference set at most once, read lock-free: one acquiring load per read.
///
/// `Synchronization.AtomicLazyReference` would do, but its `load()` is not inlinable and costs a
/// generic-metadata lookup per call; this is on the `@Published` setter's path (row "5
/// @Published set"). The `Unmanaged` below is safe because the holder owns exactly one +1
/// retain of the instance from `storeIfNil` until its deinit, and the reference is never
/// replaced: an unretained load is valid as long as the holder is.
struct OnceReference<Instance: AnyObject>: ~Copyable {
    private let bits = Atomic<UInt>(0)

    init() {}

    /// The stored instance, or nil.
    @inline(__always)
    func load() -> Instance? {
        let raw = bits.load(ordering: .acquiring)
        guard raw != 0 else { return nil }
        return Unmanaged<Instance>.fromOpaque(UnsafeRawPointer(bitPattern: raw)!).takeUnretainedValue()
    }

    /// Calls `body` with the stored instance (if any) without retaining it: the reference is
    /// never replaced, so it lives as long as this holder.
    @inline(__always)
    func withValue(_ body: (Instance) -> Void) {
        let raw = bits.load(ordering: .acquiring)
        guard raw != 0 else { return }
        Unmanaged<Instance>.fromOpaque(UnsafeRawPointer(bitPattern: raw)!)._withUnsafeGuaranteedRef(body)
    }

    /// Stores `candidate` if nothing is stored yet; returns what is stored afterwards.
    func storeIfNil(_ candidate: Instance) -> Instance {
        let retained = Unmanaged.passRetained(candidate)
        let raw = UInt(bitPattern: retained.toOpaque())
        let (exchanged, original) = bits.compareExchange(
            expected: 0, desired: raw, ordering: .acquiringAndReleasing)
        if exchanged { return candidate }
        retained.release()
        return Unmanaged<Instance>.fromOpaque(UnsafeRawPointer(bitPattern: original)!).takeUnretainedValue()
    }

    deinit {
        let raw = bits.load(ordering: .acquiring)
        if raw != 0 {
            Unmanaged<Instance>.fromOpaque(UnsafeRawPointer(bitPattern: raw)!).release()
        }
    }
}
