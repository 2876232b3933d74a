import Foundation
import PodcastFeeds

// The episodes of one fetched document against what the store knows of the feed: known ones get
// their show notes and moved enclosures, a guid-less episode whose file moved keeps its row, the
// same media is not stored twice, and the rest are inserted (see `apply(update:)`).
extension FeedStore {
    /// Inserts the episodes of `parsed` not stored yet; returns them with their document index.
    func insertNewEpisodes(
        _ parsed: ParsedFeed, feedID: Int64, at: Date, warnings: inout [String]
    ) throws -> [(index: Int, episode: StoredEpisode)] {
        let statements = try EpisodeStatements(database)
        var seen = Set<String>()
        var result: [(index: Int, episode: StoredEpisode)] = []
        // Every enclosure this document lists: a stored episode whose enclosure is still listed
        // did not move (two items may share a title and a date).
        let listed = Set(
            parsed.episodes.compactMap { EpisodeIdentity.nonBlank($0.primaryEnclosure?.url) }.map(
                EpisodeIdentity.enclosureKey))
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
            if try statements.updateKnown(episode, identity: identity, feedID: feedID) { continue }
            if parsed.isWellFormed,
                try statements.relinkMovedWithoutGuid(episode, identity: identity, feedID: feedID, listed: listed)
            {
                continue
            }
            if try statements.isSameMedia(episode, feedID: feedID) {
                if Self.seenEnclosureInThisUpdate(result, episode.primaryEnclosure) {
                    warnings.append("\(label): same enclosure as an earlier item in this update; kept the first")
                }
                continue
            }
            let stored = try statements.insert(episode, identity: identity, feedID: feedID, at: at)
            result.append((index, StoredEpisode(stored, id: database.lastInsertRowID)))
        }
        return result
    }

    private static func seenEnclosureInThisUpdate(
        _ inserted: [(index: Int, episode: StoredEpisode)], _ enclosure: Enclosure?
    ) -> Bool {
        guard let key = EpisodeIdentity.nonBlank(enclosure?.url).map(EpisodeIdentity.enclosureKey) else { return false }
        return inserted.contains { $0.episode.enclosure.map { EpisodeIdentity.enclosureKey($0.url) } == key }
    }
}

extension StoredEpisode {
    // `episode` with its row id.
    fileprivate init(_ episode: StoredEpisode, id: Int64) {
        self = episode
        self.id = id
    }
}

// The statements one document's episodes run, prepared once per update.
private struct EpisodeStatements {
    let known: Statement
    let fillShowNotes: Statement
    let moveEnclosure: Statement
    let movedWithoutGuid: Statement
    let reidentify: Statement
    let sameMedia: Statement
    let insertRow: Statement
    let encoder: JSONEncoder

    init(_ database: Database) throws {
        known = try database.prepare(
            "SELECT show_notes_html IS NULL FROM episodes WHERE feed_id = ?1 AND identity = ?2")
        // Show notes for an episode stored before they were kept (or without them until now).
        fillShowNotes = try database.prepare(
            "UPDATE episodes SET show_notes_html = ?3 WHERE feed_id = ?1 AND identity = ?2 AND show_notes_html IS NULL")
        // The primary enclosure's URL, type, length, key and the enclosure list change together.
        moveEnclosure = try database.prepare(
            """
            UPDATE episodes SET enclosure_url = ?3, enclosure_type = ?4, enclosure_length = ?5, enclosure_key = ?6,
                enclosures_json = ?7
            WHERE feed_id = ?1 AND identity = ?2 AND (enclosure_url IS NOT ?3 OR enclosure_type IS NOT ?4
                OR enclosure_length IS NOT ?5 OR enclosures_json IS NOT ?7)
            """)
        // A guid-less episode known by an enclosure the feed no longer lists, with this title and date.
        movedWithoutGuid = try database.prepare(
            """
            SELECT id, enclosure_key FROM episodes
            WHERE feed_id = ?1 AND guid IS NULL AND identity LIKE 'enclosure:%' AND title = ?2 AND published = ?3
            LIMIT 2
            """)
        reidentify = try database.prepare(
            """
            UPDATE episodes SET identity = ?2, enclosure_url = ?3, enclosure_type = ?4, enclosure_length = ?5,
                enclosure_key = ?6, enclosures_json = ?7
            WHERE id = ?1
            """)
        sameMedia = try database.prepare(
            "SELECT 1 FROM episodes WHERE feed_id = ?1 AND enclosure_key = ?2 AND (guid IS NULL OR ?3 IS NULL) LIMIT 1")
        insertRow = try database.prepare(
            """
            INSERT INTO episodes (feed_id, identity, guid, title, link, published, duration, description, enclosure_url,
                enclosure_type, enclosure_length, enclosure_key, enclosures_json, first_seen, announced, show_notes_html)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, 0, ?15)
            """)
        encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    }

