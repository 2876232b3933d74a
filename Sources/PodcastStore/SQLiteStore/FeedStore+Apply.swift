import Foundation
import PodcastFeeds

extension FeedStore {
    /// Records one poll of a feed, in ONE transaction (all of it or nothing is written).
    ///
    /// - A permanent redirect (`update.permanentRedirect`) moves the feed's URL, then a parsed
    ///   `itunes:new-feed-url` does; a move is skipped, with a warning, when the target URL is
    ///   already another subscription. Moves are recorded in the URL history.
    /// - `.fetched`: channel metadata is upserted (a missing value never erases a stored one),
    ///   validators replaced (dropped for a degraded parse, so the next poll is unconditional),
    ///   failures cleared, and episodes unseen so far inserted (see
    ///   `EpisodeIdentity`). Episodes that dropped out of the feed stay. An identity seen twice in
    ///   one update is kept once, with a warning. An item whose enclosure (query ignored) is
    ///   already stored for the feed, where one of the two has no guid, is the same episode.
    ///   A known episode whose primary enclosure changed gets its URL, type, length, key and
    ///   enclosure list replaced together (not announced; a download follows it from zero). A
    ///   guid-less item with a new enclosure is the stored guid-less episode with the same title
    ///   and publication date, when there is exactly one and its enclosure is no longer listed:
    ///   that episode takes the new enclosure as its identity (well-formed parses only).
    ///   A degraded parse (`isWellFormed == false`) inserts only items with a strong identity
    ///   (guid or enclosure), since a cut-short item could otherwise reappear under another key.
    /// - The first sync of a feed that stores episodes (none stored yet: a first success with an
    ///   empty channel, or a degraded parse that recovered no item, does not count) announces
    ///   only the newest `firstSyncAnnounceLimit` new episodes (by date, unknown dates last, ties
    ///   in document order); later syncs announce every new one. `newEpisodeCount` grows by the number
    ///   announced. Announced episodes are stored *pending* (`announcementPending`) in the same
    ///   transaction, until the caller confirms delivery with `markAnnouncementsDelivered`: a
    ///   process killed after the commit but before its output loses no announcement.
    /// - `.notModified` (304) writes no episode and no metadata: it sets `lastCheck` and
    ///   `lastSuccess`, and clears a failing state.
    /// - `.failed`: `failureCount` + 1, `lastError`, status `failing` (`gone` and disabled for a
    ///   410), and the validators are dropped so the next refresh is unconditional.
    ///
    /// Throws `.noSuchFeed` if `update.feedID` is not subscribed, or `.sqlite` (nothing written).
    @discardableResult
    public func apply(update: FeedUpdate) throws -> FeedUpdateResult {
        try database.transaction {
            guard let before = try feed(id: update.feedID) else {
                throw StoreError.noSuchFeed(String(update.feedID))
            }
            var change = AppliedChange(before: before, update: update)
            if let redirect = update.permanentRedirect {
                try move(&change, to: redirect.url, reason: .permanentRedirect(status: redirect.status))
            }
            switch update.outcome {
            case .notModified: try recordNotModified(&change)
            case .failed(let failure): try recordFailure(failure, &change)
            case .fetched(let parsed, let etag, let lastModified):
                try recordFetched(parsed, etag: etag, lastModified: lastModified, &change)
                try announceNew(&change)
                try followNewFeedURL(parsed, &change)
            }
            change.after.url = change.currentURL
            return FeedUpdateResult(
                feed: change.after, newEpisodes: change.newEpisodes, announced: change.announced,
                moves: change.moves, warnings: change.warnings)
        }
    }

    // What one `apply` has done so far. `after` is the row as the UPDATEs leave it, built here
    // rather than read back: dates go through the same REAL Unix seconds the row stores, so it
    // equals a fresh read.
    private struct AppliedChange {
        let before: FeedRecord
        let update: FeedUpdate
        var after: FeedRecord
        var currentURL: String
        var storedAt: Date
        var warnings: [String] = []
        var moves: [FeedMove] = []
        var inserted: [(index: Int, episode: StoredEpisode)] = []
        var newEpisodes: [StoredEpisode] = []
        var announced: [StoredEpisode] = []
        var firstSync = false

        init(before: FeedRecord, update: FeedUpdate) {
            self.before = before
            self.update = update
            after = before
            currentURL = before.url
            storedAt = Date(timeIntervalSince1970: update.checkedAt.timeIntervalSince1970)
            after.lastCheck = storedAt
            after.nextPoll =
                update.nextPoll.map { Date(timeIntervalSince1970: $0.timeIntervalSince1970) } ?? before.nextPoll
        }
    }

