extension FeedRules {
    /// The Podcasting 2.0 namespace (`podcast:`, https://podcastindex.org/namespace/1.0) as
    /// podcastindex.org specifies it: the show's guid, `locked`, funding, and per episode its
    /// chapters file, transcripts and persons.
    static let podcastIndex: [Entry] = [
        Entry(.channel, .guid, .text(.podcastGUID)),
        Entry(.channel, .funding, .attributes(.funding)),
        Entry(.channel, .locked, .text(.locked)),
        Entry(.item, .chapters, .attributes(.chaptersURL)),
        Entry(.item, .transcript, .attributes(.transcript)),
        Entry(.item, .person, .attributes(.person)),
    ]
}
