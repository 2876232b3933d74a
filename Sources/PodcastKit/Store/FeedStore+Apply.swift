import Foundation

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
    ///   only the newest `firstSyncAnnounceLimit` new episodes (by date, unknown dates last, ties in document
    ///   order); later syncs announce every new one. `newEpisodeCount` grows by the number
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
            var warnings: [String] = []
            var moves: [FeedMove] = []
            var currentURL = before.url
            let at = update.checkedAt

            if let redirect = update.permanentRedirect,
                let move = try moveFeed(
                    before.id, from: currentURL, to: redirect.url,
                    reason: .permanentRedirect(status: redirect.status), at: at, warnings: &warnings)
            {
                moves.append(move)
                currentURL = move.to
            }

            var newEpisodes: [StoredEpisode] = []
            var announced: [StoredEpisode] = []
            // The row as the UPDATEs below leave it, built here rather than read back: dates
            // go through the same REAL Unix seconds the row stores, so it equals a fresh read.
            var after = before
            let storedAt = Date(timeIntervalSince1970: at.timeIntervalSince1970)
            let storedNextPoll =
                update.nextPoll.map { Date(timeIntervalSince1970: $0.timeIntervalSince1970) } ?? before.nextPoll
            after.lastCheck = storedAt
            after.nextPoll = storedNextPoll
            switch update.outcome {
            case .notModified:
                try database.run(
                    """
                    UPDATE feeds SET last_check = ?1, last_success = ?1, last_http_status = 304, failure_count = 0,
                        last_error = NULL, status = 'ok', next_poll = COALESCE(?2, next_poll) WHERE id = ?3
                    """,
                    .date(at), .date(update.nextPoll), .integer(before.id))
                after.lastSuccess = storedAt
                after.lastHTTPStatus = 304
                after.failureCount = 0
                after.lastError = nil
                after.status = .ok

            case .failed(let failure):
                let gone = failure.httpStatus == 410
                try database.run(
                    """
                    UPDATE feeds SET last_check = ?1, failure_count = failure_count + 1, last_error = ?2,
                        last_http_status = ?3, status = ?4, enabled = CASE WHEN ?5 THEN 0 ELSE enabled END,
                        etag = NULL, last_modified = NULL, next_poll = COALESCE(?6, next_poll) WHERE id = ?7
                    """,
                    .date(at), .text(failure.message), SQLValue(failure.httpStatus),
                    .text(gone ? FeedStatus.gone.rawValue : FeedStatus.failing.rawValue), .integer(gone ? 1 : 0),
                    .date(update.nextPoll), .integer(before.id))
                // A corrupt row at Int.max must not trap.
                after.failureCount = after.failureCount &+ 1 < 0 ? .max : after.failureCount + 1
                after.lastError = failure.message
                after.lastHTTPStatus = failure.httpStatus
                after.status = gone ? .gone : .failing
                if gone { after.enabled = false }
                after.etag = nil
                after.lastModified = nil

            case .fetched(let parsed, let etag, let lastModified):
                let isHTTP = currentURL.hasPrefix("http://") || currentURL.hasPrefix("https://")
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
                    // A degraded body may be a truncated download: keep no validators, so the
                    // next poll fetches it whole instead of getting a 304 for the broken copy.
                    parsed.isWellFormed ? SQLValue(etag) : .null, parsed.isWellFormed ? SQLValue(lastModified) : .null,
                    .date(at), isHTTP ? .integer(200) : .null,
                    .date(update.nextPoll), .integer(before.id))
                after.feedTitle = EpisodeIdentity.nonBlank(parsed.channel.title) ?? before.feedTitle
                after.link = EpisodeIdentity.nonBlank(parsed.channel.link) ?? before.link
                after.imageURL = EpisodeIdentity.nonBlank(parsed.channel.imageURL) ?? before.imageURL
                after.etag = parsed.isWellFormed ? etag : nil
                after.lastModified = parsed.isWellFormed ? lastModified : nil
                after.lastSuccess = storedAt
                after.failureCount = 0
                after.lastError = nil
                after.lastHTTPStatus = isHTTP ? 200 : nil
                after.status = .ok

                // The first sync is the first one that stores episodes: a first document with
                // none (a valid empty channel, or a broken one with nothing recovered) saw no
                // back catalogue, and spending the limit on it made the next poll announce all.
                var firstSync = before.lastSuccess == nil
                if !firstSync && !parsed.episodes.isEmpty {
                    let stored = try database.scalarInt(
                        "SELECT EXISTS (SELECT 1 FROM episodes WHERE feed_id = ?1)", .integer(before.id))
                    firstSync = (stored ?? 0) == 0
                }
                let inserted = try insertNewEpisodes(parsed, feedID: before.id, at: at, warnings: &warnings)
                newEpisodes = inserted.map(\.episode)
                let limit = firstSync ? max(0, firstSyncAnnounceLimit) : inserted.count
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
                    announced.append(episode)
                }
                let announcedIDs = Set(announced.map(\.id))
                newEpisodes = newEpisodes.map { e in
                    var e = e
                    e.announced = announcedIDs.contains(e.id)
                    e.announcementPending = e.announced
                    return e
                }
                if !announced.isEmpty {
                    try database.run(
                        "UPDATE feeds SET new_episode_count = new_episode_count + ?1 WHERE id = ?2",
                        .integer(Int64(announced.count)), .integer(before.id))
                    after.newEpisodeCount += announced.count
                }

                if let target = EpisodeIdentity.nonBlank(parsed.channel.newFeedURL) {
                    if let normalized = try? FeedStore.canonicalURL(target),
                        normalized.hasPrefix("http://") || normalized.hasPrefix("https://")
                    {
                        if let move = try moveFeed(
                            before.id, from: currentURL, to: normalized, reason: .newFeedURL, at: at,
                            warnings: &warnings)
                        {
                            moves.append(move)
                            currentURL = move.to
                        }
                    } else {
                        warnings.append(
                            "feed #\(before.id) \(MaskedURL.string(currentURL)): ignored itunes:new-feed-url \"\(target)\" (not an http(s) URL)"
                        )
                    }
                }
            }

            after.url = currentURL
            return FeedUpdateResult(
                feed: after, newEpisodes: newEpisodes, announced: announced, moves: moves, warnings: warnings)
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

    /// Inserts the episodes of `parsed` not stored yet; returns them with their document index.
    private func insertNewEpisodes(
        _ parsed: ParsedFeed, feedID: Int64, at: Date, warnings: inout [String]
    ) throws -> [(index: Int, episode: StoredEpisode)] {
        let known = try database.prepare(
            "SELECT show_notes_html IS NULL FROM episodes WHERE feed_id = ?1 AND identity = ?2")
        // Show notes for an episode stored before they were kept (or without them until now).
        let fillShowNotes = try database.prepare(
            "UPDATE episodes SET show_notes_html = ?3 WHERE feed_id = ?1 AND identity = ?2 AND show_notes_html IS NULL")
        // The primary enclosure's URL, type, length, key and the enclosure list change together.
        let moveEnclosure = try database.prepare(
            """
            UPDATE episodes SET enclosure_url = ?3, enclosure_type = ?4, enclosure_length = ?5, enclosure_key = ?6,
                enclosures_json = ?7
            WHERE feed_id = ?1 AND identity = ?2 AND (enclosure_url IS NOT ?3 OR enclosure_type IS NOT ?4
                OR enclosure_length IS NOT ?5 OR enclosures_json IS NOT ?7)
            """)
        // A guid-less episode known by an enclosure the feed no longer lists, with this title and date.
        let movedWithoutGuid = try database.prepare(
            """
            SELECT id, enclosure_key FROM episodes
            WHERE feed_id = ?1 AND guid IS NULL AND identity LIKE 'enclosure:%' AND title = ?2 AND published = ?3
            LIMIT 2
            """)
        let reidentify = try database.prepare(
            """
            UPDATE episodes SET identity = ?2, enclosure_url = ?3, enclosure_type = ?4, enclosure_length = ?5,
                enclosure_key = ?6, enclosures_json = ?7
            WHERE id = ?1
            """)
        let sameMedia = try database.prepare(
            "SELECT 1 FROM episodes WHERE feed_id = ?1 AND enclosure_key = ?2 AND (guid IS NULL OR ?3 IS NULL) LIMIT 1")
        let insert = try database.prepare(
            """
            INSERT INTO episodes (feed_id, identity, guid, title, link, published, duration, description, enclosure_url,
                enclosure_type, enclosure_length, enclosure_key, enclosures_json, first_seen, announced, show_notes_html)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, 0, ?15)
            """)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]

        var seen = Set<String>()
        var result: [(index: Int, episode: StoredEpisode)] = []
        // Every enclosure this document lists: a stored episode whose enclosure is still listed
        // did not move (two items may share a title and a date).
        let listed = Set(
            parsed.episodes.compactMap { EpisodeIdentity.nonBlank($0.primaryEnclosure?.url) }.map(
                EpisodeIdentity.enclosureKey))
        func enclosureColumns(_ episode: Episode) -> [SQLValue] {
            let primary = episode.primaryEnclosure
            let json = (try? encoder.encode(episode.enclosures)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
            return [
                SQLValue(primary?.url), SQLValue(primary?.mimeType), SQLValue(primary?.length),
                SQLValue(EpisodeIdentity.nonBlank(primary?.url).map(EpisodeIdentity.enclosureKey)), .text(json),
            ]
        }
        for (index, episode) in parsed.episodes.enumerated() {
            let identity = EpisodeIdentity(episode)
            let label = "feed #\(feedID): item \(index + 1) (\(episode.title ?? "untitled"))"
            guard seen.insert(identity.key).inserted else {
                warnings.append("\(label): duplicate identity \(identity.key) in one update; kept the first")
                continue
            }
            if !parsed.isWellFormed && !identity.isStrong {
                warnings.append("\(label): skipped, degraded parse and no guid or enclosure to identify it")
                continue
            }
            known.reset()
            try known.bind([.integer(feedID), .text(identity.key)])
            if try known.step() {
                if known.bool(0) == true, let notes = episode.showNotesHTML {
                    fillShowNotes.reset()
                    try fillShowNotes.bind([.integer(feedID), .text(identity.key), .text(notes)])
                    _ = try fillShowNotes.step()
                }
                // A known episode (by guid) whose primary enclosure moved: downloads follow it.
                if EpisodeIdentity.nonBlank(episode.primaryEnclosure?.url) != nil,
                    EpisodeIdentity.nonBlank(episode.guid) != nil
                {
                    moveEnclosure.reset()
                    try moveEnclosure.bind([.integer(feedID), .text(identity.key)] + enclosureColumns(episode))
                    _ = try moveEnclosure.step()
                }
                continue
            }
            // Without a guid the enclosure is the identity, so a moved file looks like a new
            // episode. It is the same one when exactly one stored guid-less episode has this
            // title and date whose enclosure is gone from the feed: it takes the new key. Stored
            // siblings the feed still lists are not candidates (filter first, then count).
            // (A degraded parse may have lost the old item: it never relinks.)
            if identity.kind == .enclosure, parsed.isWellFormed, let title = episode.title,
                EpisodeIdentity.nonBlank(title) != nil,
                let published = episode.published
            {
                movedWithoutGuid.reset()
                try movedWithoutGuid.bind([.integer(feedID), .text(title), .date(published)])
                var candidates: [(id: Int64, key: String?)] = []
                while try movedWithoutGuid.step() {
                    if let id = movedWithoutGuid.int64(0) { candidates.append((id, movedWithoutGuid.string(1))) }
                }
                candidates.removeAll { listed.contains($0.key ?? "") }
                if candidates.count == 1, let old = candidates.first {
                    reidentify.reset()
                    try reidentify.bind([.integer(old.id), .text(identity.key)] + enclosureColumns(episode))
                    try reidentify.step()
                    continue
                }
            }

            let guid = EpisodeIdentity.nonBlank(episode.guid)
            let primary = episode.primaryEnclosure
            let enclosureKey = EpisodeIdentity.nonBlank(primary?.url).map(EpisodeIdentity.enclosureKey)
            if let enclosureKey {
                sameMedia.reset()
                try sameMedia.bind([.integer(feedID), .text(enclosureKey), SQLValue(guid)])
                if try sameMedia.step() {
                    if seenEnclosureInThisUpdate(result, enclosureKey) {
                        warnings.append("\(label): same enclosure as an earlier item in this update; kept the first")
                    }
                    continue
                }
            }

            let json = (try? encoder.encode(episode.enclosures)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
            insert.reset()
            try insert.bind([
                .integer(feedID), .text(identity.key), SQLValue(guid), SQLValue(episode.title), SQLValue(episode.link),
                .date(episode.published), SQLValue(episode.duration), SQLValue(episode.description),
                SQLValue(primary?.url), SQLValue(primary?.mimeType), SQLValue(primary?.length), SQLValue(enclosureKey),
                .text(json), .date(at), SQLValue(episode.showNotesHTML),
            ])
            try insert.step()
            let stored = StoredEpisode(
                id: database.lastInsertRowID, feedID: feedID, identity: identity.key, guid: guid, title: episode.title,
                link: episode.link, published: episode.published, duration: episode.duration,
                description: episode.description, enclosure: primary, enclosures: episode.enclosures, firstSeen: at,
                announced: false, announcementPending: false)
            result.append((index, stored))
        }
        return result
    }

    private func seenEnclosureInThisUpdate(_ inserted: [(index: Int, episode: StoredEpisode)], _ key: String) -> Bool {
        inserted.contains { $0.episode.enclosure.map { EpisodeIdentity.enclosureKey($0.url) } == key }
    }
}
