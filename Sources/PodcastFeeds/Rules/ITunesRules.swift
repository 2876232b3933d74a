extension FeedRules {
    /// Apple's podcast namespace (`itunes:`, http://www.itunes.com/dtds/podcast-1.0.dtd), as
    /// Apple Podcasts reads it. `itunes:category`, which nests, is read by the parser's structure.
    static let itunes: [Entry] = [
        Entry(.channel, .summary, .markup(.channelSummary)),
        Entry(.channel, .author, .text(.channelAuthor)),
        Entry(.channel, .subtitle, .text(.channelITunesSubtitle)),
        Entry(.channel, .owner, .enter(.owner)),
        Entry(.channel, .image, .attributes(.itunesImage)),
        Entry(.channel, .keywords, .text(.keywords)),
        Entry(.channel, .explicit, .text(.channelExplicit)),
        Entry(.channel, .type, .text(.showType)),
        Entry(.channel, .newFeedURL, .text(.newFeedURL)),
        Entry(.owner, .name, .text(.ownerName)),
        Entry(.owner, .email, .text(.ownerEmail)),
        Entry(.item, .summary, .markup(.itemSummary)),
        Entry(.item, .duration, .text(.duration)),
        Entry(.item, .subtitle, .text(.itemSubtitle)),
        Entry(.item, .image, .attributes(.itunesImage)),
        Entry(.item, .episodeType, .text(.episodeType)),
        Entry(.item, .episode, .text(.episodeNumber)),
        Entry(.item, .season, .text(.season)),
        Entry(.item, .explicit, .text(.itemExplicit)),
        Entry(.item, .author, .text(.itemAuthor)),
    ]
}
