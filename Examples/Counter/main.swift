// counter-example: the MVVM pattern end to end on the libevent main loop.
// A view model changes on a loop timer; an observer renders it to the terminal, once per loop
// iteration however many changes happened. Exits by itself after five ticks.
import ViewModelKit

/// The view model: plain state with @Published properties.
final class CounterViewModel: ObservableObject {
    @Published private(set) var count = 0
    @Published private(set) var status = "starting"

    func tick() {
        count += 1  // two changes in one callback...
        status = count.isMultiple(of: 2) ? "even" : "odd"
    }
}

/// The view: draws the view model; updateView() runs once per iteration that changed it.
final class CounterView: ViewModelObserver {
    @ViewModel var viewModel = CounterViewModel()
    private(set) var renders = 0

    init() {
        bindViewModels()  // binds the default value and draws once, now
    }

    func updateView() {
        renders += 1  // ...give one render
        print("render \(renders): count = \(viewModel.count) (\(viewModel.status))")
    }
}

let loop = EventLoop.main
let view = CounterView()
let ticks = 5

let timer = loop.scheduleRepeatingTimer(every: .milliseconds(50)) {
    view.viewModel.tick()
    if view.viewModel.count == ticks { loop.stop() }
}

do {
    try loop.run()
} catch {
    print("counter-example: the loop failed: \(error)")
}
// stop() ends run() after the iteration's flush, so the last tick is already drawn.
timer.cancel()
print("done after \(view.renders) renders for \(ticks) ticks")
