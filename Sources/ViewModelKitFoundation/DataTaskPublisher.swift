import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSession {
    /// A publisher of one URL load's data and response, as Foundation's
    /// `URLSession.DataTaskPublisher`.
    ///
    /// Each subscriber gets its own data task, started on its first positive demand. When the
    /// task completes, the subscriber gets `(data, response)` then `.finished`, or
    /// `.failure(URLError)` (any other error is reported as `URLError(.unknown)`), on the
    /// session's delegate queue. Cancelling cancels the task; nothing is delivered afterwards.
    public struct DataTaskPublisher: ViewModelKit.Publisher, @unchecked Sendable {
        /// The body and the response.
        public typealias Output = (data: Data, response: URLResponse)
        /// The load's error.
        public typealias Failure = URLError

        /// The request loaded.
        public let request: URLRequest
        /// The session that loads it.
        public let session: URLSession

        /// A publisher loading `request` with `session`.
        public init(request: URLRequest, session: URLSession) {
            self.request = request
            self.session = session
        }

        /// Attaches `subscriber`; the load starts on its first demand.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            subscriber.receive(
                subscription: DataTaskSubscription(downstream: subscriber, request: request, session: session))
        }
    }

    /// A publisher loading `url`, as Foundation's `dataTaskPublisher(for:)`.
    public func dataTaskPublisher(for url: URL) -> DataTaskPublisher {
        DataTaskPublisher(request: URLRequest(url: url), session: self)
    }

    /// A publisher loading `request`, as Foundation's `dataTaskPublisher(for:)`.
    public func dataTaskPublisher(for request: URLRequest) -> DataTaskPublisher {
        DataTaskPublisher(request: request, session: self)
    }
}

/// What the task's completion block calls: non-generic, so the `@Sendable` block captures no
/// generic metatype.
private protocol DataTaskSink: AnyObject, Sendable {
    func finish(data: Data?, response: URLResponse?, error: Error?)
}

private final class DataTaskSubscription<Downstream: Subscriber>: Subscription, DataTaskSink, CustomStringConvertible,
    @unchecked Sendable
where Downstream.Input == URLSession.DataTaskPublisher.Output, Downstream.Failure == URLError {
    private let lock = NSLock()
    private let request: URLRequest
    private let session: URLSession
    // Guarded by `lock`.
    private var downstream: Downstream?
    private var task: URLSessionDataTask?
    private var started = false

    init(downstream: Downstream, request: URLRequest, session: URLSession) {
        self.downstream = downstream
        self.request = request
        self.session = session
    }

    var description: String { "DataTaskPublisher" }

    func request(_ demand: Subscribers.Demand) {
        guard demand > 0 else { return }
        lock.lock()
        guard downstream != nil, !started else { return lock.unlock() }
        started = true
        lock.unlock()
        // The task holds the sink until it completes; a cancelled subscription ignores the call.
        let sink: any DataTaskSink = self
        let made = session.dataTask(with: request) { sink.finish(data: $0, response: $1, error: $2) }
        let keep = lock.withLock { () -> Bool in
            guard downstream != nil else { return false }
            task = made
            return true
        }
        if keep { made.resume() }
    }

    func finish(data: Data?, response: URLResponse?, error: Error?) {
        let target = lock.withLock { () -> Downstream? in
            defer {
                downstream = nil
                task = nil
            }
            return downstream
        }
        guard let target else { return }
        if let error {
            target.receive(completion: .failure(error as? URLError ?? URLError(.unknown)))
        } else if let response {
            _ = target.receive((data ?? Data(), response))
            target.receive(completion: .finished)
        } else {
            target.receive(completion: .failure(URLError(.badServerResponse)))
        }
    }

    func cancel() {
        let (running, target) = lock.withLock { () -> (URLSessionDataTask?, Downstream?) in
            defer {
                task = nil
                downstream = nil
            }
            return (task, downstream)
        }
        running?.cancel()
        withExtendedLifetime(target) {}
    }
}
