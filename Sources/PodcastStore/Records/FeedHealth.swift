/// A feed's polling health: the one vocabulary of `list`, `list --json`, the terminal table,
/// the dashboard and `feed_error` events. The engine's `PollPolicy` decides it after each poll
/// (`PollPolicy.Health` is this type); the store keeps what it needs to read it back
/// (`FeedRecord.health`).
public enum FeedHealth: String, Sendable, Equatable {
    /// Polling normally.
    case ok
    /// A transient failure: retrying with backoff (network, 5xx, 429, unparseable).
    case backingOff = "backing-off"
    /// A 404 or another 4xx: still polled with backoff, but likely broken.
    case failing
    /// A 410 Gone: never polled again.
    case disabled

    /// The health after a failed poll that got `httpStatus` (`nil`: no HTTP answer, or an
    /// unparseable body): `failing` for a 4xx other than 408/429 (404 above all),
    /// `disabled` for 410, else `backingOff`. The one rule behind every status word.
    public static func afterFailure(httpStatus: Int?) -> FeedHealth {
        guard let status = httpStatus else { return .backingOff }
        if status == 410 { return .disabled }
        return (400..<500).contains(status) && status != 429 && status != 408 ? .failing : .backingOff
    }
}
