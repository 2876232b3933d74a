/// A type-erasing publisher, as Combine's `AnyPublisher`: it hides the wrapped publisher's type
/// and forwards subscriptions to it unchanged (same values, demand, completion and threads).
public struct AnyPublisher<Output, Failure: Error>: Publisher, CustomStringConvertible {
    private let box: PublisherBoxBase<Output, Failure>

    /// Wraps `publisher`. Wrapping an `AnyPublisher` again does not nest.
    public init<P: Publisher>(_ publisher: P) where P.Output == Output, P.Failure == Failure {
        if let erased = publisher as? AnyPublisher<Output, Failure> {
            self = erased
        } else {
            box = PublisherBox(publisher)
        }
    }

    /// `"AnyPublisher"`, as Combine's description.
    public var description: String { "AnyPublisher" }

    /// Subscribes `subscriber` to the wrapped publisher.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        box.receive(subscriber: subscriber)
    }
}

/// Class-based erasure: a virtual generic method keeps the subscriber's concrete type.
class PublisherBoxBase<Output, Failure: Error>: @unchecked Sendable {
    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {}
}

final class PublisherBox<P: Publisher>: PublisherBoxBase<P.Output, P.Failure>, @unchecked Sendable {
    let base: P
    init(_ base: P) { self.base = base }
    override func receive<S: Subscriber>(subscriber: S) where S.Input == P.Output, S.Failure == P.Failure {
        base.subscribe(subscriber)
    }
}

extension Publisher {
    /// Wraps this publisher in an `AnyPublisher`, as Combine's `eraseToAnyPublisher()`.
    public func eraseToAnyPublisher() -> AnyPublisher<Output, Failure> {
        AnyPublisher(self)
    }
}

extension AnyPublisher {
    /// Returns `self`: erasing twice does not nest.
    public func eraseToAnyPublisher() -> AnyPublisher<Output, Failure> { self }
}
