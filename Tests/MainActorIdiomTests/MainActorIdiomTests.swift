import Foundation
import ViewModelKit
import ViewModelKitSchedulers
import XCTest

// The Swift 6 idiom, written as a user writes it: `@MainActor` view models
// and `@MainActor` views, no isolated conformance, Swift 6 language mode (complete strict
// concurrency), plain `import ViewModelKit`. This target must build without a warning.
// XCTest runs these on the main thread, which EventLoop.main, DispatchQueue.main and the main
// actor need; each test drives the main loop itself with `EventLoop.main.runOnce`. (XCTest on
// Linux cannot run a `@MainActor` test class or method, so each test enters the main actor with
// `MainActor.assumeIsolated`, which also checks that it is on the main thread.)

/// A view model on the main actor, with an `async` refresh that sets two properties.
@MainActor
final class ProfileModel: ObservableObject {
    @Published var name = ""
    @Published var followers = 0
    private let fetch: @MainActor () async -> (String, Int)

    init(fetch: @escaping @MainActor () async -> (String, Int) = { ("", 0) }) {
        self.fetch = fetch
    }

    /// Awaits the fetch, then sets both properties.
    func refresh() async {
        let (name, followers) = await fetch()
        self.name = name
        self.followers = followers
    }
}

/// A view on the main actor, on the main loop (the default `updateScheduler`).
@MainActor
final class ProfileView: ViewModelObserver {
    @ViewModel var profile: ProfileModel
    private(set) var frames: [String] = []

    init(profile: ProfileModel) {
        self.profile = profile
    }

    func updateView() {
        frames.append("\(profile.name):\(profile.followers)")
    }
}

/// The same view on a virtual clock.
@MainActor
final class TestProfileView: ViewModelObserver {
    let updateScheduler: TestScheduler
    @ViewModel var profile: ProfileModel
    private(set) var frames: [String] = []

    init(profile: ProfileModel, scheduler: TestScheduler) {
        updateScheduler = scheduler
        self.profile = profile
    }

    func updateView() {
        frames.append("\(profile.name):\(profile.followers)")
    }
}

/// A label on the main actor, as a binding target.
@MainActor
final class Label: BindingOwner {
    var subscriptions = Set<AnyCancellable>()
    var text = ""
    var sets = 0
    func show(_ newText: String) {
        sets += 1
        text = newText
    }
}

extension Reactive where Base: Label {
    @MainActor var shown: BindingSink<Base, String> {
        BindingSink(owner: base) { label, value in label.show(value) }
    }
}

/// A model that is not isolated, changed from another thread.
final class TickModel: ObservableObject, @unchecked Sendable {
    let objectWillChange = ObservableObjectPublisher()
    private let lock = NSLock()
    private var storedTicks = 0
    var ticks: Int { lock.withLock { storedTicks } }
    func tick() {
        lock.withLock { storedTicks += 1 }  // store first, then announce (thread-safe model)
        objectWillChange.send()
    }
}

/// A `@MainActor` view of a non-isolated model.
@MainActor
final class TickView: ViewModelObserver {
    @ViewModel var model: TickModel
    private(set) var seen: [Int] = []
    init(model: TickModel) { self.model = model }
    func updateView() { seen.append(model.ticks) }
}

/// The main loop, driven by hand.
@MainActor
private enum MainLoop {
    static var loop: EventLoop { EventLoop.main }

    /// Runs blocking iterations until `done()` (a 5 s guard timer ends a hang as a failure).
    static func run(until done: () -> Bool) {
        var timedOut = false
        let guardTimer = loop.scheduleTimer(after: .seconds(5)) { timedOut = true }
        while !done() && !timedOut { loop.runOnce(blocking: true) }
        guardTimer.cancel()
        XCTAssertFalse(timedOut, "timed out")
    }

    /// Non-blocking iterations, to show that nothing more is pending.
    static func drain() {
        for _ in 0..<3 { loop.runOnce(blocking: false) }
    }
}

final class MainActorIdiomTests: XCTestCase {

    func testAssignmentInInitDrawsOnceAndBindsAMainActorModel() {
        MainActor.assumeIsolated {
            let profile = ProfileModel()
            let view = ProfileView(profile: profile)
            XCTAssertEqual(view.frames, [":0"])  // drawn in init
            profile.name = "ada"
            profile.followers = 1
            XCTAssertEqual(view.frames, [":0"])  // not before the iteration ends
            MainLoop.loop.runOnce(blocking: false)
            XCTAssertEqual(view.frames, [":0", "ada:1"])
            MainLoop.drain()
            XCTAssertEqual(view.frames, [":0", "ada:1"])
        }
    }

