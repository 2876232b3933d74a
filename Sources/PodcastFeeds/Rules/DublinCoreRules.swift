extension FeedRules {
    /// Dublin Core elements and terms (`dc:`, `dcterms:`): titles, creators and language as
    /// fallbacks, and the dates an item may carry (their order of preference is
    /// `FeedField.dateRank`).
    static let dublinCore: [Entry] = [
        Entry(.channel, .language, .text(.language)),
        Entry(.channel, .title, .text(.channelDCTitle)),
        Entry(.channel, .creator, .text(.channelCreator)),
        Entry(.item, .date, .text(.dcDate)),
        Entry(.item, .issued, .text(.dcIssued)),
        Entry(.item, .created, .text(.dcCreated)),
        Entry(.item, .modified, .text(.dcModified)),
        Entry(.item, .title, .text(.dcTitle)),
        Entry(.item, .creator, .text(.itemCreator)),
    ]
}
