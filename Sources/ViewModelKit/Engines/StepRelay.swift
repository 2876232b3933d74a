/// What a one-upstream operator does with one value (see `StepRelay`).
enum StepOutcome<Output> {
    /// Publish this value; the subscriber's answer is the demand returned upstream.
    case emit(Output)
    /// Drop the value and ask upstream for one more in its place.
    case skip
    /// Drop the value, cancel upstream and finish.
    case finish
}

/// The subscription of the one-upstream operators that may end the stream themselves: the `try`
/// forms (`tryFilter`, `tryCompactMap`, `tryScan`, `tryRemoveDuplicates(by:)`) and
/// `prefix(while:)`/`drop(while:)` with their `try` forms.
///
/// Each value goes through `step`, which says what to do with it; a thrown error cancels upstream
/// and fails the stream, as Combine's `try` operators do. Nothing is forwarded after the stream has
/// ended or the subscriber cancelled. Demand passes straight through (`.skip` adds one). `step` is
/// made per subscription and called only from the serial receive calls, so the state it captures
/// needs no lock. `UpstreamFailure` is mapped to the downstream's with `convertFailure`.
final class StepRelay<Input, UpstreamFailure: Error, Downstream: Subscriber>: UpstreamRelay<Downstream>, Subscriber,
    @unchecked Sendable
{
    typealias Failure = UpstreamFailure

    private let step: (Input) throws(Downstream.Failure) -> StepOutcome<Downstream.Input>
    private let convertFailure: (UpstreamFailure) -> Downstream.Failure
    // Touched only by the serial receive calls.
    private var ended = false

    init(
        downstream: Downstream, name: String,
        step: @escaping (Input) throws(Downstream.Failure) -> StepOutcome<Downstream.Input>,
        convertFailure: @escaping (UpstreamFailure) -> Downstream.Failure
    ) {
        self.step = step
        self.convertFailure = convertFailure
        super.init(downstream: downstream, name: name)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        // After the stream ended, or once the subscriber cancelled (upstream is then forgotten),
        // nothing more is delivered, as Combine.
        if ended || lock.withLock({ upstream == nil }) { return .none }
        do {
            switch try step(input) {
            case .emit(let value): return downstream?.receive(value) ?? .none
            case .skip: return .max(1)
            case .finish: end(.finished)
            }
        } catch {
            end(.failure(error))
        }
        return .none
    }

    /// The operator ends the stream itself: upstream is cancelled first.
    private func end(_ completion: Subscribers.Completion<Downstream.Failure>) {
        ended = true
        takeUpstream()?.cancel()
        complete(completion)
    }

    func receive(completion: Subscribers.Completion<UpstreamFailure>) {
        if ended || !admitsCompletion() { return }
        ended = true
        switch completion {
        case .finished: forward(.finished)
        case .failure(let error): forward(.failure(convertFailure(error)))
        }
    }
}

extension StepRelay where Downstream.Failure == UpstreamFailure {
    /// A relay whose step cannot throw and whose failures pass unchanged.
    convenience init(downstream: Downstream, name: String, step: @escaping (Input) -> StepOutcome<Downstream.Input>) {
        self.init(downstream: downstream, name: name, step: step, convertFailure: { $0 })
    }
}

extension StepRelay where Downstream.Failure == any Error {
    /// The relay of a `try` operator: the step may throw, upstream failures become `any Error`.
    convenience init(
        throwingTo downstream: Downstream, name: String, step: @escaping (Input) throws -> StepOutcome<Downstream.Input>
    ) {
        self.init(downstream: downstream, name: name, step: step, convertFailure: { $0 })
    }
}
