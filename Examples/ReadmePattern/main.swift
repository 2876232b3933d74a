// swift-format-ignore-file
// The README's "The pattern in 25 lines", line for line (docs-check checks that the README's
// block is in a compiled file; `make examples` runs this and compares its output).
import ViewModelKit

@MainActor final class Counter: ObservableObject {      // the view model
    @Published var count = 0
}

@MainActor final class CounterView: ViewModelObserver {  // the view: no isolated conformance
    @ViewModel var counter: Counter
    init(counter: Counter) { self.counter = counter }    // binds now and draws once, at once
    func updateView() { print("count = \(counter.count)") }
}

let view = CounterView(counter: Counter())
let timer = EventLoop.main.scheduleRepeatingTimer(every: .milliseconds(100)) {
    MainActor.assumeIsolated {                           // the main loop is the main actor
        view.counter.count += 1                          // any number of changes in one iteration...
        view.counter.count += 1                          // ...give one updateView() at its end
        if view.counter.count >= 10 { EventLoop.main.stop() }
    }
}
try EventLoop.main.run()
timer.cancel()
