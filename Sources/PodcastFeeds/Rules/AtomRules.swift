extension FeedRules {
    /// Atom 1.0 (RFC 4287) and Atom 0.3 (`tagline`, `issued`, `modified`). In an Atom document
    /// elements without a namespace count as Atom.
    static let atom: [Entry] = [
        Entry(.channel, .title, .textConstruct(.channelTitle)),
        Entry(.channel, .link, .attributes(.atomLink)),
        Entry(.channel, .subtitle, .textConstruct(.channelSubtitle)),
        Entry(.channel, .tagline, .textConstruct(.channelSubtitle)),
        Entry(.channel, .generator, .text(.generator)),
        Entry(.channel, .author, .enter(.feedAuthor)),
        Entry(.channel, .icon, .text(.atomIcon)),
        Entry(.channel, .logo, .text(.atomLogo)),
        Entry(.feedAuthor, .name, .text(.feedAuthorName)),
        Entry(.feedAuthor, .email, .text(.feedAuthorEmail)),
        Entry(.item, .title, .textConstruct(.itemTitle)),
        Entry(.item, .link, .attributes(.atomLink)),
        Entry(.item, .id, .text(.atomID)),
        Entry(.item, .summary, .textConstruct(.atomSummary)),
        Entry(.item, .content, .attributes(.atomContent)),
        Entry(.item, .published, .text(.atomPublished)),
        Entry(.item, .issued, .text(.atomPublished)),
        Entry(.item, .updated, .text(.atomUpdated)),
        Entry(.item, .modified, .text(.atomUpdated)),
        Entry(.item, .author, .enter(.entryAuthor)),
        Entry(.entryAuthor, .name, .text(.entryAuthorName)),
        Entry(.entryAuthor, .email, .text(.entryAuthorEmail)),
    ]
}
