import Dispatch
import LoopTestSupport
import Testing

@testable import LoopScheduler

/// The actor-pinning code of the "Plugging into other loops" article (LoopScheduler.docc), run.
/// The article's other blocks live in Examples/CHostedLoop and Examples/PollHost, which
/// `make examples` runs.
@Suite struct PluggingIntoOtherLoopsArticleTests {
    @Test func anActorPinnedToALoopRunsOnTheLoopsThread() async throws {
        let loop = try EventLoop()
        let started = DispatchSemaphore(value: 0)
        let worker = TestThread {
            let kick = loop.scheduleTimer(after: .nanoseconds(0)) { started.signal() }
            try? loop.run()
            kick.cancel()
        }
        started.wait()

        let downloads = Downloads(loop: loop)
        #expect(await downloads.finish() == Downloads.Report(finished: 1, onLoopThread: true))
        #expect(await downloads.finish() == Downloads.Report(finished: 2, onLoopThread: true))
        loop.stop()
        worker.join()
    }
}

actor Downloads {
    let loop: EventLoop
    private var finished = 0

    init(loop: EventLoop) {
        self.loop = loop
    }

    // Every job of this actor goes through loop.execute: it runs on the loop's thread,
    // between the loop's callbacks, never beside them.
    nonisolated var unownedExecutor: UnownedSerialExecutor {
        loop.asUnownedSerialExecutor()
    }

    func finish() -> Report {
        finished += 1
        loop.preconditionIsolated()  // holds: the loop is this actor's executor
        return Report(finished: finished, onLoopThread: loop.inEventLoop)
    }
}

extension Downloads {
    struct Report: Equatable, Sendable {
        var finished: Int
        var onLoopThread: Bool
    }
}
