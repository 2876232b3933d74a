/// A publisher that replays a recorded list of values and a completion to each subscriber, as
/// Combine's `Record`.
///
/// Values are delivered as demand allows; the completion follows the last value (without
/// needing demand). Each subscriber gets the whole recording.
public struct Record<Output, Failure: Error>: Publisher {
    /// The values and completion replayed by a `Record`, as Combine's `Record.Recording`.
    public struct Recording {
        /// The recorded values, in order.
        public private(set) var output: [Output]
        /// The recorded completion (`.finished` until another is recorded).
        public private(set) var completion: Subscribers.Completion<Failure>
        private var completed = false

        /// An empty recording that finishes.
        public init() {
            output = []
            completion = .finished
        }

        /// A recording of `output` followed by `completion`.
        public init(output: [Output], completion: Subscribers.Completion<Failure> = .finished) {
            self.output = output
            self.completion = completion
            self.completed = true
        }

        /// Appends a value. Combine traps on a value after the completion; here it is ignored.
        public mutating func receive(_ input: Output) {
            guard !completed else { return }
            output.append(input)
        }

        /// Records the completion. Only the first one counts.
        public mutating func receive(completion: Subscribers.Completion<Failure>) {
            guard !completed else { return }
            self.completion = completion
            completed = true
        }
    }

    /// The recording replayed to each subscriber.
    public let recording: Recording

    /// Creates a record by filling a recording in `record`.
    public init(record: (inout Recording) -> Void) {
        var recording = Recording()
        record(&recording)
        self.recording = recording
    }

    /// Creates a record from an existing recording.
    public init(recording: Recording) {
        self.recording = recording
    }

    /// Creates a record of `output` followed by `completion`.
    public init(output: [Output], completion: Subscribers.Completion<Failure>) {
        self.recording = Recording(output: output, completion: completion)
    }

    /// Replays the recording to `subscriber`.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        if recording.output.isEmpty {
            subscriber.receive(subscription: Subscriptions.empty)
            subscriber.receive(completion: recording.completion)
            return
        }
        subscriber.receive(
            subscription: ReplaySubscription(recording.output, recording.completion, subscriber))
    }
}

/// Replays an array on demand, then a completion. Re-entrant `request` calls from inside
/// `receive` only add demand; the loop already running delivers.
final class ReplaySubscription<S: Subscriber>: Subscription, CustomStringConvertible,
    @unchecked Sendable
{
    private let lock = Lock()
    private var downstream: S?
    private let values: [S.Input]
    private let completion: Subscribers.Completion<S.Failure>
    private var next = 0
    private var demand = Subscribers.Demand.none
    private var delivering = false

    init(_ values: [S.Input], _ completion: Subscribers.Completion<S.Failure>, _ downstream: S) {
        self.values = values
        self.completion = completion
        self.downstream = downstream
    }

    var description: String { "Record" }

    func request(_ extra: Subscribers.Demand) {
        guard extra > 0 else { return }
        lock.lock()
        demand += extra
        guard !delivering, downstream != nil else {
            lock.unlock()
            return
        }
        delivering = true
        while let target = downstream {
            if next == values.count {
                downstream = nil
                lock.unlock()
                target.receive(completion: completion)
                return
            }
            guard demand > 0 else { break }
            demand -= 1
            let value = values[next]
            next += 1
            lock.unlock()
            let more = target.receive(value)
            lock.lock()
            demand += more
        }
        delivering = false
        lock.unlock()
    }

    func cancel() {
        lock.lock()
        let target = downstream
        downstream = nil
        lock.unlock()
        withExtendedLifetime(target) {}
    }
}
