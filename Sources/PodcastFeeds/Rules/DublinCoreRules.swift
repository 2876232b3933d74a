extension FeedRules {
    /// Dublin Core elements and terms (`dc:`, `dcterms:`): titles, creators (and the `dc:author`
    /// feeds write) and language as
    /// fallbacks, and the dates an item may carry (their order of preference is
    /// `FeedField.dateRank`).
    static let dublinCore: [Entry] = [
        Entry(.channel, .language, .text(.language)),
        Entry(.channel, .title, .text(.channelDCTitle)),
        Entry(.channel, .creator, .text(.channelCreator)),
        // `dc:author`: not Dublin Core, but feeds write it and feedparser reads it as the author.
        Entry(.channel, .author, .text(.channelCreator)),
        Entry(.item, .author, .text(.itemCreator)),
        Entry(.item, .date, .text(.dcDate)),
        Entry(.item, .issued, .text(.dcIssued)),
        Entry(.item, .created, .text(.dcCreated)),
        Entry(.item, .modified, .text(.dcModified)),
        Entry(.item, .title, .text(.dcTitle)),
        Entry(.item, .creator, .text(.itemCreator)),
    ]
}
