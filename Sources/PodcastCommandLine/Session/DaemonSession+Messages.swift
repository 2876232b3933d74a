import Foundation
import LoopScheduler
import PodcastEngine
import PodcastFeeds
import PodcastStore
import PodcastWeb

#if canImport(Glibc)
import Glibc
#endif

// What `run` says on stderr beside the daemon's own warnings: the dashboard's banner, a failed
// download, an empty start.
extension DaemonSession {
    /// The dashboard's start line. The token never goes to a log: one given by the operator is
    /// not repeated; a generated one is shown only when stderr is a terminal, else written to
    /// `tokenFile` (mode 0600, replaced at each start) and the line names that file.
    static func dashboardBanner(
        _ web: WebDashboard, tokenGiven: Bool, stderrIsTerminal: Bool, tokenFile: String
    ) -> String {
        let base = web.url
        guard let token = web.access.token else { return web.banner }
        if tokenGiven {
            return
                "podcast-watch: dashboard at \(base)\(web.listeningNote) (token required: the one --http-token or http-token gives)\n"
        }
        if stderrIsTerminal { return web.banner }
        let fd = open(tokenFile, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        let written =
            fd >= 0 && fchmod(fd, 0o600) == 0
            && Array((token + "\n").utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) == $0.count }
        let reason = String(cString: strerror(errno))
        if fd >= 0 { close(fd) }
        guard written else {
            return
                "podcast-watch: dashboard at \(base)\(web.listeningNote) (token required; cannot write it to \(tokenFile): \(reason); set http-token)\n"
        }
        return
            "podcast-watch: dashboard at \(base)\(web.listeningNote) (token required; it is in \(tokenFile): open \(base)?token=TOKEN once, or send 'Authorization: Bearer TOKEN')\n"
    }

    /// The stderr line of a `download_failed` event: what failed, why, and what follows (a retry
    /// at a UTC time, or nothing after the last attempt).
    static func downloadFailureLine(_ event: DownloadEvent) -> String {
        let name = [event.podcastTitle, event.episodeTitle].compactMap { $0 }.joined(separator: " — ")
        let what = name.isEmpty ? event.episodeURL : name
        let attempts = event.attempts ?? 1
        let next: String
        if let retry = event.nextRetry {
            next = "attempt \(attempts); retrying at \(ISO8601DateFormatter().string(from: retry))"
        } else {
            next = "gave up after \(attempts) attempt\(attempts == 1 ? "" : "s")"
        }
        return "podcast-watch: warning: download of \"\(what)\" failed: \(event.error ?? "unknown error") (\(next))\n"
    }

    /// What `run` says on stderr when it starts with no subscriptions: how to add one, and
    /// (without `--once`) how to make the running daemon pick it up.
    static func emptyHint(once: Bool, service: Bool, pid: pid_t) -> String {
        if once {
            return "podcast-watch: no subscriptions yet, nothing to poll; add one with 'podcast-watch add URL'\n"
        }
        let reload = service ? "systemctl reload podcast-watch (--user for a user unit)" : "kill -HUP \(pid)"
        return
            "podcast-watch: no subscriptions yet; add one with 'podcast-watch add URL', then send SIGHUP (\(reload)) to poll it\n"
    }
}
