import Dispatch
import ViewModelKit
import XCTest

/// The code of the "Migrating from CombineViewModel and OpenCombine" article (ViewModelKit.docc),
/// run on `EventLoop.main` (XCTest runs test methods on the main thread).
final class MigrationArticleTests: XCTestCase {
    func testCombineViewModelShapedCodeDrawsOncePerIteration() {
        let view = ClickCounterView()
        XCTAssertEqual(view.labels, ["0"])
        view.tap()
        view.tap()
        view.tap()
        EventLoop.main.runOnce(blocking: false)
        XCTAssertEqual(view.labels, ["0", "3"])
    }

    func testOpenCombineShapedChainsDeliverOnTheLoop() {
        var received: [Int] = []
        let subject = PassthroughSubject<Int, Never>()
        let cancellable = subject.map { $0 * 10 }
            .receive(on: LoopScheduler.main)  // OpenCombine: .receive(on: DispatchQueue.main.ocombine)
            .sink { received.append($0) }
        subject.send(1)
        subject.send(2)
        XCTAssertEqual(received, [])  // delivered by the loop, not synchronously
        EventLoop.main.runOnce(blocking: false)
        XCTAssertEqual(received, [10, 20])
        cancellable.cancel()

        var onQueue: [Int] = []
        let viaQueue = subject.receive(on: DispatchQueue.main)  // DispatchQueue is a Scheduler itself: no .ocombine
            .sink { onQueue.append($0) }
        subject.send(3)
        EventLoop.main.runOnce(blocking: true)  // EventLoop.main drains the main queue
        XCTAssertEqual(onQueue, [3])
        viaQueue.cancel()
    }
}

final class ClickCounter: ObservableObject {
    @Published private(set) var value = 0

    func increment() {
        value += 1
    }
}

final class ClickCounterView: ViewModelObserver {
    @ViewModel private var counter = ClickCounter()
    private(set) var labels: [String] = []

    init() {
        bindViewModels()  // binds and draws once, now
    }

    func updateView() {
        labels.append("\(counter.value)")  // the label's text, one entry per draw
    }

    func tap() {
        counter.increment()
    }
}
