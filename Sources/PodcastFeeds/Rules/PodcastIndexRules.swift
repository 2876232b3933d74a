extension FeedRules {
    /// The Podcasting 2.0 namespace (`podcast:`, https://podcastindex.org/namespace/1.0) as
    /// podcastindex.org specifies it: the show's guid, `locked`, funding, medium, schedule,
    /// licence, location, trailers and podroll; per episode its chapters file, transcripts,
    /// persons, season and episode names, alternate enclosures, soundbites, licence and location.
    static let podcastIndex: [Entry] = [
        Entry(.channel, .guid, .text(.podcastGUID)),
        Entry(.channel, .funding, .attributes(.funding)),
        Entry(.channel, .locked, .text(.locked)),
        Entry(.channel, .medium, .text(.medium)),
        Entry(.channel, .updateFrequency, .attributes(.podcastText(.updateFrequency))),
        Entry(.channel, .license, .attributes(.podcastText(.license))),
        Entry(.channel, .location, .attributes(.podcastText(.location))),
        Entry(.channel, .trailer, .attributes(.podcastText(.trailer))),
        Entry(.channel, .podroll, .enter(.podroll)),
        Entry(.podroll, .remoteItem, .attributes(.remoteItem)),
        Entry(.item, .chapters, .attributes(.chaptersURL)),
        Entry(.item, .transcript, .attributes(.transcript)),
        Entry(.item, .person, .attributes(.person)),
        Entry(.item, .season, .attributes(.podcastText(.podcastSeason))),
        Entry(.item, .episode, .attributes(.podcastText(.podcastEpisode))),
        Entry(.item, .soundbite, .attributes(.podcastText(.soundbite))),
        Entry(.item, .license, .attributes(.podcastText(.license))),
        Entry(.item, .location, .attributes(.podcastText(.location))),
        Entry(.item, .alternateEnclosure, .attributes(.alternateEnclosure)),
        Entry(.inItem, .source, .attributes(.alternateSource)),
    ]
}
