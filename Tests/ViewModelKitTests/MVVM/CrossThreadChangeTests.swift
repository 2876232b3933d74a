import Dispatch
import Foundation
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
/// set (will-change, store, did-change), so that ThreadSanitizer has no data race to report.
/// An update that runs while a set is in progress cannot read, so it draws nothing: only the
/// did-change edge then gets the change drawn, exactly the situation of an update in the gap.
private final class LockedCounterModel: ObservableObject, @unchecked Sendable {
    @Published private var storedCount = 0
    private let lock = NSLock()

    func set(_ value: Int) {
        lock.lock()
        storedCount = value
        lock.unlock()
    }

    /// The count, or nil when a set is in progress on another thread.
    func snapshot() -> Int? {
        guard lock.try() else { return nil }
        defer { lock.unlock() }
        return storedCount
    }
}

private final class LockedLoopObserver: ViewModelObserver {
    @ViewModel var counter = LockedCounterModel()
    var drawn: [Int] = []
    var skipped = 0
    init() { bindViewModels() }
    func updateView() {
        if let value = counter.snapshot() { drawn.append(value) } else { skipped += 1 }
    }
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
    /// data race on the value (the test reads an `Int`, harmless on this platform, but
    /// ThreadSanitizer reports it, rightly), so under ThreadSanitizer this test is skipped and
    /// `testLockedModelSetFromOneThreadIsNeverLostWhileTheLoopRuns` covers the same logic.
    func testPublishedModelSetFromOneThreadEndsDrawnWithTheFinalValue() throws {
        try XCTSkipIf(
            ThreadSanitizerProbe.isActive,
            "deliberate data race on the @Published value; the locked variant runs under TSan")
        for round in 0..<Self.repetitions {
            let observer = PublishedLoopObserver()
            let model = observer.counter
            // `$count` sinks run between the will-change and the store: yielding there widens
            // the gap that this test is about (without it the loop rarely lands inside it).
            let widener = model.$count.sink { _ in sched_yield() }
            let finished = Atomic<Bool>(false)
            let thread = TestThread {
                for i in 1...Self.sets { model.count = i }
                finished.store(true, ordering: .releasing)
            }
            spin { finished.load(ordering: .acquiring) }
            thread.join()
            drain()
            XCTAssertEqual(observer.seen.last, Self.sets, "round \(round): the last update saw \(observer.seen.last ?? -1)")
            XCTAssertEqual(observer.seen.first, 0)
            let updatesAfterward = observer.seen.count
            drain()
            XCTAssertEqual(observer.seen.count, updatesAfterward, "round \(round): nothing more once drawn")
            widener.cancel()
        }
    }

    func testLockedModelSetFromOneThreadIsNeverLostWhileTheLoopRuns() {
        var skippedTotal = 0
        for round in 0..<Self.repetitions {
            let observer = LockedLoopObserver()
            let model = observer.counter
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
            skippedTotal += observer.skipped
        }
        // Not asserted (it depends on timing): how often an update landed inside a set.
        print("CrossThreadChangeTests: \(skippedTotal) updates ran inside a set in \(Self.repetitions) rounds")
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
