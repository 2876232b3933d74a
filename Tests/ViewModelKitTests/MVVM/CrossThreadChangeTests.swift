import Dispatch
import Foundation
import LoopTestSupport
import Synchronization
import XCTest

@testable import ViewModelKit

// A `@Published` model set by one background thread while the main loop runs on the main thread
// (XCTest runs test methods there). `@Published` announces before it stores, so a flush can run
// in between and draw the old value; the store's did-change edge must then give one more update.
// Each test body runs 20 times: the interleavings differ from run to run, the outcome must not.

/// An observer of a plain `@Published` model on the main loop, recording what each update saw.
private final class PublishedLoopObserver: ViewModelObserver {
    @ViewModel var counter = CounterModel()
    var seen: [Int] = []
    init() { bindViewModels() }
    func updateView() { seen.append(counter.count) }
}

/// A model whose sets and reads are serialised by a lock held around the whole `@Published`
/// set, so that ThreadSanitizer has no data race on the value to report. An update that starts
/// in the middle of a set waits for it, so this variant cannot draw stale values and does not
/// pin the did-change edge (the deterministic `DidChangeEdgeTests` and the plain test above do);
/// it runs the same cross-thread machinery where ThreadSanitizer can watch it.
private final class LockedCounterModel: ObservableObject, @unchecked Sendable {
    @Published private var storedCount = 0
    private let lock = NSLock()

    func set(_ value: Int) {
        lock.lock()
        storedCount = value
        lock.unlock()
    }

    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return storedCount
    }
}

private final class LockedLoopObserver: ViewModelObserver {
    @ViewModel var counter = LockedCounterModel()
    var drawn: [Int] = []
    init() { bindViewModels() }
    func updateView() { drawn.append(counter.count) }
}

final class CrossThreadChangeTests: XCTestCase {
    private var loop: EventLoop { EventLoop.main }
    private static let sets = 1_000
    private static let repetitions = 20

    private func drain(_ iterations: Int = 3) {
        for _ in 0..<iterations { loop.runOnce(blocking: false) }
    }

    /// Runs loop iterations (non-blocking, so the loop keeps racing the thread) until `done`.
    private func spin(until done: () -> Bool) {
        let deadline = Date().addingTimeInterval(60)  // a safety net only, never reached normally
        while !done() && Date() < deadline { loop.runOnce(blocking: false) }
        XCTAssertTrue(done(), "timed out")
    }

    override func setUp() {
        super.setUp()
        drain()
    }

    /// The scenario as users write it. Reading the property while another thread sets it is a
    /// data race on the value (an `Int` here, harmless on this platform, but ThreadSanitizer is
    /// entitled to report it, whenever it happens to see the two accesses unordered), so under
    /// ThreadSanitizer this test is skipped, with a message; the locked variant runs the same
    /// machinery there, and `DidChangeEdgeTests` pin the logic deterministically.
    func testPublishedModelSetFromOneThreadEndsDrawnWithTheFinalValue() throws {
        try XCTSkipIf(
            ThreadSanitizerProbe.isActive,
            "deliberate data race on the @Published value (TSan may report it); the locked variant and DidChangeEdgeTests run under TSan"
        )
        for round in 0..<Self.repetitions {
            let observer = PublishedLoopObserver()
            let model = observer.counter
            let flushesBefore = loop.completedFlushCount
            // `$count` sinks run between the will-change and the store: yielding there (on every
            // tenth set, the last one included) widens the gap that this test is about; without
            // it the loop rarely lands inside it.
            let widener = model.$count.sink { value in
                if value % 10 == 0 { sched_yield() }
            }
            let finished = Atomic<Bool>(false)
            let thread = TestThread {
                for i in 1...Self.sets { model.count = i }
                finished.store(true, ordering: .releasing)
            }
            spin { finished.load(ordering: .acquiring) }
            thread.join()
            drain()
            XCTAssertEqual(
                observer.seen.last, Self.sets, "round \(round): the last update saw \(observer.seen.last ?? -1)")
            XCTAssertEqual(observer.seen.first, 0)
            // Once per flush pass at most (guarantee 1), the extra did-change updates included.
            XCTAssertLessThanOrEqual(observer.seen.count - 1, loop.completedFlushCount - flushesBefore)
            let updatesAfterward = observer.seen.count
            drain()
            XCTAssertEqual(observer.seen.count, updatesAfterward, "round \(round): nothing more once drawn")
            widener.cancel()
        }
    }

    func testLockedModelSetFromOneThreadEndsDrawnWithTheFinalValue() {
        for round in 0..<Self.repetitions {
            let observer = LockedLoopObserver()
            let model = observer.counter
            let flushesBefore = loop.completedFlushCount
            let finished = Atomic<Bool>(false)
            let thread = TestThread {
                for i in 1...Self.sets { model.set(i) }
                finished.store(true, ordering: .releasing)
            }
            spin { finished.load(ordering: .acquiring) }
            thread.join()
            drain()
            XCTAssertEqual(observer.drawn.last, Self.sets, "round \(round)")
            XCTAssertEqual(observer.drawn, observer.drawn.sorted(), "round \(round): drawn in order")
            XCTAssertLessThanOrEqual(observer.drawn.count - 1, loop.completedFlushCount - flushesBefore)
        }
    }
}

/// Whether this process runs under ThreadSanitizer (its runtime exports `__tsan_init`).
enum ThreadSanitizerProbe {
    static let isActive: Bool = {
        guard let handle = dlopen(nil, RTLD_NOW) else { return false }
        defer { dlclose(handle) }
        return dlsym(handle, "__tsan_init") != nil
    }()
}