    private func move(_ change: inout AppliedChange, to target: String, reason: FeedMove.Reason) throws {
        if let move = try moveFeed(
            change.before.id, from: change.currentURL, to: target, reason: reason, at: change.update.checkedAt,
            warnings: &change.warnings)
        {
            change.moves.append(move)
            change.currentURL = move.to
        }
    }

    private func recordNotModified(_ change: inout AppliedChange) throws {
        try database.run(
            """
            UPDATE feeds SET last_check = ?1, last_success = ?1, last_http_status = 304, failure_count = 0,
                last_error = NULL, status = 'ok', next_poll = COALESCE(?2, next_poll) WHERE id = ?3
            """,
            .date(change.update.checkedAt), .date(change.update.nextPoll), .integer(change.before.id))
        change.after.lastSuccess = change.storedAt
        change.after.lastHTTPStatus = 304
        change.after.failureCount = 0
        change.after.lastError = nil
        change.after.status = .ok
    }

    private func recordFailure(_ failure: FeedFailure, _ change: inout AppliedChange) throws {
        let gone = failure.httpStatus == 410
        try database.run(
            """
            UPDATE feeds SET last_check = ?1, failure_count = failure_count + 1, last_error = ?2,
                last_http_status = ?3, status = ?4, enabled = CASE WHEN ?5 THEN 0 ELSE enabled END,
                etag = NULL, last_modified = NULL, next_poll = COALESCE(?6, next_poll) WHERE id = ?7
            """,
            .date(change.update.checkedAt), .text(failure.message), SQLValue(failure.httpStatus),
            .text(gone ? FeedStatus.gone.rawValue : FeedStatus.failing.rawValue), .integer(gone ? 1 : 0),
            .date(change.update.nextPoll), .integer(change.before.id))
        // A corrupt row at Int.max must not trap.
        change.after.failureCount = change.after.failureCount &+ 1 < 0 ? .max : change.after.failureCount + 1
        change.after.lastError = failure.message
        change.after.lastHTTPStatus = failure.httpStatus
        change.after.status = gone ? .gone : .failing
        if gone { change.after.enabled = false }
        change.after.etag = nil
        change.after.lastModified = nil
    }

    private func recordFetched(
        _ parsed: ParsedFeed, etag: String?, lastModified: String?, _ change: inout AppliedChange
    )
        throws
    {
        let before = change.before
        let isHTTP = change.currentURL.hasPrefix("http://") || change.currentURL.hasPrefix("https://")
        try database.run(
            """
            UPDATE feeds SET feed_title = COALESCE(?1, feed_title), link = COALESCE(?2, link),
                image_url = COALESCE(?3, image_url), etag = ?4, last_modified = ?5, last_check = ?6,
                last_success = ?6, failure_count = 0, last_error = NULL, last_http_status = ?7,
                status = 'ok', next_poll = COALESCE(?8, next_poll) WHERE id = ?9
            """,
            SQLValue(EpisodeIdentity.nonBlank(parsed.channel.title)),
            SQLValue(EpisodeIdentity.nonBlank(parsed.channel.link)),
            SQLValue(EpisodeIdentity.nonBlank(parsed.channel.imageURL)),
            // A degraded body may be a truncated download: keep no validators, so the next poll
            // fetches it whole instead of getting a 304 for the broken copy.
            parsed.isWellFormed ? SQLValue(etag) : .null, parsed.isWellFormed ? SQLValue(lastModified) : .null,
            .date(change.update.checkedAt), isHTTP ? .integer(200) : .null,
            .date(change.update.nextPoll), .integer(before.id))
        change.after.feedTitle = EpisodeIdentity.nonBlank(parsed.channel.title) ?? before.feedTitle
        change.after.link = EpisodeIdentity.nonBlank(parsed.channel.link) ?? before.link
        change.after.imageURL = EpisodeIdentity.nonBlank(parsed.channel.imageURL) ?? before.imageURL
        change.after.etag = parsed.isWellFormed ? etag : nil
        change.after.lastModified = parsed.isWellFormed ? lastModified : nil
        change.after.lastSuccess = change.storedAt
        change.after.failureCount = 0
        change.after.lastError = nil
        change.after.lastHTTPStatus = isHTTP ? 200 : nil
        change.after.status = .ok
        try recordPodcastGUID(parsed.channel.podcastGUID, feed: before, url: change.currentURL, &change.warnings)
        change.firstSync = try isFirstSync(parsed, change.before)
        change.inserted = try insertNewEpisodes(
            parsed, feedID: before.id, at: change.update.checkedAt, warnings: &change.warnings)
    }

