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
    /// first read of a class costs a reflection walk, later reads a table lookup and a load
    /// per `@Published` property.
    public var objectWillChange: ObservableObjectPublisher {
        DefaultWillChange.publisher(for: self)
    }
}

/// Finds or creates an object's default `objectWillChange`.
///
/// The publisher lives in the object's `@Published` storages (so it dies with the object and a
/// setter reaches it with one atomic load). Each read finds it there, through the offsets of the
/// class's `@Published` fields (found by reflection once per class and kept in a table keyed by
/// the class): nothing here refers to the object itself, weakly or not. A weak reference to each
/// object (the cache this used to keep) gave every model a side table, which made every retain
/// and release of a model take the runtime's slow path (about 170 instructions per
/// `updateView()` that reads a model, by callgrind, row "4 coalescing, per updateView()").
///
/// A storage that was replaced while the object lives (a wrapper replaced, `_x = Published(...)`)
/// holds no publisher: the next read wires it to the one the others hold (or to a new one, if
/// the replaced storage was the only holder). An object without `@Published` properties keeps its
/// publisher in a small identity-keyed table instead (its entry is dropped once the object is
/// gone); no setter ever reads that one.
enum DefaultWillChange {
    private struct Entry {
        weak var object: AnyObject?
        var owned: ObservableObjectPublisher
    }

    /// A `@Published` field of a class: where it is in an instance, and how to read its storage.
    private struct Field {
        let offset: Int
        let provider: any PublishedStorageProviding.Type
    }

    // A pthread lock rather than `Synchronization.Mutex`: ThreadSanitizer does not see the
    // latter's futex-based locking on Linux and reports its protected accesses as races.
    private static let table = Table()

    private final class Table: @unchecked Sendable {
        let lock = Lock()
        /// Per class (classes are never unloaded, so the key stays valid).
        var fields: [ObjectIdentifier: [Field]] = [:]
        /// Per object without `@Published` storages.
        var entries: [UInt: Entry] = [:]
        var pruneAt = 64

        func withLock<T>(_ body: (Table) -> T) -> T {
            lock.withLock { body(self) }
        }
    }

    static func publisher(for object: AnyObject) -> ObservableObjectPublisher {
        let fields = publishedFields(of: type(of: object))
        guard let first = fields.first else { return unwiredPublisher(for: object) }
        return withExtendedLifetime(object) {
            let base = UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
            func storage(_ field: Field) -> PublishedWillChangeSlot {
                field.provider.willChangeSlot(at: base + field.offset)
            }
            // Reuse the publisher a storage already holds (the others were replaced since), else
            // a new one. The first storage arbitrates between racing readers; the others follow.
            var candidate: ObservableObjectPublisher?
            for field in fields where candidate == nil { candidate = storage(field).installedWillChange }
            let publisher = storage(first).installWillChange(candidate ?? ObservableObjectPublisher())
            for field in fields.dropFirst() { _ = storage(field).installWillChange(publisher) }
            return publisher
        }
    }

    /// The publisher of an object with no `@Published` storage: kept in the table, one per live
    /// object.
    private static func unwiredPublisher(for object: AnyObject) -> ObservableObjectPublisher {
        let id = UInt(bitPattern: ObjectIdentifier(object))
        let (publisher, pruned) = table.withLock { table -> (ObservableObjectPublisher, [UInt: Entry]) in
            if let entry = table.entries[id], entry.object === object { return (entry.owned, [:]) }
            var pruned: [UInt: Entry] = [:]
            if table.entries.count >= table.pruneAt {
                pruned = table.entries.filter { $0.value.object == nil }
                table.entries = table.entries.filter { $0.value.object != nil }
                table.pruneAt = max(64, table.entries.count * 2)
            }
            let created = ObservableObjectPublisher()
            table.entries[id] = Entry(object: object, owned: created)
            return (created, pruned)
        }
        withExtendedLifetime(pruned) {}  // their publishers finish outside the lock
        return publisher
    }

    /// The `@Published` fields of `type`, in declaration order, base class first; found once per
    /// class.
    private static func publishedFields(of type: AnyClass) -> [Field] {
        let key = ObjectIdentifier(type)
        if let known = table.withLock({ $0.fields[key] }) { return known }
        let found = walkPublishedFields(of: type)
        return table.withLock { table in
            if let known = table.fields[key] { return known }
            table.fields[key] = found
            return found
        }
    }

    /// Walks the class's stored fields as the runtime lays them out (the standard library's
    /// field enumeration), not `Mirror`: a class conforming to `CustomReflectable` may hide its
    /// children from `Mirror`, and its `@Published` properties must still drive
    /// `objectWillChange`, as in Combine.
    private static func walkPublishedFields(of type: AnyClass) -> [Field] {
        var chain: [AnyClass] = []
        var current: AnyClass? = type
        while let level = current {
            chain.append(level)
            current = _getSuperclass(level)
        }
        var found: [Field] = []
        var seenOffsets = Set<Int>()
        // `_EachFieldOptions.classType` (bit 0), spelled by value: the library declares it as a
        // mutable static, which Swift 6 refuses to read.
        let classFields = _EachFieldOptions(rawValue: 1 << 0)
        for level in chain.reversed() {
            _ = _forEachField(of: level, options: classFields) { _, offset, fieldType, _ in
                if let provider = fieldType as? PublishedStorageProviding.Type, seenOffsets.insert(offset).inserted {
                    found.append(Field(offset: offset, provider: provider))
                }
                return true
            }
        }
        return found
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
    func installWillChange(_ publisher: ObservableObjectPublisher) -> ObservableObjectPublisher
}
