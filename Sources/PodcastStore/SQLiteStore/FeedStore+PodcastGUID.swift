import Foundation
import PodcastFeeds

// A show's `podcast:guid` (podcastindex.org): the identity that survives a move to another URL.
// The store keeps each feed's, so a second subscription to the same show is found whatever URL
// it came by.
extension FeedStore {
    /// The feeds whose last parsed document gave `guid` as its `podcast:guid` (compared without
    /// case and surrounding white space), in subscription order. What `add` can consult once it
    /// has read a feed, to refuse the same show under a second URL. Throws `.sqlite`.
    public func feeds(podcastGUID guid: String) throws -> [FeedRecord] {
        guard let key = Self.podcastGUIDKey(guid) else { return [] }
        let statement = try database.prepare(
            "SELECT \(FeedStore.feedColumns) FROM feeds WHERE podcast_guid = ?1 ORDER BY id", .text(key))
        var result: [FeedRecord] = []
        while try statement.step() { result.append(FeedStore.readFeed(statement)) }
        return result
    }

    /// The stored form of a `podcast:guid`: trimmed, lowercased (the spec's guids are UUIDs,
    /// whose case carries nothing), at most 256 bytes; `nil` for a blank or longer one.
    static func podcastGUIDKey(_ guid: String?) -> String? {
        guard let trimmed = EpisodeIdentity.nonBlank(guid)?.trimmingCharacters(in: .whitespacesAndNewlines),
            !trimmed.isEmpty, trimmed.utf8.count <= 256
        else { return nil }
        return trimmed.lowercased()
    }

    /// Records feed `id`'s `podcast:guid` as a fetch before its first poll found it (`add`
    /// checks the feed), so a second `add` of the same show is caught before any poll; each
    /// successful poll that reads one replaces it. A blank guid changes nothing. Throws
    /// `.noSuchFeed` when there is no feed `id`, `.sqlite`.
    public func setPodcastGUID(_ guid: String?, id: Int64) throws {
        guard let key = Self.podcastGUIDKey(guid) else { return }
        try requireChange(
            database.run("UPDATE feeds SET podcast_guid = ?1 WHERE id = ?2", .text(key), .integer(id)), id)
    }

    /// Stores the guid a fetched document gave feed `feed` (a document without one keeps the
    /// last), and warns when another subscription has the same guid: the same show subscribed
    /// twice, whose episodes would be announced twice.
    func recordPodcastGUID(_ guid: String?, feed: FeedRecord, url: String, _ warnings: inout [String]) throws {
        guard let key = Self.podcastGUIDKey(guid) else { return }
        try database.run(
            "UPDATE feeds SET podcast_guid = ?1 WHERE id = ?2 AND podcast_guid IS NOT ?1", .text(key), .integer(feed.id)
        )
        for other in try feeds(podcastGUID: key) where other.id != feed.id {
            warnings.append(
                "feed #\(feed.id) \(MaskedURL.string(url)): the same show as feed #\(other.id) \(MaskedURL.string(other.url)) (podcast:guid \(key)); remove one of them"
            )
        }
    }

    /// Moves subscription `id` to `url` (normalised as `add` does) at the user's word, keeping
    /// its id, episodes, downloads and hook state: the show moved without a redirect, and the
    /// caller has checked that the document at `url` carries the subscription's `podcast:guid`
    /// (`add URL --replace`). The validators (ETag, Last-Modified) are cleared, since they
    /// belong to the old URL, and the move is recorded in the URL history (`.podcastGUID`), in
    /// one transaction. Throws `.noSuchFeed`, `.invalidURL` (also for masked credentials, as
    /// `add`), `.alreadySubscribed` when `url` is this or another subscription's URL, `.sqlite`.
    @discardableResult
    public func replaceURL(id: Int64, with url: String, at date: Date = Date()) throws -> FeedMove {
        let target = try FeedStore.canonicalURL(url)
        if MaskedURL.isMasked(url) || MaskedURL.isMasked(target) {
            throw StoreError.invalidURL(url, reason: "its credentials are masked (`***`)")
        }
        return try database.transaction {
            guard let before = try feed(id: id) else { throw StoreError.noSuchFeed(String(id)) }
            if let existing = try feed(url: target) {
                throw StoreError.alreadySubscribed(url: target, id: existing.id)
            }
            try database.run(
                "UPDATE feeds SET url = ?1, etag = NULL, last_modified = NULL WHERE id = ?2", .text(target),
                .integer(id))
            let move = FeedMove(feedID: id, from: before.url, to: target, at: date, reason: .podcastGUID)
            try database.run(
                "INSERT INTO feed_url_history (feed_id, old_url, new_url, changed_at, reason) VALUES (?1, ?2, ?3, ?4, ?5)",
                .integer(id), .text(move.from), .text(move.to), .date(date), .text(move.reason.rawValue))
            return move
        }
    }
}
