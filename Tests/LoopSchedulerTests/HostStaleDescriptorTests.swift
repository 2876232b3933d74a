import Foundation
import LoopTestSupport
import Testing

@testable import LoopScheduler

/// A watched descriptor whose open file is shared (a `dup`, a forked child's copy), cancelled and
/// closed in one dispatch: epoll keeps an entry until every descriptor of the open file is
/// closed, and once the number is closed the entry can no longer be deleted by it. The driver
/// must drop it while the number still names the file, or the host wakes on every iteration with
/// nothing to do.
@Suite struct HostStaleDescriptorTests {
    private func readable(_ driver: HostLoopDriver) -> Bool {
        var entry = pollfd(fd: driver.descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) == 1 && entry.revents & Int16(POLLIN) != 0
    }

    /// The pipe's read end is readable (a byte waits) and duplicated; a job cancels the watch and
    /// closes the watched number. After that dispatch the host must see nothing ready, however
    /// many iterations it runs.
    @Test(arguments: [false, true])
    func aWatchCancelledAndClosedInOneDispatchLeavesNoStaleEntry(fromAnotherThread: Bool) throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let driver = try loop.makeHostDriver()
        defer { driver.invalidate() }
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        let watched = fds[0]
        let writer = fds[1]
        let shared = dup(watched)  // the open file outlives the watched number
        try #require(shared >= 0)
        defer {
            close(shared)
            close(writer)
        }
        var byte: UInt8 = 7
        try #require(write(writer, &byte, 1) == 1)
        var calls = 0
        var watch: EventRegistration? = loop.watch(fd: watched, events: .read) { _ in calls += 1 }
        _ = driver.prepare()
        #expect(readable(driver))
        driver.dispatch()
        #expect(calls == 1)
        // One dispatch: the watch is cancelled (here or by another thread) and the number closed.
        if fromAnotherThread {
            let registration = watch!
            watch = nil
            TestThread { registration.cancel() }.join()
            close(watched)
        } else {
            loop.enqueue {
                watch?.cancel()
                watch = nil
                close(watched)
            }
        }
        _ = driver.prepare()
        driver.dispatch()  // the job above, or the loop's half of the other thread's cancel
        for iteration in 0..<3 {
            #expect(driver.prepare() == nil, "iteration \(iteration)")
            #expect(!readable(driver), "iteration \(iteration): the host would wake for nothing")
            #expect(!driver.hasReadyWork, "iteration \(iteration)")
            driver.dispatch()
        }
        #expect(calls == 1)
    }

    /// The descriptor's other copy still watched by a second registration keeps being polled
    /// after the first one's cancel (the entry is removed eagerly and mirrored again).
    @Test func anotherWatchOnTheSameDescriptorStaysPolled() throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let driver = try loop.makeHostDriver()
        defer { driver.invalidate() }
        let pipe = TestPipe()
        var first = 0
        var second = 0
        let one = loop.watch(fd: pipe.readEnd, events: .read) { _ in first += 1 }
        let two = loop.watch(fd: pipe.readEnd, events: .read) { _ in
            second += 1
            pipe.readByte()
        }
        _ = driver.prepare()
        one.cancel()
        _ = driver.prepare()
        #expect(!readable(driver))
        pipe.writeByte()
        #expect(readable(driver))
        driver.dispatch()
        #expect(first == 0)
        #expect(second == 1)
        two.cancel()
    }
}
