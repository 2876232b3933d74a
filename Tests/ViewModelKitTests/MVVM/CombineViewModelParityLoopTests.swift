import Foundation
import LoopSchedulerFoundation
import LoopTestSupport
import XCTest

@testable import ViewModelKit

// CombineViewModel parity on the real main loop and on RunLoop. XCTest runs these on
// the main thread, which EventLoop.main and DispatchQueue.main need.

private final class LoopController: ViewModelObserver {
    var observations: [Int] = []
    @ViewModel var viewModel: CounterModel

    init() {
        self.viewModel = CounterModel()
    }

    func updateView() { observations.append(viewModel.count) }
}

// CombineViewModel's example app, in shape: a `Task` value type, a task list view model with
// `@Published private(set) var tasks`, a view controller subclass (UIKit's are @MainActor) that
// assigns its @ViewModel after super.init and diffs the old list against the new one in
// updateView(), on the main loop.

private struct Task: Hashable, Codable {
    var id: UUID
    var title: String
}

@MainActor
private final class TaskList: ObservableObject {
    @Published private(set) var tasks: [Task]

    init(tasks: [Task] = []) {
        self.tasks = tasks
    }

    @discardableResult
    func appendNew(title: String) -> Task {
        let task = Task(id: UUID(), title: title)
        tasks.append(task)
        return task
    }

    @discardableResult
    func delete(at index: Int) -> Task {
        tasks.remove(at: index)
    }

    func move(from source: Int, to destination: Int) {
        tasks.insert(tasks.remove(at: source), at: destination)
    }
}

@MainActor
private class ViewController {
    var isViewLoaded = true
    init() {}
}

@MainActor
private final class TasksViewController: ViewController, ViewModelObserver {
    @ViewModel private var taskList: TaskList
    var subscriptions: Set<AnyCancellable> = []
    private var shown: [Task] = []
    var diffs: [[String]] = []

    init(tasks: [Task]) {
        super.init()
        taskList = TaskList(tasks: tasks)
    }

    func updateView() {
        let changes = taskList.tasks.difference(from: shown).inferringMoves()
        diffs.append(
            changes.map { change in
                switch change {
                case .insert(let offset, let task, let moved):
                    return moved == nil ? "+\(task.title)@\(offset)" : "~\(task.title)@\(offset)"
                case .remove(let offset, let task, let moved):
                    return moved == nil ? "-\(task.title)@\(offset)" : "^\(task.title)@\(offset)"
                }
            })
        shown = taskList.tasks
    }

    func add(_ title: String) { taskList.appendNew(title: title) }
    func delete(at index: Int) { taskList.delete(at: index) }
    func move(from source: Int, to destination: Int) { taskList.move(from: source, to: destination) }
}

final class CombineViewModelParityLoopTests: XCTestCase {
    private var loop: EventLoop { EventLoop.main }

    func testAssignmentInInitOnTheMainLoopThenOneUpdateForFiveChanges() {
        let controller = LoopController()
        XCTAssertEqual(controller.observations, [0])
        for _ in 1...5 { controller.viewModel.count += 1 }
        loop.runOnce(blocking: false)
        XCTAssertEqual(controller.observations, [0, 5])
        for _ in 0..<3 { loop.runOnce(blocking: false) }
        XCTAssertEqual(controller.observations, [0, 5])
    }

    func testExampleAppShapedControllerDiffsAppendDeleteAndMoveOncePerIteration() {
        MainActor.assumeIsolated {
            let initial = [Task(id: UUID(), title: "a"), Task(id: UUID(), title: "b")]
            let controller = TasksViewController(tasks: initial)
            XCTAssertEqual(controller.diffs, [["+a@0", "+b@1"]])  // drawn in init
            controller.add("c")
            controller.delete(at: 0)
            EventLoop.main.runOnce(blocking: false)
            XCTAssertEqual(controller.diffs, [["+a@0", "+b@1"], ["-a@0", "+c@1"]])
            controller.move(from: 1, to: 0)
            EventLoop.main.runOnce(blocking: false)
            XCTAssertEqual(controller.diffs.count, 3)
            XCTAssertEqual(Set(controller.diffs[2]), ["^b@0", "~b@1"])  // [b, c] -> [c, b]: one move, associated
            for _ in 0..<3 { EventLoop.main.runOnce(blocking: false) }
            XCTAssertEqual(controller.diffs.count, 3)
            XCTAssertTrue(controller.subscriptions.isEmpty)
        }
    }

    func testRunLoopMainRunsActionsInOrderOnTheMainLoop() {
        var log: [String] = []
        RunLoop.main.schedule { log.append("a") }
        RunLoop.main.schedule { log.append("b") }
        RunLoop.main.schedule(after: RunLoop.main.now.advanced(by: .milliseconds(5))) { log.append("later") }
        XCTAssertEqual(log, [])
        let guardTimer = loop.scheduleTimer(after: .seconds(5)) { log.append("timeout") }
        while log.count < 3 { loop.runOnce(blocking: true) }
        guardTimer.cancel()
        XCTAssertEqual(log, ["a", "b", "later"])
    }

    func testRunLoopMainEventSourceCoalescesIntoOneMainLoopIteration() {
        var counts: [Int] = []
        let source = RunLoop.main.scheduleEventSource { counts.append($0.eventCount) }
        for _ in 0..<4 { source.signal() }
        loop.runOnce(blocking: false)
        XCTAssertEqual(counts, [4])
        source.signal()
        source.cancel()
        loop.runOnce(blocking: false)
        XCTAssertEqual(counts, [4])
    }

    func testAnotherThreadsRunLoopServicesItsSourcesOnThatThread() {
        let done = DispatchSemaphore(value: 0)
        let record = Shared<(total: Int, offThread: Int, runLoop: RunLoop?)>((0, 0, nil))
        let ready = DispatchSemaphore(value: 0)
        let stop = Shared(false)
        let thread = Thread {
            record.value.runLoop = RunLoop.current
            ready.signal()
            while !stop.value {
                _ = RunLoop.current.run(mode: .default, before: Date(timeIntervalSinceNow: 0.05))
            }
        }
        thread.start()
        ready.wait()
        let runLoop = record.value.runLoop!
        let source = runLoop.scheduleEventSource { source in
            let count = source.eventCount
            record.value.total += count
            if Thread.isMainThread { record.value.offThread += 1 }
            if record.value.total == 3 { done.signal() }
        }
        for _ in 0..<3 { source.signal() }
        XCTAssertEqual(done.wait(timeout: .now() + 5), .success)
        XCTAssertEqual(record.value.total, 3)  // every signal counted once, however merged
        XCTAssertEqual(record.value.offThread, 0)  // never on the main thread
        source.cancel()
        stop.value = true
    }
}
