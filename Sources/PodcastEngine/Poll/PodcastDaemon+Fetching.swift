import Foundation
import LoopScheduler
import PodcastFeeds
import PodcastStore

// Polls in flight: starting a fetch within the global and per-host limits, the queues of due
// feeds waiting for a place, and handing a fetched body to the parser off the loop thread with
// its budget. A finished poll goes on to `finish` (`PodcastDaemon+Finish`).
extension PodcastDaemon {
    func poll(_ id: Int64) {
        guard isRunning, let slot = slots[id], slot.enabled, !slot.isFetching else { return }
        let host = slot.host
        if host != HostTable.none && hosts.inFlight[Int(host)] >= configuration.maxFetchesPerHost {
            if waitingSet.insert(id).inserted { hosts.waiting[Int(host)].append(id) }
            library.update(id: id) { $0.status = .waiting }
            return
        }
        if fetching >= configuration.maxConcurrentFetches {
            if waitingSet.insert(id).inserted { waiting.append(id) }
            library.update(id: id) { $0.status = .waiting }
            return
        }
        slots.update(id) { slot in
            slot.fetchSerial &+= 1
            slot.isFetching = true
            slot.fetchHost = host
        }
        fetching += 1
        if host != HostTable.none { hosts.inFlight[Int(host)] += 1 }
        let serial = slots[id]!.fetchSerial
        library.update(id: id) { $0.status = .polling }
        let request = FetchRequest(
            url: slot.url, etag: slot.etag, lastModified: slot.lastModified,
            limits: configuration.limits)
        let token = fetcher.fetch(request) { [weak self] result in
            self?.complete(id, serial: serial, result)
        }
        // The completion may already have run (a synchronous fetcher): keep the token only if
        // this fetch is still the one in flight.
        if slots[id]?.isFetching == true, slots[id]?.fetchSerial == serial {
            inFlight[id, default: InFlight()].fetch = token
        }
    }

    // A poll ended (or was dropped): its host's next waiting feed first, then the global queue.
    func release(_ slot: PollSlot) {
        fetching -= 1
        guard slot.fetchHost != HostTable.none else { return }
        hosts.inFlight[Int(slot.fetchHost)] = max(0, hosts.inFlight[Int(slot.fetchHost)] - 1)
    }

    func startHostWaiting(_ host: Int32) {
        guard host != HostTable.none else { return }
        // In place: a copy of the queue taken out of a dictionary made every pop O(N).
        while isRunning, hosts.inFlight[Int(host)] < configuration.maxFetchesPerHost,
            let id = hosts.waiting[Int(host)].popFirst()
        {
            guard waitingSet.remove(id) != nil else { continue }  // dropped while queued
            poll(id)  // over the global limit it moves to the global queue
        }
    }

    /// The per-host key of a feed URL: lower-cased host and port (`nil` for a local file).
    static func hostKey(_ url: String) -> String? { HostTable.key(url) }

    func startWaiting() {
        while isRunning, waitingHead < waiting.count, fetching < configuration.maxConcurrentFetches {
            let id = waiting[waitingHead]
            waitingHead += 1
            // Compact now and then, so the consumed prefix does not grow without bound.
            if waitingHead >= 1024 && waitingHead * 2 >= waiting.count {
                waiting.removeFirst(waitingHead)
                waitingHead = 0
            }
            guard waitingSet.remove(id) != nil else { continue }  // dropped while queued
            poll(id)
        }
    }

    // A fetch ended: a body to parse goes to the off-loop executor (the slot stays busy until
    // its result is back, or its budget ran out); anything else is finished at once.
    func complete(_ id: Int64, serial: UInt32, _ result: FetchResult) {
        guard isRunning, let slot = slots[id], slot.isFetching, slot.fetchSerial == serial else { return }
        guard case .success(let response) = result, !response.isNotModified else {
            finish(id, serial: serial, result, parsed: nil)
            return
        }
        let parse = self.parse
        let cap = max(1, configuration.maxEpisodesPerPoll)
        let budget = max(0.001, configuration.parseBudget)
        // The budget keeps the response without its body: the poll fails with it.
        var bodiless = response
        bodiless.body = Data()
        bodiless.headers = [:]
        // Cancelled when the budget runs out: the parser stops at its next SAX event, so the
        // worker is free at once instead of finishing a result that would be dropped.
        let cancellation = ParseCancellation()
        let token = offLoop.submit(
            {
                Result {
                    try ParseCancellation.$current.withValue(cancellation) {
                        PodcastDaemon.capped(try parse(response), to: cap).sanitizingShowNotes()
                    }
                }
            },
            started: { [weak self] in
                guard let self, self.isRunning, let slot = self.slots[id], slot.isFetching, slot.fetchSerial == serial
                else { return }
                self.inFlight[id, default: InFlight()].budget = ParseBudget(
                    cancellation: cancellation, response: bodiless, seconds: budget)
                self.queueDeadline(
                    self.scheduler.now.advanced(by: .seconds(budget)), id: id, stamp: serial, kind: .parseBudget)
            },
            completion: { [weak self] parsed in
                self?.finish(id, serial: serial, result, parsed: parsed)
            })
        // An inline executor has finished already: keep the token only while the parse runs.
        if slots[id]?.isFetching == true, slots[id]?.fetchSerial == serial {
            inFlight[id, default: InFlight()].parse = token
        }
    }

    static var capWarningPrefix: String { "the feed lists " }

    /// `feed` with at most `cap` episodes: the newest by publication date (undated ones count
    /// as oldest; among equals, earlier in the document first), kept in document order, and a
    /// warning saying how many were dropped. Any thread.
    static func capped(_ feed: ParsedFeed, to cap: Int) -> ParsedFeed {
        guard feed.episodes.count > cap else { return feed }
        let ranked = feed.episodes.indices.sorted { a, b in
            let da = feed.episodes[a].published ?? .distantPast
            let db = feed.episodes[b].published ?? .distantPast
            return da != db ? da > db : a < b
        }
        let kept = Set(ranked.prefix(cap))
        var result = feed
        result.episodes = feed.episodes.indices.filter(kept.contains).map { feed.episodes[$0] }
        result.warnings.append(
            "\(capWarningPrefix)\(feed.episodes.count) items; kept the newest \(cap) (the per-poll cap)")
        return result
    }
}
