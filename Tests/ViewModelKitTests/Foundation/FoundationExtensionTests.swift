import Foundation
import Testing
import ViewModelKitFoundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Runs the current thread's run loop until `done()` holds (or a generous 10 s passes, so a
/// busy machine slows the test down instead of failing it).
private func runLoop(until done: () -> Bool) {
    let limit = Date(timeIntervalSinceNow: 10)
    while !done(), Date() < limit {
        _ = RunLoop.current.run(mode: .default, before: Date(timeIntervalSinceNow: 0.01))
    }
}

/// Waits (polling, up to 10 s) for `done()` to hold, for work finishing on other threads.
private func wait(until done: () -> Bool) {
    let limit = Date(timeIntervalSinceNow: 10)
    while !done(), Date() < limit { usleep(1_000) }
}

/// ViewModelKitFoundation: Foundation's Combine extensions.
@Suite struct FoundationSchedulerTests {
    @Test func runLoopRunsActionsInOrderWhenItRuns() {
        let loop = RunLoop.current
        var order: [String] = []
        loop.schedule(after: loop.now.advanced(by: .milliseconds(20))) { order.append("later") }
        loop.schedule { order.append("first") }
        loop.schedule { order.append("second") }
        #expect(order == [])
        runLoop { order.count == 3 }
        #expect(order == ["first", "second", "later"])
    }

    @Test func runLoopRepeatingActionStopsWhenCancelled() {
        let loop = RunLoop.current
        var ticks = 0
        var token: Cancellable?
        token = loop.schedule(after: loop.now, interval: .milliseconds(5)) {
            ticks += 1
            if ticks == 3 { token?.cancel() }
        }
        runLoop { ticks >= 3 }
        _ = RunLoop.current.run(mode: .default, before: Date(timeIntervalSinceNow: 0.03))
        #expect(ticks == 3)
    }

    @Test func dateStrideUsesSeconds() {
        let start = RunLoop.SchedulerTimeType(Date(timeIntervalSince1970: 100))
        #expect(start.advanced(by: .milliseconds(1500)).date == Date(timeIntervalSince1970: 101.5))
        #expect(start.distance(to: RunLoop.SchedulerTimeType(Date(timeIntervalSince1970: 98))) == -2)
        #expect(RunLoop.SchedulerTimeType.Stride.microseconds(250).timeInterval == 0.000_25)
    }

    @Test func operationQueueRunsActionsAsOperationsInOrder() {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let lock = NSLock()
        var order: [Int] = []
        for index in 0..<5 {
            queue.schedule { lock.withLock { order.append(index) } }
        }
        queue.schedule(after: queue.now.advanced(by: .milliseconds(10))) { lock.withLock { order.append(99) } }
        wait { lock.withLock { order.count == 6 } }
        #expect(lock.withLock { order } == [0, 1, 2, 3, 4, 99])
    }

    @Test func operationQueueRepeatingActionStopsWhenCancelled() {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let lock = NSLock()
        var ticks = 0
        let token = queue.schedule(after: queue.now, interval: .milliseconds(2)) { lock.withLock { ticks += 1 } }
        wait { lock.withLock { ticks >= 3 } }
        token.cancel()
        queue.waitUntilAllOperationsAreFinished()
        let stopped = lock.withLock { ticks }
        usleep(20_000)
        queue.waitUntilAllOperationsAreFinished()
        #expect(lock.withLock { ticks } == stopped)
    }
}

@Suite struct FoundationPublisherTests {
    @Test func timerPublisherTicksWithinDemandAfterAutoconnect() {
        let recorder = Recorder<Date, Never>(initialDemand: .max(2))
        let start = Date()
        Timer.publish(every: 0.005, on: .current, in: .default).autoconnect().subscribe(recorder)
        runLoop { recorder.values.count == 2 }
        _ = RunLoop.current.run(mode: .default, before: Date(timeIntervalSinceNow: 0.03))
        let ticks = recorder.values
        #expect(ticks.count == 2)
        #expect(ticks.allSatisfy { $0 > start })
        #expect(ticks == ticks.sorted())
        recorder.cancel()
    }

    /// On purpose unlike Combine, whose `publish` was recorded dropping the tolerance (nil).
    @Test func timerPublishKeepsTheToleranceItIsGiven() {
        let publisher = Timer.publish(every: 0.25, tolerance: 0.02, on: .main, in: RunLoop.Mode("testMode"))
        #expect(publisher.interval == 0.25)
        #expect(publisher.tolerance == 0.02)
        #expect(publisher.mode == RunLoop.Mode("testMode"))
        #expect(publisher.options == nil)
    }

