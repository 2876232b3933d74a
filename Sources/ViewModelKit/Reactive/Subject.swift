/// A publisher you can push values into, as Combine's `Subject`.
///
/// `send` may be called from any thread; each subject documents how it serialises delivery.
public protocol Subject<Output, Failure>: AnyObject, Publisher {
    /// Sends `value` to every subscriber with outstanding demand.
    func send(_ value: Output)
    /// Ends the stream for every subscriber; later sends are ignored.
    func send(completion: Subscribers.Completion<Failure>)
    /// Gives an upstream subscription to the subject (used by `subscribe(_:)` of a subject);
    /// subjects request unlimited demand from it.
    func send(subscription: Subscription)
}

extension Subject where Output == Void {
    /// Sends `()`.
    public func send() {
        send(())
    }
}
