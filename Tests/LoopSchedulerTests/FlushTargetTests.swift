import Foundation
import LoopTestSupport
import Testing

@testable import LoopScheduler

/// Sources made with a target (`LoopEventSource.init(loop:order:target:)`, what ViewModelKit's
/// update coordinators use on a loop): the same contract as a handler source, reached by a
/// direct call.
@Suite(.serialized) struct FlushTargetTests {
    /// Records its calls, with the merged count its source reports inside each.
    final class Recorder: LoopFlushTarget, @unchecked Sendable {
        let name: String
        let log: Shared<[String]>
        var source: LoopEventSource?
        var onCall: (() -> Void)?

        init(_ name: String, log: Shared<[String]>) {
            self.name = name
            self.log = log
        }

        func loopFlushSignalled() {
            let merged = source?.mergedSignalCount ?? -1
            log.mutate { $0.append("\(name)\(merged)") }
            onCall?()
        }
    }

    /// Signals of one iteration merge into one call (with the merged count inside), in flush
    /// order with handler sources: by `order`, then creation.
    @Test func oneCallPerIterationInFlushOrder() throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let log = Shared<[String]>([])
        let late = Recorder("T", log: log)
        late.source = loop.makeEventSource(order: 1, target: late)
        let handler = loop.makeEventSource(order: 1) { source in
            log.mutate { $0.append("H\(source.mergedSignalCount)") }
        }
        let early = Recorder("E", log: log)
        early.source = loop.makeEventSource(order: 0, target: early)
        loop.execute {
            handler.signal()
            for _ in 0..<3 { late.source?.signal() }
            early.source?.signal()
            early.source?.signal()
        }
        #expect(loop.runOnce(blocking: true))
        #expect(log.value == ["E2", "T3", "H1"])
        #expect(loop.runOnce(blocking: false))
        #expect(log.value.count == 3)
        late.source?.cancel()
        early.source?.cancel()
    }

    /// A target whose source an earlier call of the same pass cancelled is not called; a
    /// cancelled source releases its target (the cycle target → source → target is broken),
    /// also when the cancel comes from inside the pass.
    @Test func cancelledInThePassIsNotCalledAndReleasesItsTarget() throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let log = Shared<[String]>([])
        weak var releasedSecond: Recorder?
        let first = Recorder("A", log: log)
        first.source = loop.makeEventSource(target: first)
        do {
            let second = Recorder("B", log: log)
            second.source = loop.makeEventSource(target: second)
            releasedSecond = second
            first.onCall = { [unowned second] in second.source?.cancel() }
            loop.execute {
                second.source?.signal()
                first.source?.signal()
            }
        }
        #expect(loop.runOnce(blocking: true))
        #expect(log.value == ["A1"])
        #expect(releasedSecond == nil)
        first.source?.cancel()
        first.onCall = nil
    }

    /// Dropping the last reference to a target's source cancels it, like any source: a pending
    /// signal calls nothing.
    @Test func droppedSourceIsCancelled() throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let log = Shared<[String]>([])
        weak var releasedTarget: Recorder?
        do {
            let target = Recorder("X", log: log)
            releasedTarget = target
            let source = loop.makeEventSource(target: target)
            source.signal()
        }
        #expect(releasedTarget == nil)
        #expect(loop.runOnce(blocking: false))
        #expect(log.value.isEmpty)
    }
}
