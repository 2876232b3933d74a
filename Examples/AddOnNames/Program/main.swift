// Uses, beside `import ViewModelKit` (and Foundation's extensions), the names a Combine add-on
// library declares. It compiles only because ViewModelKit exports none of them: with a second
// declaration in ViewModelKit each use below would be ambiguous.
import AddOnSchedulers
import Dispatch
import ViewModelKit
import ViewModelKitFoundation

let clock: TestSchedulerOf<DispatchQueue> = DispatchQueue.test
let erased: AnySchedulerOf<DispatchQueue> = clock.eraseToAnyScheduler()
let start = clock.now

var ticks: [Int64] = []
let timer: Publishers.Timer<AnySchedulerOf<DispatchQueue>> = erased.timerPublisher(every: .seconds(1))
let ticking = timer.autoconnect().sink { ticks.append(Int64(start.distance(to: $0).magnitude) / 1_000_000_000) }

let queries = PassthroughSubject<String, Never>()
var searched: [String] = []
let searching = queries.debounce(for: .milliseconds(300), scheduler: erased).sink { searched.append($0) }

queries.send("l")
clock.advance(by: .milliseconds(100))
queries.send("lo")
clock.advance(by: .milliseconds(100))
queries.send("loop")
clock.advance(by: .milliseconds(3_000))
print("timer ticks at seconds: \(ticks)")
print("debounced searches: \(searched)")

let never: UnimplementedScheduler<DispatchQueue.SchedulerTimeType, DispatchQueue.SchedulerOptions> =
    UnimplementedScheduler(now: clock.now)
never.schedule {}
let immediate: ImmediateSchedulerOf<DispatchQueue> = AnySchedulerOf<DispatchQueue>.immediate
print("immediate is an erased scheduler: \(type(of: immediate) == AnySchedulerOf<DispatchQueue>.self)")
ticking.cancel()
searching.cancel()
