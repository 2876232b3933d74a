extension FeedRules {
    /// RSS 2.0 (also 0.9x, and RSS 1.0's default namespace, which names the same elements).
    static let rss: [Entry] = [
        Entry(.channel, .title, .textConstruct(.channelTitle)),
        Entry(.channel, .link, .text(.channelLink)),
        Entry(.channel, .description, .markup(.channelDescription)),
        Entry(.channel, .language, .text(.language)),
        Entry(.channel, .generator, .text(.generator)),
        Entry(.channel, .author, .text(.channelRSSAuthor)),
        Entry(.channel, .managingEditor, .text(.managingEditor)),
        Entry(.channel, .redirect, .enter(.redirect)),
        Entry(.channelImage, .url, .text(.imageURL)),
        // `<redirect><newLocation>`: any namespace, as feeds wrote it.
        Entry(.redirect, .newLocation, .text(.newLocation), anyNamespace: true),
        Entry(.item, .title, .textConstruct(.itemTitle)),
        Entry(.item, .link, .text(.itemLink)),
        Entry(.item, .guid, .attributes(.guid)),
        Entry(.item, .description, .markup(.itemDescription)),
        Entry(.item, .pubdate, .text(.pubDate)),
        Entry(.item, .enclosure, .attributes(.enclosure)),
        Entry(.item, .author, .text(.itemRSSAuthor)),
        // Show notes in the elements early feeds used, read as feedparser reads them: `<fullitem>`
        // as `content:encoded`, a `<body>` (XHTML inline) as an XHTML body.
        Entry(.item, .fullitem, .markup(.contentEncoded)),
        Entry(.item, .body, .markup(.xhtmlBody)),
    ]
}
