import PodcastStore

/// When to poll a feed next: the per-feed interval with jitter, exponential backoff on
/// transient failures, and the 404/410 rules. A pure value: no clock, no I/O; randomness comes
/// from the generator passed in, so tests get exact numbers.
///
/// All durations are in **seconds** (`Double`).
///
/// - Success (`fetched`, `notModified`): `interval ± jitter`, failures reset.
/// - Transient failure (network error, timeout, 5xx, 429, unparseable body): failure `n`
///   (1-based) waits `min(cap, initialBackoff × multiplier^(n-1))`, plus jitter. `cap` is
///   `max(maxBackoff, interval)`, so a slow feed is never polled *more* often because it fails.
/// - `Retry-After` (RFC 9110 §10.2.3, sent with a 429 or 503): the wait is the longer of that
///   backoff and the server's delay, the latter capped at `maxRetryAfter` (24 h) so a bogus
///   header cannot park a feed for weeks. A short or past `Retry-After` never shortens the
///   backoff.
/// - `404` and other 4xx: the feed is *failing*; it keeps being polled on the same backoff.
/// - `410 Gone`: the feed is *disabled*; no more polls.
///
/// Jitter spreads polls so that feeds added together do not stay in lockstep: a delay `d` becomes
/// `d × (1 + jitterFraction × (2u − 1))` with `u` uniform in `[0, 1)` drawn from the generator.
public struct PollPolicy: Sendable, Equatable {
    /// The interval for feeds without their own, in seconds. Default one hour.
    public var defaultInterval: Double
    /// The fraction of a delay by which jitter may move it either way (0 disables jitter).
    public var jitterFraction: Double
    /// The wait after the first transient failure, in seconds.
    public var initialBackoff: Double
    /// The factor each further consecutive failure multiplies the wait by.
    public var backoffMultiplier: Double
    /// The longest backoff, in seconds (raised to the feed's interval when that is longer).
    public var maxBackoff: Double
    /// The longest server `Retry-After` honoured, in seconds. Default 24 h.
    public var maxRetryAfter: Double
    /// The longest interval a feed's own stated schedule (`podcast:updateFrequency`) may stretch
    /// its polling to, in seconds. Default 24 h.
    public var maxHintedInterval: Double = 24 * 3600

    /// The default interval: one hour.
    public static let defaultIntervalSeconds: Double = 3600
    /// The longest interval, in seconds: 30 days. Longer ones, wherever they come from (OPML
    /// `pw:interval`, a stored row, a policy), count as this; `add --interval` and
    /// `run --interval` refuse them.
    public static let maximumIntervalSeconds = FeedRecord.maximumIntervalSeconds
    /// The longest delay the daemon ever schedules, in seconds: 30 days (`clampedDelay`).
    public static let maximumDelay = Double(maximumIntervalSeconds)

    /// `seconds` made safe to arm a timer with: within `0...maximumDelay`, and `maximumDelay`
    /// for NaN. A 1e10 s interval once armed libevent for 292 years (and overflowed the
    /// monotonic deadline), freezing every other timer of the loop.
    public static func clampedDelay(_ seconds: Double) -> Double {
        guard !seconds.isNaN else { return maximumDelay }
        return min(max(0, seconds), maximumDelay)
    }

    /// A policy; the defaults are 1 h interval, ±10 % jitter, backoff 5 min × 2 up to 12 h,
    /// `Retry-After` honoured up to 24 h.
    public init(
        defaultInterval: Double = PollPolicy.defaultIntervalSeconds, jitterFraction: Double = 0.1,
        initialBackoff: Double = 300, backoffMultiplier: Double = 2, maxBackoff: Double = 12 * 3600,
        maxRetryAfter: Double = 24 * 3600
    ) {
        self.defaultInterval = defaultInterval
        self.jitterFraction = jitterFraction
        self.initialBackoff = initialBackoff
        self.backoffMultiplier = backoffMultiplier
        self.maxBackoff = maxBackoff
        self.maxRetryAfter = maxRetryAfter
    }

    /// How a poll ended, as far as scheduling cares.
    public enum Outcome: Sendable, Equatable {
        /// A full response that parsed.
        case fetched
        /// `304 Not Modified`.
        case notModified
        /// No HTTP answer: DNS, connect, TLS, timeout, size limit, redirect loop.
        case networkError
        /// An HTTP error status (any 4xx/5xx), with the server's `Retry-After` in seconds if any.
        case httpError(status: Int, retryAfter: Double?)
        /// A 2xx body that was not a feed.
        case unparseable
    }

    /// A feed's scheduling health after an outcome: the store's `FeedHealth` (the store keeps
    /// it, `list` and the events show it; the policy decides it).
    public typealias Health = FeedHealth

    /// What to do after an outcome.
    public struct Decision: Sendable, Equatable {
        /// The new health.
        public var health: Health
        /// Consecutive failures including this one (0 after a success).
        public var consecutiveFailures: Int
        /// Seconds until the next poll; `nil` when disabled.
        public var delay: Double?

        /// A decision.
        public init(health: Health, consecutiveFailures: Int, delay: Double?) {
            self.health = health
            self.consecutiveFailures = consecutiveFailures
            self.delay = delay
        }
    }

    /// The decision after `outcome`, given the failures before it and the feed's own interval
    /// (seconds; `nil` for `defaultInterval`). Draws one value from `rng` unless disabled. The
    /// delay is at most `maximumDelay`.
    public func decide<R: RandomNumberGenerator>(
        after outcome: Outcome, previousFailures: Int, interval: Double?, using rng: inout R
    ) -> Decision {
        var decision = undecoratedDecision(
            after: outcome, previousFailures: previousFailures, interval: interval, using: &rng)
        decision.delay = decision.delay.map(PollPolicy.clampedDelay)  // whatever the policy's own numbers
        return decision
    }

