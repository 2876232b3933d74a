import PodcastFeeds

/// The help texts of `podcast-watch`, one per command plus the general usage. Plain text, lines
/// under 80 columns, ending in a newline.
public enum UsageText {
    /// The version `--version` prints.
    public static let version = "0.1.0"

    /// The help for `command` (a name from `CommandLineParser.commands`), or the general usage
    /// for `nil` or an unknown name.
    public static func help(for command: String?) -> String {
        switch command {
        case "add": return add
        case "remove": return remove
        case "enable": return enableDisable(first: "enable", second: "disable")
        case "disable": return enableDisable(first: "disable", second: "enable")
        case "set": return set
        case "list": return list
        case "import": return importOPML
        case "export": return export
        case "run": return run
        case "show": return show
        case "demo": return demo
        case "downloads": return downloads
        case "download": return download
        case "cancel-download": return cancelDownload
        case "delete-download": return deleteDownload
        case "feed-url": return feedURL
        default: return general
        }
    }

    /// The short usage printed after a usage error for `command` (its first lines).
    public static func short(for command: String?) -> String {
        let text = help(for: command)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let cut = lines.firstIndex(where: { $0.isEmpty }) ?? lines.endIndex
        return lines[..<cut].joined(separator: "\n")
            + "\nTry 'podcast-watch \(command.map { "\($0) " } ?? "")--help' for more.\n"
    }

    /// The general usage (`podcast-watch --help`).
    public static let general = """
        Usage: podcast-watch [--state DIR] COMMAND [OPTIONS]

        Watch podcast feeds and report new episodes.

        Commands:
          add URL [--title T] [--interval SECONDS|15m|2h|1d]
              [--download | --no-download] [--keep N] [--no-check]
                                                      subscribe to a feed
          add URL --replace                           move the subscription to the same
                                                      show (its podcast:guid) to URL
          remove URL | --id N                         unsubscribe
          enable URL | --id N                         poll a disabled feed again
          disable URL | --id N                        stop polling a feed, keep it
          set URL | --id N [--download | --no-download | --download-default]
              [--keep N|default] [--interval S|default]
                                                      change one feed's settings
          list [--json]                               list the subscriptions
          import FILE.opml                            subscribe to the feeds of an OPML file
          export                                      print the subscriptions as OPML 2.0
          run [--once [--force]] [--interval S] [--hook CMD] [--json] [--first-sync-announce N]
                                                      poll the feeds, report new episodes
          show URL|FILE [--json]                      fetch and parse one feed, print it all
          demo [--samples DIR] [--json]               one pass over the bundled sample feeds
          downloads [--json]                          list downloaded and queued episodes
          download --episode N | --failed | URL|--id N --all
                                                      download an episode, a back catalogue,
                                                      or retry failures
          cancel-download --episode N                 cancel a queued or running download
          delete-download --episode N                 delete a downloaded file, keep the episode
          feed-url [URL | --id N] [--rotate]          print (or rotate) a local feed's private URL

        A feed is an http(s):// URL, a file:// URL or a path to a file.

        Global options:
          --state DIR   where the database lives (default: $XDG_STATE_HOME/podcast-watch,
                        else ~/.local/state/podcast-watch)
          -h, --help    show help; 'podcast-watch COMMAND --help' for one command
          --version     print the version

        Exit status:
          0   success
          1   a feed failed (run --once, show, demo), remove or set found no such
              feed, or add found it already subscribed (by URL, or the same show by
              its podcast:guid), or add --replace found no one subscription to move
          2   usage error (unknown command or option, bad value, an option given
              twice, a mistake in the config file)
          3   state directory or database error
          4   input file error (missing, unreadable or not OPML; show of a
              directory)
          5   output error: stdout could not be written (closed, disk full, broken
              pipe); run stops, and what was not written stays pending
          6   run or demo: another podcast-watch run holds the state directory
          7   run --http: the address is in use or not on this host, or no
              permission to listen on it
          8   add found no feed at the URL (an HTTP error, a host that does not
              resolve, not a feed), or a page linking several feeds (listed)
          70  internal error (the event loop failed)
          130 / 143  run --once or demo stopped by SIGINT / SIGTERM before every
              feed was polled

        """

