extension FeedRules {
    /// Podlove Simple Chapters (`psc:`): each `psc:chapter` anywhere inside an item.
    static let podloveChapters: [Entry] = [
        Entry(.inItem, .chapter, .attributes(.chapter))
    ]
}
