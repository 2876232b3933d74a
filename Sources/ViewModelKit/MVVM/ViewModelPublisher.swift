/// The projected value of `@ViewModel` (`$property`): the model after each change, on the
/// observer's `updateScheduler`.
///
/// - For an `ObservableObject` model it behaves exactly as `model.observe(on: updateScheduler)`
///   (`ObjectDidChangePublisher`): coalesced per turn, current model at once on first demand, pending
///   changes kept while demand is zero, `.finished` when the model dies.
/// - For any other model (including Swift Observation models, whose changes are only known
///   through what `updateView()` reads) it emits the current model once, at once on the first
///   demand, and then finishes.
/// - It captures the model current when `$property` was read; a later reassignment is not
///   followed (read `$property` again).
public struct ViewModelPublisher<Model: AnyObject>: Publisher {
    /// The model itself.
    public typealias Output = Model
    /// Never fails.
    public typealias Failure = Never

    private let attach:
        (
            _ deliver: @escaping (Model) -> Subscribers.Demand, _ complete: @escaping () -> Void
        ) -> Subscription

    /// The did-change publisher of `model` on `scheduler` (with no options).
    public init<S: EventSourceScheduler>(model: Model, scheduler: S) {
        if let observable = model as? any ObservableObject {
            attach = Self.didChange(of: observable, scheduler: scheduler)
        } else {
            weak let weakModel = model
            attach = { deliver, complete in
                let subscription = DidChangeSubscription<Model, S>(
                    object: weakModel, oneShot: true, deliver: deliver, complete: complete)
                subscription.start(scheduler: scheduler, options: nil, willChange: Empty<Void, Never>?.none)
                return subscription
            }
        }
    }

    private static func didChange<Object: ObservableObject, S: EventSourceScheduler>(
        of object: Object, scheduler: S
    ) -> (@escaping (Model) -> Subscribers.Demand, @escaping () -> Void) -> Subscription {
        weak let weakObject = object
        return { deliver, complete in
            let subscription = DidChangeSubscription<Object, S>(
                object: weakObject,
                // Object is the model's dynamic type, so the cast always succeeds.
                deliver: { deliver($0 as! Model) },
                complete: complete)
            subscription.start(scheduler: scheduler, options: nil, willChange: weakObject?.objectWillChange)
            return subscription
        }
    }

    /// Attaches `subscriber`; values and the completion arrive on the scheduler.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Model, S.Failure == Never {
        let subscription = attach({ subscriber.receive($0) }, { subscriber.receive(completion: .finished) })
        subscriber.receive(subscription: subscription)
    }
}
