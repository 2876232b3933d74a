import PodcastFeeds
import PodcastStore

extension CommandRunner {
    /// What `add` subscribes to after its check, or the status it exits with.
    enum AddCheckResult: Equatable {
        /// Subscribe to `url` (the URL given, or the one feed its page links to); `title` and
        /// `podcastGUID` are the channel's own, as parsed.
        case subscribe(url: String, title: String?, podcastGUID: String?)
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
        case .feed(let feedURL, let title, let podcastGUID):
            if feedURL != url {
                console.out(
                    "Found the feed \(TerminalText.line(MaskedURL.string(feedURL))) on the page \(TerminalText.line(MaskedURL.string(url)))\n"
                )
            }
            return .subscribe(url: feedURL, title: title, podcastGUID: podcastGUID)
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

    /// `add`'s `podcast:guid` check of the feed found at `url` (not subscribed by that URL):
    /// `nil` to go on subscribing (no guid, or no subscription has it, without `--replace`);
    /// else the exit status, with its message said. Without `replace`, a subscription with
    /// the same guid (compared as the store keeps it: trimmed, any case) is the same show
    /// under another URL: refused with status 1, as a URL already subscribed is. With
    /// `replace`, the one subscription with the guid is moved to `url`
    /// (`FeedStore.replaceURL`); no guid, no match or several matches are refused with
    /// status 1 and nothing changed. Text from the feed is neutralised for the terminal.
    func sameShow(_ store: FeedStore, url: String, podcastGUID: String?, replace: Bool) throws -> ExitCode? {
        let matches = try podcastGUID.map { try store.feeds(podcastGUID: $0) } ?? []
        // The URL itself subscribed (a page's feed link): `add` says so.
        if matches.contains(where: { $0.url == url }) && !replace { return nil }
        let shownURL = TerminalText.line(MaskedURL.string(url))
        // The guid as the feed wrote it, cut short: a feed controls its length.
        let guid = (podcastGUID ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        let shownGUID = TerminalText.line(guid.count > 80 ? guid.prefix(80) + "…" : guid)
        func named(_ feed: FeedRecord) -> String { "feed #\(feed.id) \(TerminalText.line(MaskedURL.string(feed.url)))" }
        guard replace else {
            guard let existing = matches.first else { return nil }
            console.err(
                "podcast-watch: not subscribed: \(shownURL) is the same show as \(named(existing)) (podcast:guid \(shownGUID)); if the show moved, 'add URL --replace' moves feed #\(existing.id) to URL, keeping its history\n"
            )
            return .feedFailed
        }
        guard matches.count == 1, let feed = matches.first else {
            let why =
                matches.count > 1
                ? "\(matches.count) subscriptions have the podcast:guid \(shownGUID) of \(shownURL) (\(matches.map(named).joined(separator: ", "))); remove all but one first"
                : guid.isEmpty
                    ? "\(shownURL) has no podcast:guid to find its subscription by ('add' without --replace subscribes to it)"
                    : "no subscription has the podcast:guid \(shownGUID) of \(shownURL) ('add' without --replace subscribes to it)"
            console.err("podcast-watch: not moved: \(why)\n")
            return .feedFailed
        }
        return try moveFeed(store, feed, to: url)
    }

    /// Moves `feed` to `url` (`sameShow`'s `--replace`) and says so.
    private func moveFeed(_ store: FeedStore, _ feed: FeedRecord, to url: String) throws -> ExitCode {
        do {
            let move = try store.replaceURL(id: feed.id, with: url)
            console.out(
                "Moved feed #\(feed.id) from \(TerminalText.line(MaskedURL.string(move.from))) to \(TerminalText.line(MaskedURL.string(move.to))), keeping its episodes and history (the same podcast:guid)\n"
            )
            return .success
        } catch StoreError.alreadySubscribed(let url, let id) {
            console.err(
                "podcast-watch: not moved: \(TerminalText.line(MaskedURL.string(url))) is already subscribed (feed #\(id))\n"
            )
            return .feedFailed
        } catch StoreError.invalidURL(let url, let reason) {
            console.err("podcast-watch: invalid feed URL '\(TerminalText.line(MaskedURL.string(url)))': \(reason)\n")
            return .usage
        }
    }
}
