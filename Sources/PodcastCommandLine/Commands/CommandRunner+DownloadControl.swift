import Foundation
import PodcastEngine
import PodcastFeeds
import PodcastStore

extension CommandRunner {
    /// `download --episode N | --failed | URL|--id N --all`. Downloads with a row are queued
    /// again in the store (`DownloadLedger.requeue`); episodes never queued are recorded as
    /// requests (`DownloadLedger.request`), which only a daemon can name (its download folder
    /// and template may be its own command line's): a running `run` takes both on SIGHUP, the
    /// next one at its start. Exit status 1 when there is no such episode or feed.
    func download(_ store: FeedStore?, _ ask: DownloadAsk) throws -> ExitCode {
        guard let store else {
            console.err("podcast-watch: no subscriptions yet (see 'podcast-watch add')\n")
            return .feedFailed
        }
        let ledger = DownloadLedger(store: store)
        let now = Date()
        let pickUp = "; a running 'podcast-watch run' starts it on SIGHUP"
        func pickUpAll(_ count: Int) -> String {
            count == 1 ? pickUp : "; a running 'podcast-watch run' starts them on SIGHUP"
        }
        switch ask {
        case .episode(let id):
            if let record = try ledger.record(episodeID: id) {
                switch record.state {
                case .pending, .downloading:
                    console.out("Episode \(id) is already queued\n")
                case .done:
                    console.out("Episode \(id) is already downloaded: \(TerminalText.line(record.path))\n")
                case .failed, .deleted:
                    try ledger.requeue(episodeID: id, now: now)
                    console.out("Queued episode \(id) again\(pickUp)\n")
                }
                return .success
            }
            guard let (episode, _) = try ledger.episodeToDownload(id: id) else {
                console.err("podcast-watch: no episode #\(id) (see 'podcast-watch downloads' or /api/episodes)\n")
                return .feedFailed
            }
            guard let url = episode.enclosure?.url, case .http = FetchTarget(url) else {
                console.err("podcast-watch: episode #\(id) has no http(s) enclosure to download\n")
                return .feedFailed
            }
            try ledger.request(episodeID: id, at: now)
            console.out("Asked for episode \(id)\(pickUp)\n")
        case .failed:
            let failed = try ledger.failed()
            try store.database.transaction {
                for record in failed { try ledger.requeue(episodeID: record.episodeID, now: now) }
            }
            let downloads = "\(failed.count) failed download\(failed.count == 1 ? "" : "s")"
            console.out("Queued \(downloads) again\(pickUpAll(failed.count))\n")
        case .backCatalogue(let key):
            guard let feed = try feed(store, key) else { return .feedFailed }
            let ids = try ledger.backCatalogue(feedID: feed.id)
            try store.database.transaction {
                for id in ids { try ledger.request(episodeID: id, at: now) }
            }
            console.out(
                "Asked for \(ids.count) episode\(ids.count == 1 ? "" : "s") of feed #\(feed.id)\(pickUpAll(ids.count))\n"
            )
        }
        return .success
    }

    /// `cancel-download --episode N`: the store records it cancelled (`DownloadLedger.cancel`);
    /// a running `run` stops its transfer on SIGHUP. Exit status 1 when it is not waiting or
    /// running.
    func cancelDownload(_ store: FeedStore?, episodeID id: Int64) throws -> ExitCode {
        guard let store, try DownloadLedger(store: store).cancel(episodeID: id) else {
            console.err("podcast-watch: episode #\(id) has no download waiting or running\n")
            return .feedFailed
        }
        console.out("Cancelled the download of episode \(id); a running 'podcast-watch run' stops it on SIGHUP\n")
        return .success
    }

    /// `delete-download --episode N`: deletes the file if it is still the one downloaded, and
    /// records the download `deleted`. Exit status 1 when there is none, or the file was kept.
    func deleteDownload(_ store: FeedStore?, episodeID id: Int64) throws -> ExitCode {
        let ledger = store.map(DownloadLedger.init)
        guard let ledger, let record = try ledger.record(episodeID: id), record.state == .done else {
            console.err("podcast-watch: episode #\(id) has no downloaded file\n")
            return .feedFailed
        }
        if let kept = DownloadQueue.deleteDownloadedFile(record) {
            console.err("podcast-watch: kept \(TerminalText.line(record.path)): \(kept)\n")
            return .feedFailed
        }
        try ledger.markDeleted(episodeID: id)
        console.out("Deleted \(TerminalText.line(record.path))\n")
        return .success
    }

    /// `feed-url [URL | --id N] [--rotate]`: the local feed's URL (with its secret, made on
    /// first use), on the address `run --http` serves per the config file.
    func feedURL(_ store: FeedStore?, _ key: FeedSelector?, rotate: Bool) throws -> ExitCode {
        guard let store else { return .stateError }
        var scope = FeedStore.libraryScope
        if let key {
            guard let feed = try feed(store, key) else { return .feedFailed }
            scope = feed.id
        }
        let secret = rotate ? try store.rotateLocalFeedSecret(scope: scope) : try store.localFeedSecret(scope: scope)
        let path = "/local/\(secret)/feed.xml"
        if let origin = configuredRun?.httpPublicOrigin {
            console.out("\(origin)\(path)\n")
        } else if let address = configuredRun?.http {
            console.out("http://\(address)\(path)\n")
            if address.host == "0.0.0.0" || address.host == "::" {
                console.err(
                    "podcast-watch: replace \(address.host) with an address of this machine the phone can reach\n")
            }
        } else {
            console.out(path + "\n")
            console.err(
                "podcast-watch: prefix it with the address 'run --http' serves (no 'http' in the config file)\n")
        }
        if rotate { console.err("podcast-watch: the old URL no longer works\n") }
        return .success
    }
}
