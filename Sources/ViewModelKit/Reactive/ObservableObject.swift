@_spi(Reflection) import Swift

/// An object whose changes are announced before they happen, as Combine's `ObservableObject`.
///
/// A class that conforms without declaring `objectWillChange` gets a default
/// `ObservableObjectPublisher`, which every `@Published` property of the object (declared in the
/// class or any superclass) sends to *before* it changes. Repeated reads return the same
/// instance. A class that declares its own `objectWillChange` is not wired: `@Published` changes
/// never send to it, as in Combine.
public protocol ObservableObject: AnyObject {
    /// The publisher that emits before the object changes.
    associatedtype ObjectWillChangePublisher: Publisher = ObservableObjectPublisher
    where ObjectWillChangePublisher.Failure == Never

    /// Emits before the object changes.
    var objectWillChange: ObjectWillChangePublisher { get }
}

extension ObservableObject where ObjectWillChangePublisher == ObservableObjectPublisher {
    /// The synthesised publisher: created on first read and shared by every `@Published`
    /// property of this object (found by reflection, superclasses included). Thread-safe; the
    /// first read costs a reflection walk, later reads a table lookup.
    public var objectWillChange: ObservableObjectPublisher {
        DefaultWillChange.publisher(for: self)
    }
}

/// Finds or creates an object's default `objectWillChange`.
///
/// The publisher lives in the object's `@Published` storages (so it dies with the object and a
/// setter reaches it with one atomic load). A small identity-keyed cache makes repeated reads
/// cheap; an object without `@Published` properties keeps its publisher only in that table (its
/// entry is dropped once the object is gone).
///
/// A storage that goes away while the object lives (a wrapper replaced, `_x = Published(...)`)
/// drops the object's cache entry, so the next read walks the storages again and wires the new
/// one to the publisher the others hold (or to a new one, if it was the only holder).
enum DefaultWillChange {
    private struct Entry {
        weak var object: AnyObject?
        // Strong only for objects without @Published storages; otherwise the storages own it.
        var owned: ObservableObjectPublisher?
        // Weak, not unowned(unsafe): the storages that own the publisher can be replaced while
        // the object lives, which freed it under an unowned entry (a use-after-free we once had). The weak load costs
        // a side-table hop per cached read; no hot path reads here (setters reach the publisher
        // through their storage), so no benchmark row justifies anything cheaper.
        weak var shared: ObservableObjectPublisher?
    }

    // A pthread lock rather than `Synchronization.Mutex`: ThreadSanitizer does not see the
    // latter's futex-based locking on Linux and reports its protected accesses as races.
    private static let table = Table()

    private final class Table: @unchecked Sendable {
        let lock = Lock()
        var entries: [UInt: Entry] = [:]
        var pruneAt = 64

        func withLock<T>(_ body: (Table) -> T) -> T {
            lock.withLock { body(self) }
        }
    }

    static func publisher(for object: AnyObject) -> ObservableObjectPublisher {
        let id = UInt(bitPattern: ObjectIdentifier(object))
        let cached = table.withLock { table -> ObservableObjectPublisher? in
            guard let entry = table.entries[id], entry.object === object else { return nil }
            return entry.owned ?? entry.shared
        }
        if let cached { return cached }

        let storages = publishedStorages(of: object)
        let publisher: ObservableObjectPublisher
        if let first = storages.first {
            // Reuse the publisher a storage already holds (the others were replaced since), else
            // a new one. The first storage arbitrates between racing readers; the others follow.
            let candidate = storages.lazy.compactMap { $0.installedWillChange }.first ?? ObservableObjectPublisher()
            publisher = first.installWillChange(candidate, owner: id)
            for storage in storages.dropFirst() { _ = storage.installWillChange(publisher, owner: id) }
        } else {
            publisher = ObservableObjectPublisher()
        }
        let ownsIt = storages.isEmpty
        return table.withLock { table -> ObservableObjectPublisher in
            if let entry = table.entries[id], entry.object === object,
                let existing = entry.owned ?? entry.shared
            {
                return existing
            }
            if table.entries.count >= table.pruneAt {
                table.entries = table.entries.filter { $0.value.object != nil }
                table.pruneAt = max(64, table.entries.count * 2)
            }
            table.entries[id] = Entry(
                object: object, owned: ownsIt ? publisher : nil, shared: ownsIt ? nil : publisher)
            return publisher
        }
    }

    /// A storage holding `publisher` for the object `owner` is going away: forget the object's
    /// entry if it names that publisher, so the next read re-wires the object's storages.
    static func storageReleased(owner: UInt, publisher: ObservableObjectPublisher) {
        let dropped = table.withLock { table -> Entry? in
            guard let entry = table.entries[owner], entry.shared === publisher else { return nil }
            return table.entries.removeValue(forKey: owner)
        }
        withExtendedLifetime(dropped) {}  // released outside the lock
    }

    /// Every `@Published` storage of `object`, in declaration order, base class first.
    ///
    /// Walks the class's stored fields as the runtime lays them out (the standard library's
    /// field enumeration), not `Mirror`: a class conforming to `CustomReflectable` may hide its
    /// children from `Mirror`, and its `@Published` properties must still drive
    /// `objectWillChange`, as in Combine.
    private static func publishedStorages(of object: AnyObject) -> [PublishedWillChangeSlot] {
        var chain: [AnyClass] = []
        var current: AnyClass? = type(of: object)
        while let level = current {
            chain.append(level)
            current = _getSuperclass(level)
        }
        let base = UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
        var found: [PublishedWillChangeSlot] = []
        var seenOffsets = Set<Int>()
        // `_EachFieldOptions.classType` (bit 0), spelled by value: the library declares it as a
        // mutable static, which Swift 6 refuses to read.
        let classFields = _EachFieldOptions(rawValue: 1 << 0)
        for level in chain.reversed() {
            _ = _forEachField(of: level, options: classFields) { _, offset, fieldType, _ in
                if let provider = fieldType as? PublishedStorageProviding.Type, seenOffsets.insert(offset).inserted {
                    found.append(provider.willChangeSlot(at: base + offset))
                }
                return true
            }
        }
        return withExtendedLifetime(object) { found }
    }
}

extension PublishedStorageProviding {
    /// The slot of the `@Published` property stored at `address` (a field of a live object).
    static func willChangeSlot(at address: UnsafeRawPointer) -> PublishedWillChangeSlot {
        address.assumingMemoryBound(to: Self.self).pointee.willChangeSlot
    }
}

/// Lets reflection reach a `@Published` property's storage without knowing its value type.
protocol PublishedStorageProviding {
    var willChangeSlot: PublishedWillChangeSlot { get }
}

/// A storage's slot for the owner's default `objectWillChange`.
protocol PublishedWillChangeSlot: AnyObject {
    /// The publisher installed so far, if any.
    var installedWillChange: ObservableObjectPublisher? { get }
    /// Installs `publisher` unless one is there; returns the one that is there afterwards.
    /// `owner` (the object's address) names the cache entry to drop when this storage goes away.
    func installWillChange(_ publisher: ObservableObjectPublisher, owner: UInt) -> ObservableObjectPublisher
}
