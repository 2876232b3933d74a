import Foundation
import PodcastEngine
import PodcastFeeds
import PodcastStore

extension CommandRunner {
    /// `import FILE.opml`: subscribes to every feed outline (`xmlUrl`, else `url`; title from
    /// `title`, else `text`). Already subscribed feeds and unusable URLs are skipped with a note
    /// on stderr. A broken file imports what could be recovered, with a warning; a missing,
    /// unreadable or non-OPML file is exit status 4.
    func importOPML(_ store: FeedStore?, _ path: String) throws -> ExitCode {
        guard let store else { return .stateError }
        let file = path.hasPrefix("/") ? path : currentDirectory + "/" + path
        guard let outlines = readOutlines(file) else { return .inputError }
        // Relative references inside the file are relative to the file's folder, and only count
        // when they name an existing file (OPML from elsewhere holds URLs; junk such as
        // "not a url" must not become a subscription to a missing local file).
        let folder = (file as NSString).deletingLastPathComponent
        var tally = ImportTally()
        var seen = Set<String>()
        for outline in outlines {
            guard let url = locate(outline, folder: folder) else {
                tally.skipped += 1
                continue
            }
            guard seen.insert(url).inserted else {
                tally.duplicates += 1
                continue
            }
            try subscribe(outline, url: url, store: store, &tally)
        }
        let added = tally.added
        let dupText = tally.duplicates > 0 ? ", \(tally.duplicates) repeated in the file" : ""
        console.out(
            "Imported \(added) \(added == 1 ? "feed" : "feeds") from \(file) (\(tally.existing) already subscribed\(dupText), \(tally.skipped) skipped)\n"
        )
        return .success
    }

    // What one import did.
    private struct ImportTally {
        var added = 0
        var existing = 0
        var duplicates = 0
        var skipped = 0
    }

    // The file's outlines; a broken file gives what could be recovered, with a warning. `nil`
    // (said on stderr) for a file that cannot be read or is no OPML.
    private func readOutlines(_ file: String) -> [OPMLOutline]? {
        guard let data = FileManager.default.contents(atPath: file) else {
            console.err(
                "podcast-watch: cannot read \(file): \(FileManager.default.fileExists(atPath: file) ? "permission denied or not a file" : "no such file")\n"
            )
            return nil
        }
        do {
            return try OPML.parse(data: data)
        } catch .malformed(let details, let recovered) where !recovered.isEmpty {
            console.err(
                "podcast-watch: warning: \(file) is not well-formed (\(details.first ?? "XML error")); importing the \(recovered.count) feeds recovered\n"
            )
            return recovered
        } catch {
            console.err("podcast-watch: \(file): \(error)\n")
            return nil
        }
    }

    // The outline's feed location, normalised; `nil` (said on stderr) for one that is no URL, a
    // local file that does not exist, or a file that is not a regular file.
    private func locate(_ outline: OPMLOutline, folder: String) -> String? {
        let name = outline.title.map { "\"\($0)\" " } ?? ""
        let url: String
        do {
            url = try FeedLocation.normalize(outline.url, currentDirectory: folder, home: environment["HOME"])
        } catch {
            console.err(
                "podcast-watch: skipped outline \(name)(xmlUrl \(MaskedURL.string(error.input))): \(error.reason)\n")
            return nil
        }
        if let path = URL(string: url).flatMap({ $0.isFileURL ? $0.path : nil }),
            !FileManager.default.fileExists(atPath: path)
        {
            console.err(
                "podcast-watch: skipped outline \(name)(xmlUrl \(MaskedURL.string(outline.url))): not an http(s) URL, and no such file: \(path)\n"
            )
            return nil
        }
        if let path = URL(string: url).flatMap({ $0.isFileURL ? $0.path : nil }),
            let refusal = FileFetch.refusal(path: path)
        {
            console.err("podcast-watch: skipped outline \(name)(xmlUrl \(MaskedURL.string(outline.url))): \(refusal)\n")
            return nil
        }
        return url
    }

    // Subscribes to one outline's feed with its title, interval and download settings, each
    // checked as `add` checks them.
    private func subscribe(_ outline: OPMLOutline, url: String, store: FeedStore, _ tally: inout ImportTally) throws {
        let name = outline.title.map { "\"\($0)\" " } ?? ""
        // The check `add --title` makes: a title with control characters or bidi overrides is
        // not stored; the feed is, and shows its channel's title.
        var title = outline.title
        if let t = title, !TerminalText.isAcceptableTitle(t) {
            console.err(
                "podcast-watch: warning: outline \(TerminalText.line(t).debugDescription) (xmlUrl \(MaskedURL.string(outline.url))): title not imported, it holds control characters or bidi overrides\n"
            )
            title = nil
        }
        let interval = checkedInterval(outline, name: name)
        do {
            let feed = try store.add(url: url, title: title, intervalSeconds: interval)
            let downloads = DownloadLedger.FeedSettings(download: outline.download, keep: outline.keep)
            if downloads != .init() { try DownloadLedger(store: store).setSettings(downloads, feedID: feed.id) }
            tally.added += 1
        } catch StoreError.alreadySubscribed {
            tally.existing += 1
        } catch StoreError.invalidURL(let bad, let reason) {
            console.err("podcast-watch: skipped outline \(name)(xmlUrl \(MaskedURL.string(bad))): \(reason)\n")
            tally.skipped += 1
        }
    }

    // The outline's `pw:interval`: one that is no number of seconds (-5, nan, 1e400) is not
    // silently dropped; one past the limit (1e10 s once froze every timer of the loop) is clamped.
    private func checkedInterval(_ outline: OPMLOutline, name: String) -> Int? {
        if let bad = outline.rejectedInterval {
            let at = outline.line.map { ", line \($0)" } ?? ""
            console.err(
                "podcast-watch: warning: outline \(name)(xmlUrl \(MaskedURL.string(outline.url)))\(at): pw:interval \(TerminalText.line(bad).debugDescription) is not a whole number of seconds above 0; using the default interval\n"
            )
        }
        guard let seconds = outline.interval, seconds > PollPolicy.maximumIntervalSeconds else {
            return outline.interval
        }
        console.err(
            "podcast-watch: warning: outline \(name)(xmlUrl \(MaskedURL.string(outline.url))): pw:interval \(seconds) s is longer than 30 days; using 30 days\n"
        )
        return PollPolicy.maximumIntervalSeconds
    }

    /// `export`: the subscriptions as OPML 2.0 on stdout (the user's title, else the channel's,
    /// else none; the feed's own interval as `pw:interval`, its download settings as
    /// `pw:download` and `pw:keep`).
    func export(_ store: FeedStore?) throws -> ExitCode {
        let feeds = try store?.feeds() ?? []
        let ledger = store.map(DownloadLedger.init)
        try emit(
            OPML.export(
                try feeds.map {
                    let downloads = try ledger?.settings(feedID: $0.id) ?? .init()
                    return OPMLOutline(
                        url: $0.url, title: $0.title ?? $0.feedTitle, interval: $0.intervalSeconds,
                        download: downloads.download, keep: downloads.keep)
                }))
        try console.flush()  // a deferred write error of export > FILE
        return .success
    }
}