    private func undecoratedDecision<R: RandomNumberGenerator>(
        after outcome: Outcome, previousFailures: Int, interval: Double?, using rng: inout R
    ) -> Decision {
        let every = effectiveInterval(interval)
        switch outcome {
        case .fetched, .notModified:
            return Decision(health: .ok, consecutiveFailures: 0, delay: jittered(every, &rng))
        case .httpError(status: 410, _):
            return Decision(
                health: .disabled, consecutiveFailures: (previousFailures == .max ? .max : previousFailures + 1),
                delay: nil)
        case .httpError(let status, let retryAfter):
            let n = (previousFailures == .max ? .max : previousFailures + 1)
            let health = Health.afterFailure(httpStatus: status)
            return Decision(
                health: health, consecutiveFailures: n,
                delay: backoffDelay(failures: n, interval: every, retryAfter: retryAfter, &rng))
        case .networkError, .unparseable:
            let n = (previousFailures == .max ? .max : previousFailures + 1)
            return Decision(
                health: .backingOff, consecutiveFailures: n,
                delay: backoffDelay(failures: n, interval: every, retryAfter: nil, &rng))
        }
    }

    /// Convenience for the system generator.
    public func decide(after outcome: Outcome, previousFailures: Int, interval: Double?) -> Decision {
        var rng = SystemRandomNumberGenerator()
        return decide(after: outcome, previousFailures: previousFailures, interval: interval, using: &rng)
    }

    /// Seconds from now until the first poll of a feed when the daemon starts: 0 if it was never
    /// checked, has no scheduled time, or is overdue; else the time left until `nextPoll`,
    /// clamped (in case the wall clock jumped, or `set --interval` lowered the interval) to:
    /// exactly one interval for a healthy feed (`failures` 0), without its jitter, so a feed
    /// scheduled with positive jitter may be polled up to `interval × jitterFraction` early after
    /// a restart, and a shorter interval applies at once on a reload; for one backing off
    /// (`failures` > 0, the stored consecutive failures) the longest delay `decide` could have
    /// scheduled, its backoff with full jitter or `maxRetryAfter`, whichever is longer, so a
    /// restart does not undo a backoff or a server's `Retry-After`. `now`/`nextPoll` are Unix
    /// seconds.
    public func initialDelay(nextPoll: Double?, now: Double, interval: Double?, failures: Int = 0) -> Double {
        guard let nextPoll else { return 0 }
        return min(max(0, nextPoll - now), longestScheduledDelay(interval: interval, failures: failures))
    }

    /// The cap `initialDelay` applies for a feed with `failures` consecutive failures and its own
    /// `interval`, in seconds, at most `maximumDelay`: one interval when healthy (its jitter not
    /// added), else the longest delay `decide` can schedule.
    func longestScheduledDelay(interval: Double?, failures: Int) -> Double {
        let every = effectiveInterval(interval)
        guard failures > 0 else { return every }
        let backedOff = backoff(failures: failures, interval: interval) * (1 + max(0, jitterFraction))
        return PollPolicy.clampedDelay(max(every, backedOff, maxRetryAfter))
    }

    /// The backoff before jitter for the `failures`-th consecutive failure (1-based), in seconds.
    public func backoff(failures: Int, interval: Double?) -> Double {
        let cap = max(maxBackoff, effectiveInterval(interval))
        var delay = initialBackoff
        var n = 1
        while n < failures && delay < cap {
            delay *= backoffMultiplier
            n += 1
        }
        return min(delay, cap)
    }

    /// The interval for a feed without one of its own whose document states a schedule
    /// (`podcast:updateFrequency`, `UpdateFrequency.statedInterval`): a quarter of the stated
    /// time between episodes, so a new one is found within a quarter of its period, and for a
    /// show that says it is complete the longest; always within the configured bounds, never
    /// shorter than `effectiveInterval(base)` (the configured interval) nor longer than
    /// `maxHintedInterval` (unless the configured interval is longer). `nil` when the feed states
    /// no usable schedule: poll at the configured interval. The hint only ever slows polling.
    public func hintedInterval(stated: Double?, complete: Bool, base: Double?) -> Double? {
        let floor = effectiveInterval(base)
        let ceiling = max(floor, PollPolicy.clampedDelay(maxHintedInterval))
        if complete { return ceiling }
        guard let stated, stated.isFinite, stated > 0 else { return nil }
        return min(max(stated / 4, floor), ceiling)
    }

    /// The interval used for a feed whose own is `interval` (seconds); non-positive or NaN means
    /// default; the result is at most `maximumDelay`.
    public func effectiveInterval(_ interval: Double?) -> Double {
        if let interval, interval > 0 { return PollPolicy.clampedDelay(interval) }
        return defaultInterval > 0 ? PollPolicy.clampedDelay(defaultInterval) : PollPolicy.defaultIntervalSeconds
    }

    private func backoffDelay<R: RandomNumberGenerator>(
        failures: Int, interval: Double, retryAfter: Double?, _ rng: inout R
    ) -> Double {
        let delay = jittered(backoff(failures: failures, interval: interval), &rng)
        guard let retryAfter, retryAfter > 0 else { return delay }
        return max(delay, min(retryAfter, maxRetryAfter))
    }

    private func jittered<R: RandomNumberGenerator>(_ delay: Double, _ rng: inout R) -> Double {
        let u = Double(rng.next() >> 11) / Double(UInt64(1) << 53)  // uniform in [0, 1)
        guard jitterFraction > 0 else { return delay }
        return delay * (1 + jitterFraction * (2 * u - 1))
    }
}
