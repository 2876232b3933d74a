import Testing

@testable import LoopScheduler

/// `AnyCancellable`, as Combine's: cancels once, on the first `cancel()` or on deinit, whatever
/// it wraps (a closure, a class cancellable stored as a reference, a struct cancellable).
@Suite struct AnyCancellableTests {
    final class Counter: @unchecked Sendable {
        var count = 0
    }

    final class ClassCancellable: Cancellable {
        let counter: Counter
        init(_ counter: Counter) { self.counter = counter }
        func cancel() { counter.count += 1 }
    }

    struct StructCancellable: Cancellable {
        let counter: Counter
        func cancel() { counter.count += 1 }
    }

    @Test func closureRunsOnceAcrossCancelAndDeinit() {
        let counter = Counter()
        do {
            let token = AnyCancellable { counter.count += 1 }
            token.cancel()
            token.cancel()
            #expect(counter.count == 1)
        }
        #expect(counter.count == 1)
    }

    @Test func deinitCancelsWhenNeverCancelled() {
        let counter = Counter()
        do { _ = AnyCancellable(ClassCancellable(counter)) }
        do { _ = AnyCancellable(StructCancellable(counter: counter)) }
        #expect(counter.count == 2)
    }

    @Test func wrappedCancellablesCancelOnce() {
        let counter = Counter()
        let a = AnyCancellable(ClassCancellable(counter))
        let b = AnyCancellable(StructCancellable(counter: counter))
        a.cancel()
        a.cancel()
        b.cancel()
        b.cancel()
        #expect(counter.count == 2)
    }

    @Test func concurrentCancelsRunTheActionOnce() async {
        for _ in 0..<200 {
            let counter = Counter()
            let lock = Lock()
            let token = AnyCancellable { lock.withLock { counter.count += 1 } }
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<4 { group.addTask { token.cancel() } }
            }
            #expect(lock.withLock { counter.count } == 1)
        }
    }

    @Test func storeKeepsTokensAlive() {
        let counter = Counter()
        var set = Set<AnyCancellable>()
        var array: [AnyCancellable] = []
        AnyCancellable { counter.count += 1 }.store(in: &set)
        AnyCancellable { counter.count += 1 }.store(in: &array)
        #expect(counter.count == 0)
        set.removeAll()
        array.removeAll()
        #expect(counter.count == 2)
    }
}
