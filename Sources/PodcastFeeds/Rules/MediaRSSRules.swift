extension FeedRules {
    /// Media RSS (`media:`, http://search.yahoo.com/mrss/): read anywhere inside an item, so
    /// also inside `media:group`.
    static let mediaRSS: [Entry] = [
        Entry(.inItem, .content, .attributes(.mediaContent)),
        Entry(.inItem, .thumbnail, .attributes(.mediaThumbnail)),
        Entry(.inItem, .description, .markup(.mediaDescription)),
        Entry(.inItem, .title, .text(.mediaTitle)),
    ]
}
