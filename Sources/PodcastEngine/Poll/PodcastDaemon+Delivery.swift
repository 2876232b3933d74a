import Foundation
import PodcastStore

// Announcements, delivered at least once: each is tracked in the delivery ledger from the moment
// it is issued until the view wrote it and the hook started, and only then confirmed in the store.
extension PodcastDaemon {
    static func announcement(_ e: StoredEpisode, feed: FeedRecord, time: Date) -> EpisodeAnnouncement {
        EpisodeAnnouncement(stored: e, feed: feed, time: time)
    }

    /// The view has written every journal entry up to `sequence` (`LibraryViewModel.JournalEntry`):
    /// their announcements count as output-delivered. Call it on the daemon's thread, also after
    /// `stop()` (a last frame); the store must still be open.
    public func outputDelivered(throughSequence sequence: Int) {
        deliveries.isBatching = true
        for id in deliveries.awaitingOutput(throughSequence: sequence) { confirm(id, output: true) }
        deliveries.isBatching = false
        flushConfirmations()
    }

    // Issues a poll's announcements (each with its journal sequence) and confirms those already
    // delivered in one store transaction.
    func deliver(_ batch: [(announcement: EpisodeAnnouncement, episodeID: Int64, journalSequence: Int)]) {
        deliveries.isBatching = true
        for item in batch {
            deliver(item.announcement, episodeID: item.episodeID, journalSequence: item.journalSequence)
        }
        deliveries.isBatching = false
        flushConfirmations()
    }

    // Issues one announcement to every output, and tracks it until all of them have it.
    func deliver(_ announcement: EpisodeAnnouncement, episodeID: Int64, journalSequence: Int) {
        deliveries.track(
            episodeID, journalSequence: journalSequence, awaitingOutput: configuration.awaitsOutputConfirmation,
            awaitingHook: hooks != nil)
        onEvent?(.newEpisode(announcement))
        onAnnounced?(announcement, episodeID)
        if let hooks {
            hooks.run(for: announcement) { [weak self] in self?.confirm(episodeID, hook: true) }
        }
        confirm(episodeID)
    }

    // Announcements a killed run committed but never confirmed: issued again, before any poll,
    // each recorded in the journal and delivered in turn.
    func redeliver(_ pending: [StoredEpisode], feeds: [FeedRecord]) {
        let byID = Dictionary(feeds.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        deliveries.isBatching = true
        for episode in pending {
            guard let feed = byID[episode.feedID] else { continue }
            let a = PodcastDaemon.announcement(episode, feed: feed, time: episode.firstSeen)
            let sequence = library.record(.newEpisode(a), feedID: feed.id)
            deliver(a, episodeID: episode.id, journalSequence: sequence)
        }
        deliveries.isBatching = false
        flushConfirmations()
    }

    func confirm(_ id: Int64, output: Bool = false, hook: Bool = false) {
        guard deliveries.confirm(id, output: output, hook: hook) else { return }
        if !deliveries.isBatching { flushConfirmations() }
    }

    // One transaction for the confirmations gathered. A failure is not fatal: the announcements
    // stay pending and are delivered again on the next start.
    func flushConfirmations() {
        let ids = deliveries.takeConfirmed()
        guard !ids.isEmpty else { return }
        do {
            try store.markAnnouncementsDelivered(ids)
        } catch {
            onWarning?("cannot record \(ids.count) announcements as delivered (they will be repeated): \(error)")
        }
    }
}