    static let add = """
        Usage: podcast-watch add URL [--title T] [--interval SECONDS|15m|2h|1d]
                                 [--download | --no-download] [--keep N] [--no-check]
               podcast-watch add URL --replace

        Subscribe to the feed at URL (http://, https://, file:// or a path). A local
        feed must be a regular file (not a directory, FIFO or device: status 4).
        Credentials in the URL are kept for fetching and shown as user:***@.

        add fetches URL once, with run's limits, and stores the feed's title. A URL
        that answers an HTTP error, does not resolve or is not a feed is refused
        (status 8). A web page's feed links (<link rel="alternate"> of type RSS or
        Atom) are followed: its one feed is subscribed; several are listed (status
        8), to add one of them. A feed whose podcast:guid a subscription already has
        is the same show under another URL: refused (status 1), naming that feed.

          --title T            show the feed under this title instead of its own
          --interval SECONDS   poll this feed every SECONDS (or 15m, 2h, 1d; 1 s to 30 d);
                               default 3600, or run's --interval
          --download           download this feed's new episodes even when run has
                               no --download DIR (into
                               $XDG_DATA_HOME/podcast-watch/downloads, else
                               ~/.local/share/podcast-watch/downloads)
          --no-download        never download this feed's episodes
          --keep N             keep this feed's newest N downloaded files (run --keep
                               otherwise); older ones the store downloaded are deleted
          --no-check           subscribe without fetching URL (a feed not online yet)
          --replace            the show moved to URL: move the one subscription with
                               URL's podcast:guid there, keeping its id, episodes,
                               downloads and settings (status 1 when none or several
                               have it); no other option

        """

    static let set = """
        Usage: podcast-watch set URL | --id N
                   [--download | --no-download | --download-default]
                   [--keep N|default] [--interval S|default]

        Change one feed's own settings, keeping its episodes, downloads and
        history (no need to remove and add it again). Give at least one option.
        A running 'podcast-watch run' picks the change up on SIGHUP.

          --download           download this feed's new episodes (as add --download)
          --no-download        never download this feed's episodes
          --download-default   follow run: download only with run --download DIR
          --keep N             keep this feed's newest N downloaded files (1-100000)
          --keep default       follow run's --keep (all files without it)
          --interval S         poll this feed every S seconds (or 15m, 2h, 1d)
          --interval default   follow run's --interval (else 3600 s)

        URL is as 'remove' takes it; --id N is the number 'podcast-watch list'
        shows. Prints the feed's settings after the change. Exit status 1 if no
        such feed is subscribed, 2 for a bad or missing option.

        """

    static let downloads = """
        Usage: podcast-watch downloads [--json]

        List every download the store knows, newest first: state (pending,
        downloading, done, failed, deleted by --keep), bytes, path, and for a
        failed one the error and the next attempt.

          --json   one JSON object per line, keys in this order: episode_id,
                   feed_id, podcast_title, episode_title, url, path, state, bytes,
                   total, attempts, error, next_retry, queued, finished, seconds

        """

    static let download = """
        Usage: podcast-watch download --episode N
               podcast-watch download --failed
               podcast-watch download URL --all
               podcast-watch download --id N --all

        Queue downloads by hand, whatever the feed's download setting. A running
        'podcast-watch run' starts them on SIGHUP (systemctl reload), the next
        'run' at its start; they wait for a slot like any download.

          --episode N   episode N (the number 'downloads' and /api/episodes show):
                        a failed, cancelled or deleted download is queued again
                        (a failed one resumes its .part), an episode never queued
                        (older than the first sync announced) is queued new
          --failed      every failed download again, given up or waiting
          --all         every episode of the feed with an enclosure that was never
                        queued (its back catalogue), newest first
          --id N        the feed numbered N in 'list' (instead of URL)

        Exit status 1 when there is no such episode or feed.

        """

    static let cancelDownload = """
        Usage: podcast-watch cancel-download --episode N

        Cancel episode N's download while it waits or runs: it is recorded as
        failed ("cancelled") with no further attempt, its .part file kept for a
        later 'download --episode N'. A running 'run' stops the transfer on SIGHUP.

          --episode N   the episode (the number 'downloads' shows)

        Exit status 1 when it has no download waiting or running.

        """

    static let deleteDownload = """
        Usage: podcast-watch delete-download --episode N

        Delete episode N's downloaded file, if it is still the file podcast-watch
        wrote (a regular file of the size it downloaded). The episode stays known
        and is not downloaded again unless asked ('download --episode N').

          --episode N   the episode (the number 'downloads' shows)

        Exit status 1 when it has no downloaded file, or the file was kept.

        """

    static let feedURL = """
        Usage: podcast-watch feed-url [URL | --id N] [--rotate]

        Print the private URL of a local podcast feed, served by 'run --http':
        RSS of the episodes downloaded, for a podcast app on a phone. Without a
        feed, the whole library's. The URL carries a long random secret (podcast
        apps send no password): treat it as one.

          --id N     the feed numbered N in 'list' (instead of URL)
          --rotate   replace the secret first: the old URL stops working at once

        The URL starts with http-public-origin, else the http address from the
        config file; without either, only its path is printed.

        """

    static let remove = """
        Usage: podcast-watch remove URL
               podcast-watch remove --id N

        Unsubscribe from URL (as given to add, or its current URL after a move).
        A path is a path, even one that looks like a number: use --id N for the
        feed numbered N in 'podcast-watch list'.
        Exit status 1 if no such feed is subscribed. Feed numbers are never
        reused: a removed feed's number stays retired.

        """

