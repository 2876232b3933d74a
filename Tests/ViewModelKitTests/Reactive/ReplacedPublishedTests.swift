import Testing
import ViewModelKit

/// A model whose `reset()` replaces its property wrappers, legal Combine code.
private final class Resettable: ObservableObject {
    @Published var count = 0
    func reset() { _count = Published(initialValue: 0) }
}

private final class ResettableOfTwo: ObservableObject {
    @Published var count = 0
    @Published var name = ""
    func reset() { _count = Published(initialValue: 0) }
}

/// Regression: the synthesised `objectWillChange` was once cached per object, and the cache held
/// it `unowned(unsafe)` while only the `@Published` storages owned it. Replacing a wrapper freed
/// it under the cache entry; the next read touched freed memory. (Each read now finds it in the
/// storages.) A replaced wrapper must also be wired again, or its sets would never announce.
@Suite struct ReplacedPublishedTests {
    @Test func objectWillChangeAfterTheOnlyWrapperWasReplaced() {
        let model = Resettable()
        _ = model.objectWillChange  // cached; owned only by the wrapper's storage
        model.reset()  // frees that storage, and with it the publisher
        var announced = 0
        let subscription = model.objectWillChange.sink { announced += 1 }
        model.count = 5
        #expect(announced == 1)
        #expect(model.objectWillChange === model.objectWillChange)
        subscription.cancel()
    }

    @Test func aReplacedWrapperIsWiredToTheSamePublisherAgain() {
        let model = ResettableOfTwo()
        let before = model.objectWillChange
        var announced = 0
        let subscription = before.sink { announced += 1 }
        model.reset()
        // The next read wires the new wrapper to the publisher the other property still holds.
        #expect(model.objectWillChange === before)
        model.count = 1
        model.name = "x"
        #expect(announced == 2)
        subscription.cancel()
    }
}
