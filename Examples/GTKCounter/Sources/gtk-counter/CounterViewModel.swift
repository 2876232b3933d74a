import ViewModelKit

/// The view model: the count the buttons change and a clock the timer changes many times per
/// second. It knows nothing of GTK.
final class CounterViewModel: ObservableObject {
    @Published private(set) var count = 0
    /// Timer ticks so far.
    @Published private(set) var ticks = 0
    /// A position in 0..<360 that the timer moves (what a progress or spinner view would draw).
    @Published private(set) var phase = 0
    /// Every property change made so far (to compare with the window's redraws).
    private(set) var changes = 0

    func increment() {
        count += 1
        changes += 1
    }

    func decrement() {
        count -= 1
        changes += 1
    }

    func reset() {
        count = 0
        changes += 1
    }

    /// Two changes per tick; the window still redraws once per loop iteration.
    func tick() {
        ticks += 1
        phase = (phase + 7) % 360
        changes += 2
    }
}
