extension FeedRules {
    /// RSS 1.0's content module (`content:`): `content:encoded` carries the HTML show notes.
    static let content: [Entry] = [
        Entry(.item, .encoded, .markup(.contentEncoded))
    ]
}
