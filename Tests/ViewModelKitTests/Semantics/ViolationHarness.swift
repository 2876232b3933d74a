import Foundation
import ViewModelKit

// A harness for protocol violations: an upstream the test drives by hand, which can
// break every rule of the Subscriber protocol, and a script runner that records what the operator
// under test passes on downstream and asks of each upstream subscription.

/// One call an operator made on a subscription it was given.
enum SubscriptionCall: Equatable, CustomStringConvertible {
    case request(Subscribers.Demand)
    case cancel

    var description: String {
        switch self {
        case .request(let demand): return "request \(demand)"
        case .cancel: return "cancel"
        }
    }
}

/// A subscription that only records what is asked of it.
final class RecordingSubscription: Subscription, @unchecked Sendable {
    private let mutex = NSLock()
    private var calls: [SubscriptionCall] = []

    var history: [SubscriptionCall] { mutex.withLock { calls } }
    func request(_ demand: Subscribers.Demand) { mutex.withLock { calls.append(.request(demand)) } }
    func cancel() { mutex.withLock { calls.append(.cancel) } }
}

/// A publisher that misbehaves on command: subscribing only stores the subscriber; the test then
/// hands it subscriptions (any number, at any time), values (whatever the demand) and completions
/// (any number), in any order. A later subscriber replaces an earlier one (for `retry`).
final class ViolatingPublisher<Output, Failure: Error>: Publisher, @unchecked Sendable {
    private let mutex = NSLock()
    private var stored: AnySubscriber<Output, Failure>?
    private var subscribeCount = 0

    /// How many times something subscribed.
    var subscriptions: Int { mutex.withLock { subscribeCount } }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        mutex.withLock {
            stored = AnySubscriber(subscriber)
            subscribeCount += 1
        }
    }

    private var subscriber: AnySubscriber<Output, Failure>? { mutex.withLock { stored } }

    func send(subscription: Subscription) { subscriber?.receive(subscription: subscription) }

    /// Sends `value` whatever the demand; returns the demand the subscriber gave back (nil with
    /// no subscriber).
    @discardableResult
    func send(_ value: Output) -> Subscribers.Demand? { subscriber?.receive(value) }

    func send(completion: Subscribers.Completion<Failure>) { subscriber?.receive(completion: completion) }

    /// Drops the stored subscriber (a real publisher lets go of it when its stream ends; this one
    /// never does on its own, and `retry`'s driver holds the publisher: a cycle).
    func forget() { mutex.withLock { stored = nil } }
}

/// A step of a violation script. The `junk` steps are the violations; the script without them is
/// the well-behaved run an absorbing operator must be indistinguishable from.
enum ViolationStep: Equatable {
    /// The upstream hands over subscription number `n` (a legal first subscription).
    case subscription(Int)
    /// The upstream hands over subscription number `n` when it must not (a second one, or one
    /// after its completion).
    case junkSubscription(Int)
    case value(Int)
    /// A value the upstream must not send (before its subscription, or after completion/cancel).
    case junkValue(Int)
    case finish
    case fail
    case junkFinish
    case junkFail
    /// The downstream asks for more / cancels through the subscription it was given.
    case request(Subscribers.Demand)
    case cancel
    /// Records how many calls each subscription has seen so far (see `Outcome.callsAfterMark`).
    case mark
}

/// What a script run produced.
struct ViolationOutcome {
    /// The events the downstream saw, rendered (`subscription`, `value(1)`, `finished`,
    /// `failure(boom)`).
    var events: [String] = []
    /// Each numbered subscription's calls.
    var calls: [Int: [SubscriptionCall]] = [:]
    /// The calls each subscription saw after the `.mark` step.
    var callsAfterMark: [Int: [SubscriptionCall]] = [:]
    /// The demand the operator returned for each junk value.
    var junkDemands: [Subscribers.Demand?] = []
}

/// An operator under test: how to build it on a violating upstream, and how Combine treats a
/// misbehaving upstream with it.
struct ViolationCase: CustomStringConvertible, @unchecked Sendable {
    enum Kind: Sendable {
        /// Combine hands the upstream subscription straight to the downstream (no subscription of
        /// its own): every event, junk included, reaches the downstream; `render` is what value
        /// `x` becomes (nil: the operator drops values).
        /// `failuresFinish`: the case reaches the operator through `assumingNoFailure()`.
        case passThrough(render: @Sendable (Int) -> String?, failuresFinish: Bool = false)
        /// The operator has its own subscription but polices only subscriptions (Combine's
        /// `HandleEvents`): every value and completion, junk included, reaches the downstream;
        /// junk subscriptions are cancelled and not passed on; nothing reaches the upstream after
        /// the stream ended.
        case forwarding
        /// The operator has its own subscription and absorbs every violation: the run must equal
        /// the well-behaved run, junk subscriptions are cancelled, junk values get `.none`, and
        /// nothing reaches the upstream after the stream ended.
        case absorbing
    }

    let name: String
    let kind: Kind
    /// Runs `script` against the operator and returns what happened.
    let run: (_ script: [ViolationStep], _ initialDemand: Subscribers.Demand) -> ViolationOutcome

    var description: String { name }

    var isPassThrough: Bool {
        if case .passThrough = kind { return true }
        return false
    }