    func testTwoSetsInAMainActorTaskGiveOneUpdateOnTheLoop() {
        MainActor.assumeIsolated {
            let profile = ProfileModel()
            let view = ProfileView(profile: profile)
            var done = false
            Task { @MainActor in
                profile.name = "grace"
                profile.followers = 2
                done = true
            }
            MainLoop.run { done }
            MainLoop.drain()
            XCTAssertEqual(view.frames, [":0", "grace:2"])
        }
    }

    func testAsyncRefreshThatSuspendsGivesOneUpdateForItsTwoSets() {
        MainActor.assumeIsolated {
            // The fetch really suspends: it resumes from a loop timer 10 ms later.
            let profile = ProfileModel(fetch: {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    LoopScheduler.main.schedule(after: LoopScheduler.main.now.advanced(by: .milliseconds(10))) {
                        continuation.resume()
                    }
                }
                return ("linus", 30)
            })
            let view = ProfileView(profile: profile)
            var done = false
            Task { @MainActor in
                await profile.refresh()
                done = true
            }
            MainLoop.run { done }
            MainLoop.drain()
            XCTAssertEqual(view.frames, [":0", "linus:30"])
        }
    }

    func testAsyncRefreshOnTheTestSchedulerGivesOneUpdateAtTheNextAdvance() {
        MainActor.assumeIsolated {
            let scheduler = TestScheduler()
            let profile = ProfileModel(fetch: {
                await Task.yield()
                return ("ken", 5)
            })
            let view = TestProfileView(profile: profile, scheduler: scheduler)
            XCTAssertEqual(view.frames, [":0"])
            var done = false
            Task { @MainActor in
                await profile.refresh()
                done = true
            }
            MainLoop.run { done }  // the main actor's jobs run on the loop
            XCTAssertEqual(view.frames, [":0"])  // the virtual clock has not moved
            scheduler.advance()
            XCTAssertEqual(view.frames, [":0", "ken:5"])
            scheduler.advance()
            XCTAssertEqual(view.frames, [":0", "ken:5"])
        }
    }

    func testObserveOnAndObjectDidChangeWithAMainActorModel() {
        MainActor.assumeIsolated {
            let profile = ProfileModel()
            var names: [String] = []
            var followers: [Int] = []
            let byName = profile.observe(on: LoopScheduler.main).sink { names.append($0.name) }
            let byCount = profile.objectDidChange.sink { followers.append($0.followers) }
            XCTAssertEqual(names, [""])  // the current object, at once
            XCTAssertEqual(followers, [0])
            profile.name = "a"
            profile.name = "b"
            profile.followers = 9
            MainLoop.loop.runOnce(blocking: false)
            MainLoop.drain()
            XCTAssertEqual(names, ["", "b"])
            XCTAssertEqual(followers, [0, 9])
            byName.cancel()
            byCount.cancel()
        }
    }

    func testBindingsWithMainActorModelAndOwner() {
        MainActor.assumeIsolated {
            let profile = ProfileModel()
            let label = Label()
            label.reactive.shown <~ profile.$name
            XCTAssertEqual(label.text, "")
            profile.name = "barbara"
            XCTAssertEqual(label.text, "barbara")
            profile.$followers.map { "\($0) followers" } ~> label.reactive.shown
            XCTAssertEqual(label.text, "0 followers")
            profile.followers = 3
            XCTAssertEqual(label.text, "3 followers")
            XCTAssertEqual(label.sets, 4)
        }
    }

    func testNonIsolatedModelChangedFromAnotherThreadGivesOneUpdatePerIterationWithTheLastValue() {
        MainActor.assumeIsolated {
            let model = TickModel()
            let view = TickView(model: model)
            XCTAssertEqual(view.seen, [0])
            let flushesBefore = MainLoop.loop.completedFlushCount
            let worker = Thread {
                for _ in 0..<1_000 { model.tick() }
            }
            worker.start()
            MainLoop.run { view.seen.last == 1_000 }
            MainLoop.drain()
            let flushes = MainLoop.loop.completedFlushCount - flushesBefore
            XCTAssertEqual(view.seen.last, 1_000)  // the last update saw the last value
            XCTAssertEqual(view.seen, view.seen.sorted())  // in order
            // At most one update per flush (a value may be drawn twice: the model stores before
            // it announces, so an update can see a store whose announcement comes after it).
            XCTAssertLessThanOrEqual(view.seen.count - 1, flushes)
        }
    }
}
