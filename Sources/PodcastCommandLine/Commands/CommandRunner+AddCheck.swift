import PodcastFeeds

extension CommandRunner {
    /// What `add` subscribes to after its check, or the status it exits with.
    enum AddCheckResult: Equatable {
        /// Subscribe to `url` (the URL given, or the one feed its page links to); `title` is
        /// the channel's own.
        case subscribe(url: String, title: String?)
        /// Refused; the message is on stderr.
        case refused(ExitCode)
    }

    /// `add`'s check (`FeedCheck`) of the normalized `url`: a feed is subscribed with its title;
    /// anything else is said on stderr with exit status 8 (`ExitCode.notAFeed`), a page linking
    /// several feeds with the list of them (titles and URLs neutralised for the terminal).
    func checkFeed(_ url: String) -> AddCheckResult {
        let found: FeedCheck.Found
        do {
            found = try FeedCheck().run(url)
        } catch {
            console.err("podcast-watch: event loop failed: \(error)\n")
            return .refused(.internalError)
        }
        switch found {
        case .feed(let feedURL, let title):
            if feedURL != url {
                console.out(
                    "Found the feed \(TerminalText.line(MaskedURL.string(feedURL))) on the page \(TerminalText.line(MaskedURL.string(url)))\n"
                )
            }
            return .subscribe(url: feedURL, title: title)
        case .several(let links):
            var text =
                "podcast-watch: \(TerminalText.line(MaskedURL.string(url))) is a page that links \(links.count) feeds; add one of them:\n"
            for link in links {
                let title = link.title.map { TerminalText.line($0) } ?? "(no title)"
                text += "  \(title)\n    \(TerminalText.line(MaskedURL.string(link.url)))\n"
            }
            console.err(text)
            return .refused(.notAFeed)
        case .refused(let reason):
            console.err(
                "podcast-watch: not subscribed: \(TerminalText.line(reason)) ('add --no-check' subscribes without fetching)\n"
            )
            return .refused(.notAFeed)
        }
    }
}
