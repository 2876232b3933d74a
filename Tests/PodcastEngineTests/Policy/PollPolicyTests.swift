import PodcastDaemonTestSupport
import Testing

@testable import PodcastEngine

/// Returns the given values in turn, then repeats the last.
struct SequenceRNG: RandomNumberGenerator {
    var values: [UInt64]
    var index = 0
    init(_ values: UInt64...) { self.values = values }
    mutating func next() -> UInt64 {
        defer { index = min(index + 1, values.count - 1) }
        return values[index]
    }
    static let low: UInt64 = 0  // u = 0: jitter −fraction
    static let mid: UInt64 = 1 << 63  // u = 0.5: no jitter
}

@Suite struct PollPolicyTests {
    let policy = PollPolicy()
    var mid = SequenceRNG(SequenceRNG.mid)

    @Test mutating func successUsesTheIntervalWithJitter() {
        #expect(
            policy.decide(after: .fetched, previousFailures: 4, interval: nil, using: &mid)
                == .init(health: .ok, consecutiveFailures: 0, delay: 3600))
        var low = SequenceRNG(SequenceRNG.low)
        #expect(policy.decide(after: .notModified, previousFailures: 0, interval: 600, using: &low).delay == 540)
        var high = SequenceRNG(UInt64.max)  // u just under 1: close to +10 %
        let d = policy.decide(after: .fetched, previousFailures: 0, interval: 1000, using: &high).delay!
        #expect(d > 1099.99 && d <= 1100)
    }

    @Test func aStatedScheduleOnlyEverSlowsPollingWithinTheBounds() {
        // A quarter of the stated period, between the configured interval and 24 h.
        #expect(policy.hintedInterval(stated: 86_400, complete: false, base: nil) == 21_600)
        #expect(policy.hintedInterval(stated: 7 * 86_400, complete: false, base: nil) == 86_400)
        #expect(policy.hintedInterval(stated: 60, complete: false, base: nil) == 3600)
        #expect(policy.hintedInterval(stated: 86_400, complete: false, base: 30_000) == 30_000)
        #expect(policy.hintedInterval(stated: nil, complete: true, base: nil) == 86_400)
        #expect(policy.hintedInterval(stated: nil, complete: true, base: 172_800) == 172_800)
        #expect(policy.hintedInterval(stated: nil, complete: false, base: nil) == nil)
        #expect(policy.hintedInterval(stated: .nan, complete: false, base: nil) == nil)
    }

    @Test mutating func networkErrorsBackOffExponentiallyToTheCap() {
        let delays = (0..<10).map {
            policy.decide(after: .networkError, previousFailures: $0, interval: nil, using: &mid).delay!
        }
        #expect(delays == [300, 600, 1200, 2400, 4800, 9600, 19200, 38400, 43200, 43200])
        #expect(
            policy.decide(after: .networkError, previousFailures: 2, interval: nil, using: &mid)
                == .init(health: .backingOff, consecutiveFailures: 3, delay: 1200))
    }

    @Test mutating func capIsNeverBelowTheFeedInterval() {
        #expect(
            policy.decide(after: .networkError, previousFailures: 20, interval: 86_400, using: &mid).delay == 86_400)
        #expect(policy.backoff(failures: 1_000_000, interval: nil) == 43_200)
    }

    @Test mutating func serverErrorsBackOffAndHonourRetryAfter() {
        #expect(
            policy.decide(
                after: .httpError(status: 500, retryAfter: nil), previousFailures: 0, interval: nil, using: &mid)
                == .init(health: .backingOff, consecutiveFailures: 1, delay: 300))
        #expect(
            policy.decide(
                after: .httpError(status: 503, retryAfter: 7200), previousFailures: 0, interval: nil, using: &mid
            ).delay == 7200)
        // Capped at 24 h (above the 12 h backoff cap), never below the backoff.
        #expect(
            policy.decide(
                after: .httpError(status: 429, retryAfter: 999_999), previousFailures: 0, interval: nil, using: &mid)
                == .init(health: .backingOff, consecutiveFailures: 1, delay: 86_400))
        #expect(
            policy.decide(
                after: .httpError(status: 503, retryAfter: 10), previousFailures: 2, interval: nil, using: &mid
            ).delay == 1200)
        #expect(
            policy.decide(
                after: .httpError(status: 503, retryAfter: 0), previousFailures: 0, interval: nil, using: &mid
            ).delay == 300)
        #expect(
            PollPolicy(maxRetryAfter: 3600).decide(
                after: .httpError(status: 503, retryAfter: 7200), previousFailures: 0, interval: nil, using: &mid
            ).delay == 3600)
    }

    @Test mutating func notFoundIsFailingButStillPolled() {
        #expect(
            policy.decide(
                after: .httpError(status: 404, retryAfter: nil), previousFailures: 1, interval: nil, using: &mid)
                == .init(health: .failing, consecutiveFailures: 2, delay: 600))
        #expect(
            policy.decide(
                after: .httpError(status: 403, retryAfter: nil), previousFailures: 0, interval: nil, using: &mid
            ).health == .failing)
    }

    @Test mutating func goneDisables() {
        #expect(
            policy.decide(
                after: .httpError(status: 410, retryAfter: nil), previousFailures: 0, interval: nil, using: &mid)
                == .init(health: .disabled, consecutiveFailures: 1, delay: nil))
    }

    @Test mutating func unparseableBodiesBackOff() {
        var low = SequenceRNG(SequenceRNG.low)
        #expect(
            policy.decide(after: .unparseable, previousFailures: 0, interval: nil, using: &low)
                == .init(health: .backingOff, consecutiveFailures: 1, delay: 270))
    }

    @Test func noJitterWhenFractionIsZero() {
        let p = PollPolicy(defaultInterval: 60, jitterFraction: 0)
        var rng = SequenceRNG(SequenceRNG.low)
        #expect(p.decide(after: .fetched, previousFailures: 0, interval: nil, using: &rng).delay == 60)
    }

    @Test func initialDelay() {
        #expect(policy.initialDelay(nextPoll: nil, now: 1000, interval: nil) == 0)
        #expect(policy.initialDelay(nextPoll: 900, now: 1000, interval: nil) == 0)
        #expect(policy.initialDelay(nextPoll: 1500, now: 1000, interval: nil) == 500)
        #expect(policy.initialDelay(nextPoll: 1_000_000, now: 1000, interval: 60) == 60)
        // Healthy: one interval, its jitter not added (a +50 % jitter's 85 s is cut to 60).
        #expect(PollPolicy(jitterFraction: 0.5).initialDelay(nextPoll: 1085, now: 1000, interval: 60) == 60)
        #expect(policy.effectiveInterval(0) == 3600)
    }

    /// A restart keeps a backing-off feed's stored next poll (its backoff, or a server's
    /// `Retry-After`), even beyond its interval; a healthy feed stays capped at one interval.
    @Test func initialDelayHonoursBackoffAcrossRestarts() {
        // Failing, next poll in 10 min, interval lowered to 1 min: 600 s, not 60.
        #expect(policy.initialDelay(nextPoll: 1600, now: 1000, interval: 60, failures: 1) == 600)
        // Retry-After of 5 h (default interval 1 h): 18,000 s, not 3,600.
        #expect(policy.initialDelay(nextPoll: 19_000, now: 1000, interval: nil, failures: 3) == 18_000)
        // Ten failures: 12 h backoff with +10 % jitter: 47,520 s is a delay it could have scheduled.
        #expect(policy.initialDelay(nextPoll: 48_520, now: 1000, interval: nil, failures: 10) == 47_520)
        // A clock jump: no more than the longest it could have scheduled, Retry-After's 24 h.
        #expect(policy.initialDelay(nextPoll: 10_000_000, now: 1000, interval: 60, failures: 2) == 86_400)
        // An interval above the backoff cap: the interval is the backoff, with jitter (2 days × 1.5).
        #expect(
            PollPolicy(jitterFraction: 0.5).initialDelay(nextPoll: 1e9, now: 0, interval: 2 * 86_400, failures: 20)
                == 259_200)
        // Healthy: capped at one (lowered) interval, as before.
        #expect(policy.initialDelay(nextPoll: 1600, now: 1000, interval: 60, failures: 0) == 60)
        #expect(policy.initialDelay(nextPoll: 9000, now: 1000, interval: nil, failures: 0) == 3600)
        #expect(policy.initialDelay(nextPoll: 900, now: 1000, interval: nil, failures: 4) == 0)
    }
}
