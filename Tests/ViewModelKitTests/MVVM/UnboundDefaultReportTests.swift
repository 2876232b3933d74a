import Testing
import ViewModelKitSchedulers

@testable import ViewModelKit

// The declaration lines below are part of the expectations (the report names `File:line`).
/// Default values only, and nothing in init reaches the observer: the mistake the report is for.
private final class ForgottenView: ViewModelObserver {
    let updateScheduler: TestScheduler
    @ViewModel var counter = CounterModel()  // line 10
    var frames: [Int] = []
    init(scheduler: TestScheduler) { updateScheduler = scheduler }
    nonisolated func updateView() { frames.append(counter.count) }
}

/// The same, bound by `bindViewModels()`: never reported.
private final class BoundView: ViewModelObserver {
    let updateScheduler: TestScheduler
    @ViewModel var counter = CounterModel()  // line 19
    var frames: [Int] = []
    init(scheduler: TestScheduler) {
        updateScheduler = scheduler
        bindViewModels()
    }
    nonisolated func updateView() { frames.append(counter.count) }
}

/// A collection default, forgotten.
private final class ForgottenListView: ViewModelObserver {
    let updateScheduler: TestScheduler
    @ViewModels var items = [CounterModel(), CounterModel()]  // line 31
    init(scheduler: TestScheduler) { updateScheduler = scheduler }
    nonisolated func updateView() {}
}

/// A default bound by the first read: changes before the read are reported, those after are not.
private final class ReadLaterView: ViewModelObserver {
    let updateScheduler: TestScheduler
    @ViewModel var counter = CounterModel()  // line 39
    var frames: [Int] = []
    init(scheduler: TestScheduler) { updateScheduler = scheduler }
    nonisolated func updateView() { frames.append(counter.count) }
}

@Suite struct UnboundDefaultReportTests {
    private let file = "ViewModelKitTests/UnboundDefaultReportTests.swift"

    @Test func aChangeOfAForgottenDefaultIsReportedOnceWithItsDeclaration() throws {
        let scheduler = TestScheduler()
        let view = ForgottenView(scheduler: scheduler)
        let site = "\(file):10"
        #expect(UnboundDefaultWatch.report(for: site) == nil)
        let mirror = Mirror(reflecting: view).children.first { $0.label == "_counter" }
        let storage = try #require(mirror?.value as? ViewModel<CounterModel>).storage
        // Changed by others only (reached without going through the observer, which would bind).
        storage.model?.count = 1
        let report = try #require(UnboundDefaultWatch.report(for: site))
        #expect(
            report
                == "ViewModelKit: the default value of @ViewModel CounterModel declared at \(site) "
                + "changed before its observer was bound, so the observer is not drawn: call "
                + "bindViewModels() at the end of the observer's init, or assign the property there")
        storage.model?.count = 2
        #expect(UnboundDefaultWatch.report(for: site) == report)
        #expect(view.frames == [])
        scheduler.advance()
        #expect(view.frames == [])
    }

    @Test func aBoundDefaultIsNeverReported() {
        let scheduler = TestScheduler()
        let view = BoundView(scheduler: scheduler)
        view.counter.count = 3
        scheduler.advance()
        #expect(view.frames == [0, 3])
        #expect(UnboundDefaultWatch.report(for: "\(file):19") == nil)
    }

    @Test func aCollectionDefaultIsReportedToo() throws {
        let scheduler = TestScheduler()
        let view = ForgottenListView(scheduler: scheduler)
        let mirror = Mirror(reflecting: view).children.first { $0.label == "_items" }
        let storage = try #require(mirror?.value as? ViewModels<CounterModel>).storage
        storage.models[1].count = 1
        let report = try #require(UnboundDefaultWatch.report(for: "\(file):31"))
        #expect(report.hasPrefix("ViewModelKit: the default value of @ViewModels [CounterModel] declared at"))
    }

    @Test func theFirstReadEndsTheWatch() throws {
        let scheduler = TestScheduler()
        let view = ReadLaterView(scheduler: scheduler)
        _ = view.counter  // binds, draws once
        #expect(view.frames == [0])
        view.counter.count = 4
        scheduler.advance()
        #expect(view.frames == [0, 4])
        #expect(UnboundDefaultWatch.report(for: "\(file):39") == nil)
    }
}
