extension FeedRules {
    /// RSS 1.0's content module (`content:`): `content:encoded` carries the HTML show notes.
    static let content: [Entry] = [
        Entry(.item, .encoded, .markup(.contentEncoded))
    ]

    /// XHTML (`xhtml:`, http://www.w3.org/1999/xhtml): an item's `xhtml:body` is its show notes,
    /// inline XHTML (feedparser reads it as content).
    static let xhtml: [Entry] = [
        Entry(.item, .body, .markup(.xhtmlBody))
    ]
}