    /// A case whose upstream fails with `TestError`.
    static func make<P: Publisher>(
        _ name: String, _ kind: Kind = .absorbing, settle: (@Sendable () -> Void)? = nil,
        _ build: @escaping (ViolatingPublisher<Int, TestError>) -> P
    ) -> ViolationCase {
        ViolationCase(name: name, kind: kind) { script, demand in
            let upstream = ViolatingPublisher<Int, TestError>()
            return perform(script, initialDemand: demand, on: build(upstream), upstream: upstream, settle: settle)
        }
    }

    /// Runs `script`: subscribes a recorder to `operatorPublisher`, then plays each step on
    /// `upstream` (values, completions, subscriptions) or on the recorder (request, cancel),
    /// calling `settle` after each step (to run a virtual scheduler).
    static func perform<P: Publisher>(
        _ script: [ViolationStep], initialDemand: Subscribers.Demand, on operatorPublisher: P,
        upstream: ViolatingPublisher<Int, TestError>, settle: (@Sendable () -> Void)?
    ) -> ViolationOutcome {
        let recorder = Recorder<String, any Error>(initialDemand: initialDemand)
        operatorPublisher
            .map { "\($0)" }
            .mapError { $0 as any Error }
            .subscribe(recorder)
        settle?()
        var subscriptions: [Int: RecordingSubscription] = [:]
        var marked: [Int: Int] = [:]
        var outcome = ViolationOutcome()
        func subscription(_ number: Int) -> RecordingSubscription {
            if let existing = subscriptions[number] { return existing }
            let made = RecordingSubscription()
            subscriptions[number] = made
            return made
        }
        for step in script {
            switch step {
            case .subscription(let n), .junkSubscription(let n): upstream.send(subscription: subscription(n))
            case .value(let x): upstream.send(x)
            case .junkValue(let x): outcome.junkDemands.append(upstream.send(x))
            case .finish, .junkFinish: upstream.send(completion: .finished)
            case .fail, .junkFail: upstream.send(completion: .failure(TestError()))
            case .request(let demand): recorder.request(demand)
            case .cancel: recorder.cancel()
            case .mark: marked = subscriptions.mapValues { $0.history.count }
            }
            settle?()
        }
        outcome.events = recorder.events.map { event in
            // `any Error` failures render through their description, as `TestError`'s name.
            event.description
        }
        outcome.calls = subscriptions.mapValues(\.history)
        // Only the subscriptions that existed at the mark: later ones are junk, checked apart.
        for (n, count) in marked {
            outcome.callsAfterMark[n] = Array(subscriptions[n]!.history.dropFirst(count))
        }
        // A stream the script left running would keep the recorder and the operator alive
        // through each other.
        recorder.detach()
        upstream.forget()
        return outcome
    }
}

extension [ViolationStep] {
    /// The script without its violations: what a well-behaved upstream would have done.
    var legal: [ViolationStep] {
        filter {
            switch $0 {
            case .junkSubscription, .junkValue, .junkFinish, .junkFail: return false
            default: return true
            }
        }
    }

    /// The numbers of the junk subscriptions.
    var junkSubscriptions: [Int] {
        compactMap { if case .junkSubscription(let n) = $0 { return n } else { return nil } }
    }

    /// What a forwarding operator (Combine's `HandleEvents`) delivers for this script: every
    /// value and completion, junk included; the first subscription only.
    var forwardedEvents: [String] {
        compactMap { step -> String? in
            switch step {
            case .subscription: return "subscription"
            case .value(let x), .junkValue(let x): return "value(\(x))"
            case .finish, .junkFinish: return "finished"
            case .fail, .junkFail: return "failure(boom)"
            case .junkSubscription, .request, .cancel, .mark: return nil
            }
        }
    }

    /// What a pass-through operator (Combine's `Map`, `Filter`...) delivers for this script: every
    /// upstream event, junk included, and the downstream's subscription calls go to the upstream
    /// untouched.
    func passThroughEvents(render: (Int) -> String?, failuresFinish: Bool) -> [String] {
        compactMap { step -> String? in
            switch step {
            case .subscription, .junkSubscription: return "subscription"
            case .value(let x), .junkValue(let x): return render(x).map { "value(\($0))" }
            case .finish, .junkFinish: return "finished"
            case .fail, .junkFail: return failuresFinish ? "finished" : "failure(boom)"
            case .request, .cancel, .mark: return nil
            }
        }
    }
}

/// A pass-through publisher that turns an upstream failure into `.finished`, for operators that
/// need `Failure == Never` (`setFailureType`, `assertNoFailure`): it holds no state, so every
/// violation of the upstream reaches the operator unchanged.
struct AssumingNoFailure<Upstream: Publisher>: Publisher {
    typealias Output = Upstream.Output
    typealias Failure = Never
    let upstream: Upstream

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        upstream.subscribe(
            AnySubscriber<Output, Upstream.Failure>(
                receiveSubscription: { subscriber.receive(subscription: $0) },
                receiveValue: { subscriber.receive($0) },
                receiveCompletion: { _ in subscriber.receive(completion: .finished) }))
    }
}

extension Publisher {
    /// This publisher with failures turned into `.finished` (see `AssumingNoFailure`).
    func assumingNoFailure() -> AssumingNoFailure<Self> { AssumingNoFailure(upstream: self) }
}
