import Testing

@testable import LoopScheduler

/// The code of the "The iteration contract" article (LoopScheduler.docc), run: `make docs` checks
/// that the article's blocks appear here line for line, and these tests hold it to what it says.
@Suite struct IterationContractArticleTests {
    @Test func oneFlushPerIterationMergesEverySignalAndDefersSignalsRaisedInTheFlush() throws {
        let loop = try EventLoop()
        var log: [String] = []
        let source = loop.makeEventSource { source in
            log.append("flush: \(source.mergedSignalCount) signals")
            if log.count == 2 { source.signal() }  // raised in the flush: served next iteration
        }
        let timer = loop.scheduleTimer(after: .nanoseconds(0)) {
            log.append("timer")
            source.signal()
            source.signal()
        }
        loop.execute { source.signal() }  // any thread; wakes the loop

        loop.runOnce(blocking: true)  // the timer and the job, then one flush
        #expect(log == ["timer", "flush: 3 signals"])
        loop.runOnce(blocking: false)  // the deferred signal: the loop did not block first
        #expect(log == ["timer", "flush: 3 signals", "flush: 1 signals"])
        timer.cancel()
        source.cancel()
    }
}
