// thoughtbot/CombineViewModel's Tests/CombineViewModelTests/ViewModelTests.swift, ported with
// only mechanical changes: imports, and `CFRunLoopRunInMode(.defaultMode, 0, true)`
// becomes `EventLoop.main.runOnce(blocking: false)`. Its UIKit-only test
// (testViewModelObservedOnViewDidLoad) is left out: there is no UIKit on Linux. Our own tests of
// this behaviour are in MVVM/CombineViewModelParityTests.swift.
import ViewModelKit
import XCTest

private final class TestViewModel: ObservableObject {
    @Published var counter = 0
}

private final class Controller: ViewModelObserver {
    var observations: [Int] = []
    @ViewModel var viewModel: TestViewModel

    init() {
        self.viewModel = TestViewModel()
    }

    func updateView() {
        observations.append(viewModel.counter)
    }
}

final class ViewModelTests: XCTestCase {
    func testViewModel() {
        let controller = Controller()
        XCTAssertEqual(controller.observations, [0])
        for _ in 1...5 {
            controller.viewModel.counter += 1
        }
        EventLoop.main.runOnce(blocking: false)
        XCTAssertEqual(controller.observations, [0, 5])
    }
}
