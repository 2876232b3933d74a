/// A publisher that builds a fresh publisher for each subscriber, as Combine's `Deferred`.
///
/// `createPublisher` runs on the subscribing thread, once per subscription, when `subscribe` is
/// called (not before).
public struct Deferred<DeferredPublisher: Publisher>: Publisher {
    /// The output of the built publisher.
    public typealias Output = DeferredPublisher.Output
    /// The failure of the built publisher.
    public typealias Failure = DeferredPublisher.Failure

    /// The closure that builds the publisher for each subscriber.
    public let createPublisher: () -> DeferredPublisher

    /// Creates a deferred publisher from `createPublisher`.
    public init(createPublisher: @escaping () -> DeferredPublisher) {
        self.createPublisher = createPublisher
    }

    /// Builds a publisher and subscribes `subscriber` to it.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        createPublisher().subscribe(subscriber)
    }
}
