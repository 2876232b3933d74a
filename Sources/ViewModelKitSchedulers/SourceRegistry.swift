import LoopScheduler

#if canImport(Glibc)
import Glibc
#endif

/// The current thread's id as a comparable integer (`pthread_t` is an integer on Linux).
private func currentThreadID() -> UInt {
    UInt(pthread_self())
}

/// Signalled-source bookkeeping shared by schedulers that service their event sources at
/// explicit points (`TestScheduler`): merge counts, ranked snapshot delivery, cancellation.
final class SourceRegistry: @unchecked Sendable {
    final class Slot {
        let order: Int
        let sequence: UInt64
        var waiting = 0
        var delivering: Int?
        var deliveringThread: UInt = 0
        var cancelled = false
        var queued = false
        var handler: ((TestEventSource) -> Void)?
        weak var source: TestEventSource?

        init(order: Int, sequence: UInt64, handler: @escaping (TestEventSource) -> Void) {
            self.order = order
            self.sequence = sequence
            self.handler = handler
        }
    }

    private let lock = Lock()
    private var queued: [Slot] = []
    private var nextSequence: UInt64 = 0

    func makeSlot(order: Int, handler: @escaping (TestEventSource) -> Void) -> Slot {
        lock.withLock {
            defer { nextSequence += 1 }
            return Slot(order: order, sequence: nextSequence, handler: handler)
        }
    }

    func signal(_ slot: Slot) {
        lock.withLock {
            guard !slot.cancelled else { return }
            slot.waiting += 1
            if !slot.queued {
                slot.queued = true
                queued.append(slot)
            }
        }
    }

    func mergedCount(_ slot: Slot) -> Int {
        lock.withLock {
            if let delivering = slot.delivering, slot.deliveringThread == currentThreadID() {
                return delivering
            }
            return slot.waiting
        }
    }

    func cancel(_ slot: Slot) {
        let handler = lock.withLock { () -> ((TestEventSource) -> Void)? in
            slot.cancelled = true
            slot.waiting = 0
            defer { slot.handler = nil }
            return slot.handler
        }
        _ = handler
    }

    /// Delivers a snapshot of the signalled sources in (order, creation) order.
    func service() {
        let batch = lock.withLock { () -> [Slot] in
            let taken = queued
            queued = []
            for slot in taken {
                slot.queued = false
                slot.delivering = slot.waiting
                slot.waiting = 0
            }
            return taken.sorted { ($0.order, $0.sequence) < ($1.order, $1.sequence) }
        }
        for slot in batch {
            let call = lock.withLock { () -> ((TestEventSource) -> Void, TestEventSource)? in
                guard !slot.cancelled, let handler = slot.handler, let source = slot.source,
                    let count = slot.delivering, count > 0
                else {
                    slot.delivering = nil
                    return nil
                }
                slot.deliveringThread = currentThreadID()
                return (handler, source)
            }
            guard let (handler, source) = call else { continue }
            handler(source)
            lock.withLock {
                slot.delivering = nil
                slot.deliveringThread = 0
            }
        }
    }
}

/// `TestScheduler`'s coalescing event source: signals merge until the scheduler's next service
/// point (see `TestScheduler`), and the handler runs on the advancing thread.
public final class TestEventSource: EventSource, @unchecked Sendable {
    private let registry: SourceRegistry
    private let slot: SourceRegistry.Slot
    /// The service rank: lower first, equal ranks in creation order.
    public let order: Int

    init(registry: SourceRegistry, order: Int, handler: @escaping (TestEventSource) -> Void) {
        self.registry = registry
        self.order = order
        slot = registry.makeSlot(order: order, handler: handler)
        slot.source = self
    }

    deinit {
        cancel()
    }

    /// Requests one handler call at the next service point. Any thread.
    public func signal() {
        registry.signal(slot)
    }

    /// Inside the handler: the signals this call merged (at least 1). Elsewhere: signals waiting.
    public var mergedSignalCount: Int {
        registry.mergedCount(slot)
    }

    /// Stops delivery and releases the handler. Idempotent, any thread.
    public func cancel() {
        registry.cancel(slot)
    }
}
