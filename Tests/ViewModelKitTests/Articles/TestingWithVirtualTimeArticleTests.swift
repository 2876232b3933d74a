import Testing
import ViewModelKit
import ViewModelKitSchedulers

/// The code of the "Testing with virtual time" article (ViewModelKit.docc), run: `make docs`
/// checks that the article's blocks appear here line for line.
@Suite struct TestingWithVirtualTimeArticleTests {
    @Test func changesCoalesceIntoOneDrawPerAdvance() {
        let view = StepCounterView()
        #expect(view.drawn == [0])  // bindViewModels() drew once, synchronously
        view.counter.steps += 1
        view.counter.steps += 1
        view.counter.steps += 1
        #expect(view.drawn == [0])  // nothing runs until the test advances the clock
        view.updateScheduler.advance()
        #expect(view.drawn == [0, 3])  // three changes, one draw
        view.updateScheduler.advance()
        #expect(view.drawn == [0, 3])  // no change, no draw
    }

    @Test func aTimerOnTheVirtualClockDrawsOncePerTick() {
        let scheduler = TestScheduler()
        let view = StopwatchView(scheduler: scheduler)
        view.stopwatch.start(on: scheduler.eraseToAnyScheduler())

        scheduler.advance(by: .milliseconds(2500))
        #expect(view.drawn == ["0 s", "1 s", "2 s"])  // one draw per tick, two changes each
        #expect(scheduler.now == MonotonicInstant(nanoseconds: 2_500_000_000))
        scheduler.advance(by: .milliseconds(500))
        #expect(view.drawn == ["0 s", "1 s", "2 s", "3 s"])
    }

    @Test func debounceWaitsForAQuietPeriodOfVirtualTime() {
        let scheduler = TestScheduler()
        var searches: [String] = []
        let model = SearchViewModel(scheduler: scheduler.eraseToAnyScheduler()) { query in
            searches.append(query)
            return [query.uppercased()]
        }

        model.query = "l"
        scheduler.advance(by: .milliseconds(100))
        model.query = "lo"
        scheduler.advance(by: .milliseconds(100))
        model.query = "loop"
        scheduler.advance(by: .milliseconds(299))
        #expect(searches == [])  // still typing: 299 ms of quiet
        scheduler.advance(by: .milliseconds(1))
        #expect(searches == ["loop"])  // one search, for the last query
        #expect(model.results == ["LOOP"])
    }
}

final class StepCounter: ObservableObject {
    @Published var steps = 0
}

final class StepCounterView: ViewModelObserver {
    let updateScheduler = TestScheduler()
    @ViewModel var counter = StepCounter()
    private(set) var drawn: [Int] = []

    init() {
        bindViewModels()  // the first draw, now
    }

    func updateView() {
        drawn.append(counter.steps)
    }
}

final class Stopwatch: ObservableObject {
    @Published private(set) var seconds = 0
    @Published private(set) var display = "0 s"
    private var ticking: Cancellable?

    func start(on scheduler: AnySchedulerOf<LoopScheduler>) {
        ticking = scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1)), interval: .seconds(1)) {
            [weak self] in
            guard let self else { return }
            seconds += 1  // two changes per tick...
            display = "\(seconds) s"
        }
    }
}

final class StopwatchView: ViewModelObserver {
    let updateScheduler: TestScheduler
    @ViewModel var stopwatch = Stopwatch()
    private(set) var drawn: [String] = []

    init(scheduler: TestScheduler) {
        updateScheduler = scheduler  // read when the first @ViewModel binds
        bindViewModels()
    }

    func updateView() {
        drawn.append(stopwatch.display)  // ...one draw
    }
}

final class SearchViewModel: ObservableObject {
    @Published var query = ""
    @Published private(set) var results: [String] = []
    private var searching: AnyCancellable?

    init(scheduler: AnySchedulerOf<LoopScheduler>, search: @escaping (String) -> [String]) {
        searching = $query.dropFirst()
            .debounce(for: .milliseconds(300), scheduler: scheduler)
            .map(search)
            .sink { [weak self] in self?.results = $0 }
    }
}