    func enclosuresJSON(_ episode: Episode) -> String {
        (try? encoder.encode(episode.enclosures)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
    }

    func enclosureColumns(_ episode: Episode) -> [SQLValue] {
        let primary = episode.primaryEnclosure
        return [
            SQLValue(primary?.url), SQLValue(primary?.mimeType), SQLValue(primary?.length),
            SQLValue(EpisodeIdentity.nonBlank(primary?.url).map(EpisodeIdentity.enclosureKey)),
            .text(enclosuresJSON(episode)),
        ]
    }

    /// For an episode already stored: fills show notes it lacked and, for one known by its guid,
    /// follows a moved primary enclosure (downloads follow it). `false` when it is not stored.
    func updateKnown(_ episode: Episode, identity: EpisodeIdentity, feedID: Int64) throws -> Bool {
        known.reset()
        try known.bind([.integer(feedID), .text(identity.key)])
        guard try known.step() else { return false }
        if known.bool(0) == true, let notes = episode.showNotesHTML {
            fillShowNotes.reset()
            try fillShowNotes.bind([.integer(feedID), .text(identity.key), .text(notes)])
            _ = try fillShowNotes.step()
        }
        if EpisodeIdentity.nonBlank(episode.primaryEnclosure?.url) != nil, EpisodeIdentity.nonBlank(episode.guid) != nil
        {
            moveEnclosure.reset()
            try moveEnclosure.bind([.integer(feedID), .text(identity.key)] + enclosureColumns(episode))
            _ = try moveEnclosure.step()
        }
        return true
    }

    /// Without a guid the enclosure is the identity, so a moved file looks like a new episode.
    /// It is the same one when exactly one stored guid-less episode has this title and date
    /// whose enclosure is gone from the feed (`listed`): it takes the new key. Stored siblings
    /// the feed still lists are not candidates (filter first, then count). The caller passes
    /// well-formed parses only (a degraded one may have lost the old item). `true` when relinked.
    func relinkMovedWithoutGuid(_ episode: Episode, identity: EpisodeIdentity, feedID: Int64, listed: Set<String>)
        throws -> Bool
    {
        guard identity.kind == .enclosure, let title = episode.title, EpisodeIdentity.nonBlank(title) != nil,
            let published = episode.published
        else { return false }
        movedWithoutGuid.reset()
        try movedWithoutGuid.bind([.integer(feedID), .text(title), .date(published)])
        var candidates: [(id: Int64, key: String?)] = []
        while try movedWithoutGuid.step() {
            if let id = movedWithoutGuid.int64(0) { candidates.append((id, movedWithoutGuid.string(1))) }
        }
        candidates.removeAll { listed.contains($0.key ?? "") }
        guard candidates.count == 1, let old = candidates.first else { return false }
        reidentify.reset()
        try reidentify.bind([.integer(old.id), .text(identity.key)] + enclosureColumns(episode))
        try reidentify.step()
        return true
    }

    /// Whether the feed already stores this enclosure (query ignored) for an episode where one
    /// of the two has no guid: then it is the same episode.
    func isSameMedia(_ episode: Episode, feedID: Int64) throws -> Bool {
        let guid = EpisodeIdentity.nonBlank(episode.guid)
        guard let key = EpisodeIdentity.nonBlank(episode.primaryEnclosure?.url).map(EpisodeIdentity.enclosureKey)
        else { return false }
        sameMedia.reset()
        try sameMedia.bind([.integer(feedID), .text(key), SQLValue(guid)])
        return try sameMedia.step()
    }

    /// Inserts `episode`; returns it as stored (the caller sets the row id).
    func insert(_ episode: Episode, identity: EpisodeIdentity, feedID: Int64, at: Date) throws -> StoredEpisode {
        let guid = EpisodeIdentity.nonBlank(episode.guid)
        let primary = episode.primaryEnclosure
        let enclosureKey = EpisodeIdentity.nonBlank(primary?.url).map(EpisodeIdentity.enclosureKey)
        insertRow.reset()
        try insertRow.bind([
            .integer(feedID), .text(identity.key), SQLValue(guid), SQLValue(episode.title), SQLValue(episode.link),
            .date(episode.published), SQLValue(episode.duration), SQLValue(episode.description),
            SQLValue(primary?.url), SQLValue(primary?.mimeType), SQLValue(primary?.length), SQLValue(enclosureKey),
            .text(enclosuresJSON(episode)), .date(at), SQLValue(episode.showNotesHTML),
        ])
        try insertRow.step()
        return StoredEpisode(
            id: 0, feedID: feedID, identity: identity.key, guid: guid, title: episode.title,
            link: episode.link, published: episode.published, duration: episode.duration,
            description: episode.description, enclosure: primary, enclosures: episode.enclosures, firstSeen: at,
            announced: false, announcementPending: false)
    }
}
