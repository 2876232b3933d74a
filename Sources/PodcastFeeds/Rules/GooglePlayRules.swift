extension FeedRules {
    /// Google Play's podcast namespace (`googleplay:`): a description and an image, used when
    /// nothing else gives them.
    static let googlePlay: [Entry] = [
        Entry(.channel, .description, .text(.googleplayDescription)),
        Entry(.channel, .image, .attributes(.googlePlayImage)),
    ]
}
