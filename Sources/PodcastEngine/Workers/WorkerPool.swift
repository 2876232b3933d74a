import Foundation
import LoopScheduler
import Synchronization

/// A fixed set of threads, by default one per core (`activeProcessorCount`), taking jobs in FIFO
/// order, with their notifications and results delivered back to one loop (`EventLoop.execute`).
/// The `OffLoopExecutor` of `podcast-watch run`: feeds are parsed and local files read here, so
/// the loop thread only multiplexes.
///
/// A job that is slow keeps its thread until it ends (work cannot be interrupted); the others
/// go on on the remaining threads, and the loop is never blocked. Threads are not joined: they
/// wait for work while the pool lives and end once it is released and its queue is empty.
///
/// Thread rules: `submit` and the tokens' `cancel` on the delivering loop's thread.
public final class WorkerPool: OffLoopExecutor, @unchecked Sendable {
    /// How the pool gets a closure onto the loop thread; any thread calls it.
    public typealias Deliver = @Sendable (@escaping @Sendable () -> Void) -> Void

    /// The number of worker threads.
    public let threadCount: Int
    private let deliver: Deliver
    private let state = State()

    /// A pool of `threads` workers (at least 1; default one per core) delivering to `loop`.
    public convenience init(loop: EventLoop, threads: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.init(threads: threads, deliver: { [loop] work in loop.execute(work) })
    }

    /// A pool of `threads` workers (at least 1) delivering with `deliver`, which must run its
    /// argument on the loop thread the callers of `submit` use.
    public init(threads: Int, deliver: @escaping Deliver) {
        threadCount = max(1, threads)
        self.deliver = deliver
        for index in 0..<threadCount {
            // The threads hold the queue, not the pool, so releasing the pool ends them.
            let thread = Thread { [state] in state.serve() }
            thread.name = "pw-worker-\(index + 1)"
            thread.start()
        }
    }

    deinit {
        state.close()
    }

    /// Queues `work` for the next free worker; `started` and `completion` run on the loop thread
    /// (see `OffLoopExecutor`). Loop thread.
    public func submit<T: Sendable>(
        _ work: @escaping @Sendable () -> T, started: @escaping () -> Void, completion: @escaping (T) -> Void
    ) -> Cancellable {
        let job = Job()
        let callbacks = LoopOnly((started, completion))
        let deliver = self.deliver
        let run: @Sendable () -> Void = {
            guard !job.isCancelled else { return }
            deliver {
                guard !job.isCancelled else { return }
                callbacks.value.0()
            }
            let result = work()
            deliver {
                guard !job.isCancelled else { return }
                callbacks.value.1(result)
            }
        }
        state.push(run)
        return job
    }

    /// Jobs queued and not yet taken by a worker.
    public var queuedCount: Int { state.queuedCount }

    // The queue the workers share, guarded by its condition.
    private final class State: @unchecked Sendable {
        private let condition = NSCondition()
        private var queue: [@Sendable () -> Void] = []
        private var head = 0
        private var closed = false

        func push(_ job: @escaping @Sendable () -> Void) {
            condition.lock()
            queue.append(job)
            condition.signal()
            condition.unlock()
        }

        var queuedCount: Int {
            condition.lock()
            defer { condition.unlock() }
            return queue.count - head
        }

        func close() {
            condition.lock()
            closed = true
            condition.broadcast()
            condition.unlock()
        }

        // A worker's life: take the next job and run it outside the lock, until closed and drained.
        func serve() {
            while let job = next() { job() }
        }

        private func next() -> (@Sendable () -> Void)? {
            condition.lock()
            defer { condition.unlock() }
            while head == queue.count {
                if closed { return nil }
                condition.wait()
            }
            let job = queue[head]
            head += 1
            if head >= 64 && head * 2 >= queue.count {  // drop the consumed prefix now and then
                queue.removeFirst(head)
                head = 0
            }
            return job
        }
    }

    // A job's cancellation flag, and the token `submit` returns (dropping it cancels nothing).
    private final class Job: Cancellable, Sendable {
        private let cancelled = Atomic(false)
        var isCancelled: Bool { cancelled.load(ordering: .acquiring) }
        func cancel() { cancelled.store(true, ordering: .releasing) }
    }
}

/// A value only ever touched on the loop thread, carried through a worker as an opaque box.
private final class LoopOnly<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
