import Foundation
import ViewModelKit

/// An error with a name, for failure tests.
struct TestError: Error, Equatable, CustomStringConvertible {
    let name: String
    init(_ name: String = "boom") { self.name = name }
    var description: String { name }
}

/// One thing a subscriber saw.
enum Event<Input, Failure: Error> {
    case subscription
    case value(Input)
    case completion(Subscribers.Completion<Failure>)
}

extension Event: Equatable where Input: Equatable, Failure: Equatable {}

extension Event: CustomStringConvertible {
    var description: String {
        switch self {
        case .subscription: return "subscription"
        case .value(let v): return "value(\(v))"
        case .completion(.finished): return "finished"
        case .completion(.failure(let e)): return "failure(\(e))"
        }
    }
}

/// A subscriber that records every event and lets the test control demand.
///
/// `initialDemand` is requested on subscription (nil: nothing); `demandPerValue` is returned from
/// each `receive(_:)`; `onValue` runs inside `receive(_:)` (after recording) for re-entrancy tests.
final class Recorder<Input, Failure: Error>: Subscriber, @unchecked Sendable {
    // NSLock (pthread): visible to ThreadSanitizer, unlike Synchronization.Mutex on Linux.
    private let mutex = NSLock()
    private nonisolated(unsafe) var recorded: [Event<Input, Failure>] = []
    private nonisolated(unsafe) var upstream: Subscription?
    /// The subscription after the completion, held weakly: a recorder lets its subscription go
    /// at the end as `Sink` does, since Combine's operators keep their subscriber as long as it
    /// holds their subscription (a recorder that kept it would leak with it). Requests and
    /// cancels after the end still reach it while something else keeps it alive.
    private nonisolated(unsafe) weak var endedUpstream: AnyObject?
    let initialDemand: Subscribers.Demand?
    let demandPerValue: Subscribers.Demand
    nonisolated(unsafe) var onValue: ((Input) -> Void)?
    nonisolated(unsafe) var onCompletion: (() -> Void)?

    init(initialDemand: Subscribers.Demand? = .unlimited, demandPerValue: Subscribers.Demand = .none) {
        self.initialDemand = initialDemand
        self.demandPerValue = demandPerValue
    }

    var events: [Event<Input, Failure>] { mutex.withLock { recorded } }
    var values: [Input] {
        events.compactMap { if case .value(let v) = $0 { return v } else { return nil } }
    }
    var subscription: Subscription? { mutex.withLock { upstream ?? endedUpstream as? Subscription } }

    func receive(subscription: Subscription) {
        mutex.withLock {
            recorded.append(.subscription)
            upstream = subscription
        }
        if let initialDemand, initialDemand != .none { subscription.request(initialDemand) }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        mutex.withLock { recorded.append(.value(input)) }
        onValue?(input)
        return demandPerValue
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        let ended = mutex.withLock { () -> Subscription? in
            recorded.append(.completion(completion))
            // Only a class subscription can be held weakly; a struct one holds no cycle anyway.
            guard let held = upstream, type(of: held) is AnyClass else { return nil }
            // The shared empty subscription is a statically allocated object: a weak reference
            // to it gets a side table that LeakSanitizer cannot see it points to. It holds nothing.
            guard held as AnyObject !== Subscriptions.empty as AnyObject else {
                upstream = nil
                return held
            }
            endedUpstream = held as AnyObject
            upstream = nil
            return held
        }
        withExtendedLifetime(ended) { onCompletion?() }
    }

    func request(_ demand: Subscribers.Demand) { subscription?.request(demand) }
    /// Cancels and, as `Sink` does, lets the subscription go (held weakly from then on, so a
    /// later request still reaches it while something else keeps it alive): Combine's operators
    /// keep their subscriber after a cancel, so a recorder that kept its subscription would make
    /// a cycle with it.
    func cancel() {
        let held = mutex.withLock { () -> Subscription? in
            guard let held = upstream else { return endedUpstream as? Subscription }
            if type(of: held) is AnyClass {
                endedUpstream = held as AnyObject
                upstream = nil
            }
            return held
        }
        held?.cancel()
    }

    /// Cancels and forgets the subscription, breaking the recorder ↔ subscription cycle of a
    /// stream that never ended (for LeakSanitizer).
    func detach() {
        let held = mutex.withLock { () -> Subscription? in
            defer { upstream = nil }
            return upstream
        }
        held?.cancel()
    }

    /// `detach()` for a stream still running at the test's end (no completion recorded); an
    /// ended stream is left alone (the recorder let its subscription go at the completion).
    func detachIfRunning() {
        let ended = events.contains { if case .completion = $0 { return true } else { return false } }
        if !ended { detach() }
    }
}

/// Builds expected event lists tersely: `.subscription`, `.value(1)`, `.finished`.
extension Event {
    static var finished: Event { .completion(.finished) }
    static func failure(_ error: Failure) -> Event { .completion(.failure(error)) }
}

/// A subscription that records the demand asked of it, to check what operators request upstream.
final class DemandLog: @unchecked Sendable {
    private let mutex = NSLock()
    private var lines: [String] = []
    func append(_ s: String) { mutex.withLock { lines.append(s) } }
    var entries: [String] { mutex.withLock { lines } }
}