    // The first sync is the first one that stores episodes: a first document with none (a valid
    // empty channel, or a broken one with nothing recovered) saw no back catalogue, and spending
    // the limit on it made the next poll announce all. Asked before this poll inserts any.
    private func isFirstSync(_ parsed: ParsedFeed, _ before: FeedRecord) throws -> Bool {
        if before.lastSuccess == nil { return true }
        guard !parsed.episodes.isEmpty else { return false }
        let stored = try database.scalarInt(
            "SELECT EXISTS (SELECT 1 FROM episodes WHERE feed_id = ?1)", .integer(before.id))
        return (stored ?? 0) == 0
    }

    // Marks the new episodes to announce (all of them, or the newest on a first sync) announced
    // and pending, and counts them.
    private func announceNew(_ change: inout AppliedChange) throws {
        let inserted = change.inserted
        let limit = change.firstSync ? max(0, firstSyncAnnounceLimit) : inserted.count
        // Newest first: by date (unknown last), ties in document order.
        let chosen = inserted.sorted { a, b in
            switch (a.episode.published, b.episode.published) {
            case (let x?, let y?) where x != y: return x > y
            case (.some, nil): return true
            case (nil, .some): return false
            default: return a.index < b.index
            }
        }.prefix(limit)
        let markAnnounced = try database.prepare(
            "UPDATE episodes SET announced = 1, announce_pending = 1 WHERE id = ?1")
        for item in chosen {
            markAnnounced.reset()
            try markAnnounced.bind(.integer(item.episode.id), at: 1)
            try markAnnounced.step()
            var episode = item.episode
            episode.announced = true
            episode.announcementPending = true
            change.announced.append(episode)
        }
        let announcedIDs = Set(change.announced.map(\.id))
        change.newEpisodes = inserted.map(\.episode).map { e in
            var e = e
            e.announced = announcedIDs.contains(e.id)
            e.announcementPending = e.announced
            return e
        }
        if !change.announced.isEmpty {
            try database.run(
                "UPDATE feeds SET new_episode_count = new_episode_count + ?1 WHERE id = ?2",
                .integer(Int64(change.announced.count)), .integer(change.before.id))
            change.after.newEpisodeCount += change.announced.count
        }
    }

    // `itunes:new-feed-url`: moves the feed to an http(s) URL; anything else is a warning.
    private func followNewFeedURL(_ parsed: ParsedFeed, _ change: inout AppliedChange) throws {
        guard let target = EpisodeIdentity.nonBlank(parsed.channel.newFeedURL) else { return }
        if let normalized = try? FeedStore.canonicalURL(target),
            normalized.hasPrefix("http://") || normalized.hasPrefix("https://")
        {
            try move(&change, to: normalized, reason: .newFeedURL)
        } else {
            change.warnings.append(
                "feed #\(change.before.id) \(MaskedURL.string(change.currentURL)): ignored itunes:new-feed-url \"\(target)\" (not an http(s) URL)"
            )
        }
    }

    /// Moves feed `id` from `from` to `to` and records it; `nil` when `to` is the current URL,
    /// is not a valid URL or is already another subscription (then with a warning).
    private func moveFeed(
        _ id: Int64, from: String, to rawTarget: String, reason: FeedMove.Reason, at: Date, warnings: inout [String]
    ) throws -> FeedMove? {
        guard let to = try? FeedStore.canonicalURL(rawTarget) else {
            warnings.append(
                "feed #\(id) \(MaskedURL.string(from)): not moving to invalid URL \"\(MaskedURL.string(rawTarget))\" (\(reason.rawValue))"
            )
            return nil
        }
        if to == from { return nil }
        if let other = try feed(url: to) {
            warnings.append(
                "feed #\(id) \(MaskedURL.string(from)): not moving to \(MaskedURL.string(to)) (\(reason.rawValue)): already subscribed as feed #\(other.id)"
            )
            return nil
        }
        try database.run("UPDATE feeds SET url = ?1 WHERE id = ?2", .text(to), .integer(id))
        try database.run(
            "INSERT INTO feed_url_history (feed_id, old_url, new_url, changed_at, reason) VALUES (?1, ?2, ?3, ?4, ?5)",
            .integer(id), .text(from), .text(to), .date(at), .text(reason.rawValue))
        return FeedMove(feedID: id, from: from, to: to, at: at, reason: reason)
    }
}
