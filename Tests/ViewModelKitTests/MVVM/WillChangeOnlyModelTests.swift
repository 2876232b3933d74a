import Testing
import ViewModelKitSchedulers

@testable import ViewModelKit

/// A view model that only announces its changes: no `@Published`, so its observer sees the
/// will-change edge alone (no did-change edge masks a lost signal).
private final class WillChangeOnlyModel: ObservableObject, @unchecked Sendable {
    let objectWillChange = ObservableObjectPublisher()
    var value = 0 {
        willSet { objectWillChange.send() }
    }

    init(_ value: Int = 0) {
        self.value = value
    }
}

private final class WillChangeOnlyObserver: ViewModelObserver {
    let updateScheduler: TestScheduler
    @ViewModel var model: WillChangeOnlyModel
    var seen: [Int] = []

    init(_ model: WillChangeOnlyModel, scheduler: TestScheduler) {
        updateScheduler = scheduler
        self.model = model
    }

    nonisolated func updateView() {
        seen.append(model.value)
    }
}

/// Coalescing for models that send `objectWillChange` and nothing else.
@Suite struct WillChangeOnlyModelTests {
    /// The promise: a change made after a synchronous rebind, while a flush is already pending,
    /// is drawn by that flush. The rebind's synchronous update clears the pending change; the
    /// next will-change must mark the observer dirty again even though its event source is
    /// still signalled (a will-change shortcut that skipped it left the view at `[0, 0]`).
    @Test func aChangeAfterASynchronousRebindIsDrawnByTheFlushAlreadyPending() {
        let scheduler = TestScheduler()
        let first = WillChangeOnlyModel()
        let observer = WillChangeOnlyObserver(first, scheduler: scheduler)
        #expect(observer.seen == [0])
        first.value = 5  // signals the observer's source: a flush is pending
        let second = WillChangeOnlyModel()
        observer.model = second  // the rebind draws synchronously, with the new model
        #expect(observer.seen == [0, 0])
        second.value = 1  // the flush is still pending; this change must ride on it
        scheduler.advance()
        #expect(observer.seen == [0, 0, 1])
        scheduler.advance()
        #expect(observer.seen == [0, 0, 1])  // one update, not two
        second.value = 2
        scheduler.advance()
        #expect(observer.seen == [0, 0, 1, 2])
    }
}
