import Foundation
import LoopScheduler
import PodcastFeeds
import PodcastStore

// Poll scheduling: which feeds the daemon knows (its slots), when each is polled next, and the
// one scheduler timer behind every next poll and parse budget (`PollDeadlines`). Nothing here
// touches the store or the outputs; the delivery ledger is elsewhere (`PodcastDaemon+Delivery`).
extension PodcastDaemon {
    func register(_ record: FeedRecord, publish: Bool = true) {
        if let old = slots[record.id], old.isFetching { release(old) }
        slots[record.id] = PollSlot(record, hosts: &hosts)
        inFlight[record.id] = nil
        trackOnce(record.id)
        if publish { library.upsert(snapshot(record, keeping: nil)) }
    }

    // Keeps `unpolled` in step with slot `id` (call after its record or `polledOnce` changed).
    func trackOnce(_ id: Int64) {
        if let slot = slots[id], slot.enabled, !slot.polledOnce {
            unpolled.insert(id)
        } else {
            unpolled.remove(id)
        }
    }

    func startPolling(_ record: FeedRecord, pollNow: Bool) {
        guard record.enabled else { return }
        if pollNow {
            poll(record.id)
        } else {
            let delay = configuration.policy.initialDelay(
                nextPoll: record.nextPoll?.timeIntervalSince1970, now: now().timeIntervalSince1970,
                interval: interval(of: record), failures: record.failureCount)
            if delay <= 0 { poll(record.id) } else { schedule(record.id, after: delay) }
        }
    }

    func drop(_ id: Int64) {
        guard let slot = slots.removeValue(forKey: id) else { return }
        if slot.isFetching { release(slot) }
        waitingSet.remove(id)
        unpolled.remove(id)
        let tokens = inFlight.removeValue(forKey: id)
        tokens?.fetch?.cancel()
        tokens?.parse?.cancel()
        library.remove(id: id)
        if slot.isFetching { startHostWaiting(slot.fetchHost) }
        startWaiting()
    }

    func schedule(_ id: Int64, after delay: Double) {
        guard slots[id] != nil else { return }
        let seconds = PollPolicy.clampedDelay(delay)  // never a timer for 292 years
        slots[id]!.generation &+= 1
        let generation = slots[id]!.generation
        library.update(id: id) { $0.nextPoll = self.now().addingTimeInterval(seconds) }
        queueDeadline(scheduler.now.advanced(by: .seconds(seconds)), id: id, stamp: generation, kind: .poll)
    }

    // MARK: Deadlines

    /// Scheduler timers pending for the daemon's polls and parse budgets: 0 or 1 (for tests).
    var deadlineTimerCount: Int { deadlineTimer == nil ? 0 : 1 }

    /// Entries in the deadline heap, live and stale (for tests).
    var deadlineEntryCount: Int { deadlines.count }

    /// Seconds from the scheduler's now to each feed's scheduled poll, sorted (for tests).
    var pendingPollDelays: [Double] {
        var copy = deadlines
        var delays: [Double] = []
        let end = MonotonicInstant(nanoseconds: .max)
        while let entry = copy.popDue(at: end) {
            guard entry.kind == .poll && isLive(entry) else { continue }
            delays.append(Double(scheduler.now.distance(to: entry.deadline).nanoseconds) / 1e9)
        }
        return delays
    }

    func queueDeadline(_ deadline: MonotonicInstant, id: Int64, stamp: UInt32, kind: PollDeadlines.Kind) {
        // Stale entries (a feed rescheduled, a parse done) leave only when due: once they could
        // outnumber the live ones (at most one poll per slot and one budget per poll in
        // flight), rebuild without them, so the heap stays O(feeds).
        if deadlines.count >= 64 && deadlines.count >= 2 * (slots.count + inFlight.count) {
            deadlines.compact { isLive($0) }
        }
        deadlines.push(deadline, id: id, stamp: stamp, kind: kind)
        armDeadlineTimer()
    }

    func isLive(_ entry: PollDeadlines.Entry) -> Bool {
        guard let slot = slots[entry.id] else { return false }
        switch entry.kind {
        case .poll: return slot.generation == entry.stamp
        case .parseBudget:
            return slot.isFetching && slot.fetchSerial == entry.stamp && inFlight[entry.id]?.budget != nil
        }
    }

    // Arms the one timer for the earliest deadline, unless it is armed for that or earlier.
    func armDeadlineTimer() {
        guard isRunning, let earliest = deadlines.earliest else {
            disarmDeadlineTimer()
            return
        }
        if let armed = armedDeadline, armed <= earliest { return }
        deadlineTimer?.cancel()
        armedDeadline = earliest
        // Repeating only because that form is cancellable: it is cancelled when it fires.
        deadlineTimer = scheduler.schedule(after: earliest, interval: .seconds(3_600)) { [weak self] in
            self?.deadlinesDue()
        }
    }

    func disarmDeadlineTimer() {
        deadlineTimer?.cancel()
        deadlineTimer = nil
        armedDeadline = nil
    }

    // The timer fired: runs every due entry in (deadline, order queued) order, including those
    // queued meanwhile for now, then arms for the next.
    func deadlinesDue() {
        disarmDeadlineTimer()
        let now = scheduler.now
        while isRunning, let entry = deadlines.popDue(at: now) {
            switch entry.kind {
            case .poll:
                guard slots[entry.id]?.generation == entry.stamp else { continue }
                poll(entry.id)
            case .parseBudget:
                parseBudgetRanOut(entry.id, serial: entry.stamp)
            }
        }
        armDeadlineTimer()
    }

    // A parse still running at its deadline: stopped (the parser checks at its next SAX event,
    // so the worker is free at once), and the poll fails; its late result is dropped.
    func parseBudgetRanOut(_ id: Int64, serial: UInt32) {
        guard let slot = slots[id], slot.isFetching, slot.fetchSerial == serial, let budget = inFlight[id]?.budget
        else { return }
        budget.cancellation.cancel()
        finish(
            id, serial: serial, .success(budget.response),
            parsed: .failure(DocumentRefused(.parseBudget(seconds: budget.seconds))))
    }

    func finishOnceIfDone() {
        guard configuration.once, isRunning, !onceReported else { return }
        guard unpolled.isEmpty else { return }
        onceReported = true
        // Nothing is polled again and no parse is in flight: no timer is left behind (stale
        // parse budgets would otherwise keep it armed).
        deadlines.removeAll()
        disarmDeadlineTimer()
        onFinished?(onceFailures.sorted())
    }

    // A feed after failures whose next poll (backoff or Retry-After) has not come yet.
    func isBackingOff(_ record: FeedRecord) -> Bool {
        guard record.failureCount > 0, let next = record.nextPoll else { return false }
        return next > now()
    }

    // Seconds; nil for the policy's default.
    func interval(of record: FeedRecord) -> Double? {
        interval(seconds: record.intervalSeconds)
    }

    func interval(seconds: Int?) -> Double? {
        (seconds ?? configuration.intervalOverride).map(Double.init)
    }
}