    // One text for both commands, each naming itself first (the short usage shows line one).
    static func enableDisable(first: String, second: String) -> String {
        "Usage: podcast-watch \(first) URL | --id N\n       podcast-watch \(second) URL | --id N\n" + enableBody
    }

    static let enableBody = """

        Turn polling of one feed on or off, keeping its episodes and history.
        'disable' stops polling; 'enable' resumes it at once, and also brings
        back a feed the server disabled with 410 Gone (its failures are reset).
        A running 'podcast-watch run' picks the change up on SIGHUP.
        URL is as 'remove' takes it; --id N is the number 'podcast-watch list'
        shows. Exit status 1 if no such feed is subscribed.

        """

    static let list = """
        Usage: podcast-watch list [--json]

        List the subscriptions: title, URL, status, last check.

        A feed turned off says by whom ('disable' or 410 Gone) and how to resume
        it; a feed whose hook failed after every retry shows 'hook failing', and
        one whose hook failed and will be retried shows 'hook failing, retry 2/4
        at TIME' (--json: hook_retry, only then).

          --json   one JSON object per line, keys in this order: id, url, title,
                   status, interval, last_check, last_success, last_error,
                   episodes, new_episodes, enabled, hook_error (interval: the
                   feed's own, in seconds; null when it uses the default;
                   hook_error: null unless the last hook run failed)

        """

    static let importOPML = """
        Usage: podcast-watch import FILE.opml

        Subscribe to every feed of an OPML file: the URL comes from xmlUrl (else url),
        the title from title (else text), the interval from pw:interval. Feeds
        already subscribed or repeated in the file are skipped and counted. Only
        http(s):// and file:// URLs and paths of existing regular files (relative to
        the OPML file) are taken; other outlines are skipped with a warning. A title
        with control characters or bidi overrides is not imported; a pw:interval
        over 30 days counts as 30 days.

        """

    static let export = """
        Usage: podcast-watch export > FILE.opml

        Print the subscriptions as an OPML 2.0 document on stdout.

        """

