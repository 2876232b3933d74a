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
}