    @Test func timerPublisherDoesNothingUntilConnected() {
        let publisher = Timer.publish(every: 0.002, on: .current, in: .default)
        let recorder = Recorder<Date, Never>()
        publisher.subscribe(recorder)
        _ = RunLoop.current.run(mode: .default, before: Date(timeIntervalSinceNow: 0.02))
        #expect(recorder.values.isEmpty)
        let connection = publisher.connect()
        runLoop { recorder.values.count >= 1 }
        connection.cancel()
        let seen = recorder.values.count
        _ = RunLoop.current.run(mode: .default, before: Date(timeIntervalSinceNow: 0.02))
        #expect(seen >= 1)
        #expect(recorder.values.count == seen)
    }

    @Test func notificationsAreDeliveredWithinDemandAndStopOnCancel() {
        let center = NotificationCenter()
        let name = Notification.Name("ping")
        let sender = NSObject()
        let recorder = Recorder<Notification, Never>(initialDemand: .max(1))
        center.publisher(for: name, object: sender).subscribe(recorder)
        center.post(name: name, object: sender, userInfo: ["n": 1])
        center.post(name: name, object: sender, userInfo: ["n": 2])
        center.post(name: name, object: NSObject(), userInfo: ["n": 3])
        recorder.request(.max(5))
        center.post(name: name, object: sender, userInfo: ["n": 4])
        recorder.cancel()
        center.post(name: name, object: sender, userInfo: ["n": 5])
        #expect(recorder.values.map { $0.userInfo?["n"] as? Int } == [1, 4])
        #expect(
            center.publisher(for: name, object: sender)
                == NotificationCenter.Publisher(center: center, name: name, object: sender))
    }

    @Test func jsonCodersAreTopLevelCoders() {
        struct Item: Codable, Equatable { let id: Int }
        let recorder = Recorder<Item, any Error>()
        Just(Item(id: 4)).encode(encoder: JSONEncoder()).decode(type: Item.self, decoder: JSONDecoder()).subscribe(
            recorder)
        #expect(rendered(recorder.events) == ["subscription", "value(Item(id: 4))", "finished"])
    }
}

/// Answers every request from memory: `/fail` with `URLError(.timedOut)`, anything else with
/// 200 and the path as the body.
final class StubURLProtocol: URLProtocol {
    override class func canInit(with request: URLRequest) -> Bool { true }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        let url = request.url!
        if url.path == "/fail" {
            client?.urlProtocol(self, didFailWithError: URLError(.timedOut))
            return
        }
        let response = HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: nil)!
        client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
        client?.urlProtocol(self, didLoad: Data(url.path.utf8))
        client?.urlProtocolDidFinishLoading(self)
    }

    override func stopLoading() {}
}

@Suite struct DataTaskPublisherTests {
    private func stubSession() -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [StubURLProtocol.self]
        return URLSession(configuration: configuration)
    }

    @Test func loadsOnFirstDemandThenFinishes() {
        let session = stubSession()
        let recorder = Recorder<(data: Data, response: URLResponse), URLError>(initialDemand: nil)
        session.dataTaskPublisher(for: URL(string: "http://stub.invalid/hello")!).subscribe(recorder)
        usleep(20_000)
        #expect(recorder.events.count == 1)
        recorder.request(.max(1))
        wait { recorder.events.count == 3 }
        #expect(recorder.values.map { String(decoding: $0.data, as: UTF8.self) } == ["/hello"])
        #expect(recorder.values.map { ($0.response as? HTTPURLResponse)?.statusCode } == [200])
        #expect(rendered(recorder.events).last == "finished")
    }

    @Test func failsWithTheURLError() {
        let session = stubSession()
        let recorder = Recorder<(data: Data, response: URLResponse), URLError>()
        session.dataTaskPublisher(for: URLRequest(url: URL(string: "http://stub.invalid/fail")!)).subscribe(recorder)
        wait { recorder.events.count == 2 }
        guard case .completion(.failure(let error)) = recorder.events.last else {
            Issue.record("expected a failure, got \(rendered(recorder.events))")
            return
        }
        #expect(error.code == .timedOut)
    }
}
