import Dispatch
import Testing
import ViewModelKit

/// The new operators whose two sides may run on different threads (`buffer`, `collect` by time
/// on a dispatch queue, `prefix(untilOutputFrom:)`), driven from two threads at once; run under
/// ThreadSanitizer by `make test`.
@Suite struct NewOperatorConcurrencyTests {
    @Test func bufferKeepsOrderWhileDemandArrivesFromAnotherThread() {
        let count = 5_000
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Int, Never>(initialDemand: nil)
        subject.buffer(size: count, prefetch: .byRequest, whenFull: .dropNewest).subscribe(recorder)
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) {
            for value in 1...count { subject.send(value) }
            subject.send(completion: .finished)
        }
        DispatchQueue.global().async(group: group) {
            for _ in 1...count { recorder.request(.max(1)) }
        }
        group.wait()
        #expect(recorder.values == Array(1...count))
        #expect(recorder.events.last == .finished)
    }

    @Test func prefixUntilOutputNeverDeliversAfterItsCompletion() {
        for _ in 0..<50 {
            let subject = PassthroughSubject<Int, Never>()
            let trigger = PassthroughSubject<Void, Never>()
            let recorder = Recorder<Int, Never>()
            subject.prefix(untilOutputFrom: trigger).subscribe(recorder)
            let group = DispatchGroup()
            DispatchQueue.global().async(group: group) {
                for value in 1...500 { subject.send(value) }
            }
            DispatchQueue.global().async(group: group) { trigger.send(()) }
            group.wait()
            let events = recorder.events
            #expect(events.last == .finished)
            #expect(events.filter { $0 == .finished }.count == 1)
            // `1..<count + 1`: the trigger may win before any value (an empty prefix), and
            // `1...0` traps.
            #expect(recorder.values == Array(1..<recorder.values.count + 1))
        }
    }

    @Test func collectByTimeOnADispatchQueueDeliversEveryValueOnce() {
        let queue = DispatchQueue(label: "collect-by-time")
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder<[Int], Never>()
        let done = DispatchSemaphore(value: 0)
        recorder.onCompletion = { done.signal() }
        subject.collect(.byTimeOrCount(queue, .milliseconds(1), 7)).subscribe(recorder)
        DispatchQueue.global().async {
            for value in 1...1_000 { subject.send(value) }
            subject.send(completion: .finished)
        }
        #expect(done.wait(timeout: .now() + 30) == .success)
        #expect(recorder.values.flatMap { $0 } == Array(1...1_000))
        #expect(recorder.values.allSatisfy { !$0.isEmpty && $0.count <= 7 })
    }
}
