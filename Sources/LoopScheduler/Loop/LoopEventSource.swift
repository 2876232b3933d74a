/// A coalescing event source serviced by an `EventLoop` at the end of a loop iteration (the
/// loop's flush), as the `EventSource` contract describes.
///
/// - `signal()` is thread-safe; every signal that arrives before the handler runs merges into one
///   handler call, and `mergedSignalCount` inside the handler says how many merged.
/// - The handler runs on the loop's thread, after the iteration's ordinary callbacks and before
///   the loop blocks. A signal raised while the flush is running (including from the handler
///   itself) is delivered in the next iteration, never twice in one flush.
/// - Sources are serviced by ascending `order`, then in the order they were created.
/// - After `cancel()` or deinit the handler is released and never called again. On the loop
///   thread that holds immediately; from another thread a delivery that already started finishes
///   (`cancel()` never waits for it).
public final class LoopEventSource: EventSource, @unchecked Sendable {
    /// The loop that services this source.
    public let loop: EventLoop
    /// The flush rank: lower ranks are serviced first; equal ranks in creation order.
    public let order: Int
    private let slot: FlushCoordinator.Slot
    // The loop's coordinator, held strongly (it was `unowned(unsafe)`; no benchmark row showed a
    // difference: a `let` of a final class is loaded without a retain either way, and there is
    // no cycle, since slots hold their source weakly).
    private let flush: FlushCoordinator

    init(loop: EventLoop, order: Int, handler: @escaping (LoopEventSource) -> Void) {
        self.loop = loop
        self.order = order
        flush = loop.flush
        slot = flush.makeSlot(order: order, handler: handler)
        slot.source = self
    }

    /// A source whose passes call `target.loopFlushSignalled()` instead of a handler. The slot
    /// holds the target strongly until the source is cancelled (or dropped, which cancels it),
    /// and keeps no weak reference to the source: no side table, no weak load per pass.
    package init(loop: EventLoop, order: Int, target: any LoopFlushTarget) {
        self.loop = loop
        self.order = order
        flush = loop.flush
        slot = flush.makeSlot(order: order, handler: nil, target: target)
    }

    deinit {
        cancel()
    }

    /// Requests one handler call at the end of the current (or next) iteration. Any thread;
    /// wakes a sleeping loop.
    public func signal() {
        flush.signal(slot)
    }

    /// Inside the handler (on the loop thread): how many signals this call merged, at least 1.
    /// Elsewhere: how many signals are waiting for the next delivery.
    public var mergedSignalCount: Int {
        flush.mergedCount(slot)
    }

    /// Stops delivery and releases the handler. Idempotent, any thread.
    public func cancel() {
        flush.cancel(slot)
    }
}