    static let run = """
        Usage: podcast-watch run [--once [--force]] [--interval S] [--hook CMD] [--json]
                                 [--first-sync-announce N] [--hook-timeout S]
                                 [--hook-retries N] [--hook-log FILE] [--hook-on EVENTS]
                                 [--download DIR] [--download-name TEMPLATE]
                                 [--download-jobs N] [--download-per-host N]
                                 [--download-rate RATE] [--download-max-size SIZE]
                                 [--keep N]
                                 [--http [ADDR:]PORT [--http-token TOKEN]
                                  [--http-public-origin URL]]

        Poll every subscribed feed and report new episodes. On a terminal: a live
        table of the feeds and the newest episodes. Otherwise (or with --json): one
        JSON object per line per event (new_episode, feed_error, feed_moved,
        feed_updated, feed_warning, hook_failed, download_started,
        download_progress, download_finished, download_failed). With no
        subscriptions it says so on stderr; run keeps running (SIGHUP picks up
        feeds added later), --once exits 0.

          --once                     poll every feed once and exit; status 1 if any
                                     feed failed. For cron: a feed backing off
                                     after failures (or a Retry-After) is skipped
                                     until its next poll time
          --force                    with --once: poll backing-off feeds too
          --interval S               poll interval for feeds added without
                                     --interval (seconds, or 15m, 2h, 1d;
                                     default 3600)
          --hook CMD                 run CMD with /bin/sh -c for every new episode.
                                     CMD is your own command line; the episode is
                                     passed ONLY in environment variables, never
                                     pasted into CMD: PODCAST_TITLE, FEED_URL,
                                     EPISODE_TITLE, EPISODE_URL, EPISODE_GUID,
                                     EPISODE_LINK, EPISODE_PUBLISHED (ISO 8601),
                                     EPISODE_DURATION (seconds), EPISODE_MIME_TYPE,
                                     EPISODE_LENGTH. Example:
                                     --hook 'notify-send "$PODCAST_TITLE" "$EPISODE_TITLE"'
          --hook-timeout S           kill a hook (and what it started) still
                                     running after S (default 600 s = 10m)
          --hook-retries N           retry a hook that exits non-zero, is killed
                                     or times out N times, 15 s, 30 s, 60 s...
                                     apart (default 3, at most 10). The last
                                     failure shows in 'list' as 'hook failing'.
                                     A retry still waiting when run stops is
                                     kept and runs at the next start; --once
                                     waits for none (they are kept the same way)
          --hook-log FILE            append hooks' output to FILE (default: on a
                                     terminal, hooks.log in the state directory,
                                     so it never scrambles the table; else
                                     run's stderr)
          --hook-on EVENTS           new_episode (default), downloaded, or both
                                     (comma separated); on downloaded the hook
                                     also gets EPISODE_FILE, and HOOK_EVENT says
                                     which
          --download DIR             download every new episode's enclosure into
                                     DIR (feeds added --no-download excepted);
                                     resumable: NAME.part until complete
          --download-name TEMPLATE   file names, default
                                     '{podcast}/{date} {title}.{ext}'; also {guid},
                                     {id}. Names are made safe (no ../, control
                                     characters or reserved names)
          --download-jobs N          downloads at once (default 4)
          --download-per-host N      downloads at once per host (default 2)
          --download-rate RATE       total bytes per second (500k, 2M; default
                                     no limit)
          --download-max-size SIZE   the most one file may take (500M, 4G; default
                                     8G); a file may also take at most about twice
                                     the length its feed declares. Larger ones are
                                     refused and not retried, and downloads leave
                                     5% of the disk (at most 1G) free
          --keep N                   keep each feed's newest N downloaded files;
                                     only files the store downloaded are deleted
          --json                     JSON lines even on a terminal
          --http [ADDR:]PORT         also serve a live web dashboard, a JSON API
                                     (/api/...) and Prometheus metrics (/metrics)
                                     there (ADDR defaults to 127.0.0.1; port 0
                                     picks a free one). Any address other than
                                     loopback requires a token
          --http-token TOKEN         the token web clients must send (cookie or
                                     'Authorization: Bearer'); without it one is
                                     generated for a non-loopback address and
                                     printed once on stderr
          --http-public-origin URL   the scheme://host[:port] a reverse proxy
                                     serves the dashboard at (its Host and Origin
                                     are accepted; a token is required unless it
                                     is loopback)
          --first-sync-announce N    on a feed's first sync, announce only the
                                     newest N episodes (default 3); the rest are
                                     stored silently. Later polls announce every
                                     new episode. The table's NEW column counts
                                     the episodes announced since start.

        Config file: $PODCAST_WATCH_CONFIG, else $XDG_CONFIG_HOME/podcast-watch/config,
        else ~/.config/podcast-watch/config. One 'key = value' per line (LF or
        CRLF), '#' starts a comment line; keys: state, interval, hook, hook-timeout,
        hook-retries, hook-log, first-sync-announce, hook-on, download,
        download-name, download-jobs, download-per-host, download-rate,
        download-max-size, keep, http, http-token, http-public-origin (values as
        for the options). Every
        command that uses the state reads it, so 'state' applies to add, list,
        remove... too. In state, hook-log and download, ~/ and $NAME or ${NAME}
        are expanded; a relative path is relative to the config file's folder.
        Options given here win. An unknown key or a bad value is exit status 2
        naming the line.

        Under systemd (Type=notify): READY=1 once polling began, RELOADING=1 and
        READY=1 around SIGHUP, STOPPING=1 on shutdown, WATCHDOG=1 when
        WATCHDOG_USEC is set; stderr lines carry <3>..<7> levels for the journal.

        Signals: SIGINT/SIGTERM stop cleanly (status 0; with --once, before every
        feed was polled: 130 for SIGINT, 143 for SIGTERM), SIGHUP reloads the
        subscriptions, SIGUSR1 polls every feed now. A hook still running at
        SIGINT/SIGTERM gets 5 s to finish, then it and what it started are killed
        and it runs again at the next start (a second signal kills at once).

        New episodes are announced at least once: an announcement is stored with the
        episode and cleared only after its JSON line or table frame was written and
        its hook started. If podcast-watch dies in between (even by SIGKILL), the
        next run repeats those announcements first, so an episode may be announced
        twice but is never lost. Hooks and scripts should treat EPISODE_GUID (else
        EPISODE_URL) as the key.

        """

    static let show = """
        Usage: podcast-watch show URL|FILE [--json]

        Fetch and parse one feed without subscribing, and print the channel and
        every item with all parsed fields. Exit status 1 if it cannot be fetched
        or parsed, 4 if FILE (or a file:// URL) is missing, unreadable or a
        directory.

          --json   one JSON document (schema in docs/PODCAST-WATCH.md)

        """

    static let demo = """
        Usage: podcast-watch demo [--samples DIR] [--json]

        Poll the bundled sample feeds once with a throwaway state directory, show
        what was found, and exit. Needs no network. It is a first sync, so it follows
        run's rule: each feed's newest 3 episodes are announced (the NEW column and
        the new_episode lines count exactly those); the older ones are stored
        without an announcement.

          --samples DIR   the sample feed folder (default: $PODCAST_WATCH_SAMPLES,
                          else Sources/podcast-watch/SampleFeeds of the source tree)
          --json          JSON lines instead of the table

        """
}
