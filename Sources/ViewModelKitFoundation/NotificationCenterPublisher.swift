import Foundation

extension NotificationCenter {
    /// A publisher of the notifications a center posts, as Foundation's
    /// `NotificationCenter.Publisher`.
    ///
    /// Each subscriber gets its own observer (added at subscription, removed on cancel). A
    /// notification is delivered on the posting thread if the subscriber has demand, and dropped
    /// otherwise, as Combine does. It never completes.
    public struct Publisher: ViewModelKit.Publisher, @unchecked Sendable {
        /// The posted notification.
        public typealias Output = Notification
        /// Observing cannot fail.
        public typealias Failure = Never

        /// The observed center.
        public let center: NotificationCenter
        /// The observed name.
        public let name: Notification.Name
        /// Only notifications from this sender (`nil`: any sender).
        public let object: AnyObject?

        /// A publisher of `name` notifications from `object` (any if `nil`) posted to `center`.
        public init(center: NotificationCenter, name: Notification.Name, object: AnyObject? = nil) {
            self.center = center
            self.name = name
            self.object = object
        }

        /// Adds an observer for `subscriber`.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription = NotificationSubscription(downstream: subscriber, center: center)
            subscriber.receive(subscription: subscription)
            subscription.observe(name: name, object: object)
        }
    }

    /// A publisher of this center's `name` notifications from `object` (any if `nil`), as
    /// Foundation's `publisher(for:object:)`.
    public func publisher(for name: Notification.Name, object: AnyObject? = nil) -> NotificationCenter.Publisher {
        Publisher(center: self, name: name, object: object)
    }
}

extension NotificationCenter.Publisher: Equatable {
    /// The same center, name and sender object, as Foundation's conformance.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.center === rhs.center && lhs.name == rhs.name && lhs.object === rhs.object
    }
}

/// What the observer block calls: non-generic, so the `@Sendable` block captures no generic
/// metatype.
private protocol NotificationSink: AnyObject, Sendable {
    func deliver(_ notification: Notification)
}

/// One subscriber's observer: delivers within demand, removed on cancel.
private final class NotificationSubscription<Downstream: Subscriber>: Subscription, NotificationSink,
    CustomStringConvertible, @unchecked Sendable
where Downstream.Input == Notification, Downstream.Failure == Never {
    private let lock = NSLock()
    private let center: NotificationCenter
    // Guarded by `lock`.
    private var downstream: Downstream?
    private var demand = Subscribers.Demand.none
    private var observer: NSObjectProtocol?

    init(downstream: Downstream, center: NotificationCenter) {
        self.downstream = downstream
        self.center = center
    }

    var description: String { "NotificationCenter Observer" }

    func observe(name: Notification.Name, object: AnyObject?) {
        weak let sink: (any NotificationSink)? = self
        let token = center.addObserver(forName: name, object: object, queue: nil) { sink?.deliver($0) }
        let keep = lock.withLock { () -> Bool in
            guard downstream != nil else { return false }
            observer = token
            return true
        }
        if !keep { center.removeObserver(token) }
    }

    func deliver(_ notification: Notification) {
        lock.lock()
        guard let target = downstream, demand > 0 else { return lock.unlock() }
        demand -= 1
        lock.unlock()
        let more = target.receive(notification)
        lock.withLock { demand += more }
    }

    func request(_ more: Subscribers.Demand) {
        lock.withLock { demand += more }
    }

    func cancel() {
        let (token, target) = lock.withLock { () -> (NSObjectProtocol?, Downstream?) in
            defer {
                observer = nil
                downstream = nil
            }
            return (observer, downstream)
        }
        if let token { center.removeObserver(token) }
        withExtendedLifetime(target) {}
    }
}
