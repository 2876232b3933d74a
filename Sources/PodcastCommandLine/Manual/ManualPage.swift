/// The man pages `podcast-watch(1)` and `podcast-watch.conf(5)`, in man(7) markup, generated from
/// what the CLI itself prints and accepts: each command's section is its `--help` text
/// (`UsageText`), the options are those of `CommandTable`, the config keys those of
/// `RunConfig.keys`, each described by its `run` option's help. Only the sections no help text
/// covers (environment, files, examples) are written here. `make manual` writes the pages with
/// the `podcast-watch-manual` tool; `mandoc -T lint` checks them (`make test-manual`).
///
/// Pure functions of constant data; safe from any thread.
public enum ManualPage {
    /// `podcast-watch(1)`. `date`: the page's date (`YYYY-MM-DD`; the build passes the last
    /// commit's, so that the same commit gives the same page).
    public static func podcastWatch(date: String) -> String {
        var page = Roff()
        page.header(title: "PODCAST-WATCH", section: 1, date: date)
        page.section("NAME")
        page.text("podcast-watch \\- watch podcast feeds, download new episodes, serve a dashboard")
        page.section("SYNOPSIS")
        page.noFill([
            "\\fBpodcast\\-watch\\fR [\\fB\\-\\-state\\fR \\fIDIR\\fR] \\fICOMMAND\\fR [\\fIOPTIONS\\fR]",
            "\\fBpodcast\\-watch help\\fR [\\fICOMMAND\\fR]",
            "\\fBpodcast\\-watch \\-\\-version\\fR",
        ])
        let general = HelpText(UsageText.general)
        page.section("DESCRIPTION")
        page.paragraphs(general.paragraphs(after: nil, before: "Commands:"))
        page.paragraph(
            "Each command is described below with the text its \\fB\\-\\-help\\fR prints. The options of "
                + "\\fBrun\\fR can also be set in a configuration file; see \\fBpodcast-watch.conf\\fR(5).")
        page.paragraphs(general.paragraphs(after: "Commands:", before: "Global options:"), skipItems: true)
        page.section("OPTIONS")
        page.text("These options are accepted before or after the command.")
        page.items(general.items(under: "Global options:"))
        page.section("COMMANDS")
        var covered: Set<String> = []
        for command in CommandTable.commands where !covered.contains(command.name) {
            let help = HelpText(UsageText.help(for: command.name))
            let names = help.usageCommands
            covered.formUnion(names)
            page.subsection(names.joined(separator: ", "))
            page.noFill(help.usage.map { Roff.escape($0) })
            page.paragraphs(help.body)
        }
        page.subsection("help")
        page.noFill(["help [COMMAND]"])
        page.paragraph(
            "Print the general usage, or the help of \\fICOMMAND\\fR (the same as "
                + "\\fBpodcast\\-watch\\fR \\fICOMMAND\\fR \\fB\\-\\-help\\fR).")
        page.section("EXIT STATUS")
        page.items(general.items(under: "Exit status:"))
        page.section("ENVIRONMENT")
        page.items(environment)
        page.section("FILES")
        page.items(files)
        page.section("EXAMPLES")
        for (what, lines) in examples {
            page.paragraph(what)
            page.indentedNoFill(lines.map { Roff.escape($0) })
        }
        page.section("SEE ALSO")
        page.text(
            "\\fBpodcast-watch.conf\\fR(5), \\fBsystemctl\\fR(1), \\fBjournalctl\\fR(1), \\fBsystemd.service\\fR(5)")
        return page.text
    }

    /// `podcast-watch.conf(5)`: the file's format (the paragraph `run --help` gives), then every
    /// key of `RunConfig.keys` with its value and the help of the option it stands for.
    public static func config(date: String) -> String {
        var page = Roff()
        page.header(title: "PODCAST-WATCH.CONF", section: 5, date: date)
        page.section("NAME")
        page.text("podcast-watch.conf \\- configuration file of podcast-watch")
        page.section("SYNOPSIS")
        page.noFill([
            "\\fI$PODCAST_WATCH_CONFIG\\fR",
            "\\fI$XDG_CONFIG_HOME\\fR/podcast\\-watch/config",
            "~/.config/podcast\\-watch/config",
            "/etc/podcast\\-watch/config (the system service)",
        ])
        page.section("DESCRIPTION")
        let run = HelpText(UsageText.help(for: "run"))
        page.paragraphs(
            run.body.filter {
                if case .paragraph(let lines) = $0 { return lines.first?.hasPrefix("Config file:") == true }
                return false
            })
        page.paragraph(
            "SIGHUP (\\fBsystemctl reload podcast\\-watch\\fR) reads the file again; keys that need "
                + "a restart are named in the journal.")
        page.section("KEYS")
        var keys: [HelpText.Item] = []
        for key in RunConfig.keys {
            let description = configKeyDescription(key) ?? ["(undocumented)"]
            let value = configKeyValue(key) ?? "VALUE"
            keys.append(HelpText.Item(tag: "\(key) = \(value)", lines: description))
        }
        page.items(keys, tagStyle: .configKey)
        page.section("EXAMPLE")
        page.indentedNoFill(
            [
                "# ~/.config/podcast-watch/config",
                "interval = 30m",
                "download = ~/Podcasts",
                "keep = 10",
                "hook-on = downloaded",
                "hook = notify-send \"$PODCAST_TITLE\" \"$EPISODE_TITLE\"",
                "http = 127.0.0.1:8080",
            ].map { Roff.escape($0) })
        page.section("FILES")
        page.items([
            HelpText.Item(
                tag: "/etc/podcast-watch/config",
                lines: ["The system service's file (its unit sets XDG_CONFIG_HOME=/etc); a conffile of the package."]),
            HelpText.Item(
                tag: "/usr/share/doc/podcast-watch/examples/config",
                lines: ["Every key, commented out, with its default."]),
        ])
        page.section("SEE ALSO")
        page.text("\\fBpodcast-watch\\fR(1)")
        return page.text
    }

    /// The help lines of the option a config key stands for: `run --KEY`, or the global
    /// `--state` for `state`. `nil` when no help text describes it (a test fails on that).
    public static func configKeyDescription(_ key: String) -> [String]? {
        let items =
            key == "state"
            ? HelpText(UsageText.general).items(under: "Global options:")
            : HelpText(UsageText.help(for: "run")).bodyItems
        return items.first { $0.optionName == "--\(key)" }?.lines
    }

    /// The value placeholder of the option a config key stands for (`CommandTable`).
    static func configKeyValue(_ key: String) -> String? {
        let options = key == "state" ? CommandTable.globalOptions : CommandTable.command("run")?.options ?? []
        return options.first { $0.name == "--\(key)" }?.value
    }

    static let environment: [HelpText.Item] = [
        .init(
            tag: "PODCAST_WATCH_CONFIG",
            lines: ["The config file to read (it must then exist); /dev/null or an empty file: none."]),
        .init(
            tag: "XDG_CONFIG_HOME",
            lines: ["The config file is XDG_CONFIG_HOME/podcast-watch/config (default ~/.config)."]),
        .init(
            tag: "XDG_STATE_HOME",
            lines: ["The default state directory is XDG_STATE_HOME/podcast-watch (default ~/.local/state)."]),
        .init(
            tag: "XDG_DATA_HOME",
            lines: [
                "Feeds added with --download save into XDG_DATA_HOME/podcast-watch/downloads when run has no",
                "--download (default ~/.local/share).",
            ]),
        .init(tag: "HOME", lines: ["The base of the defaults above, and of ~/ in config paths."]),
        .init(
            tag: "PODCAST_WATCH_SAMPLES",
            lines: ["The sample feed folder demo reads when --samples is not given."]),
        .init(
            tag: "COLUMNS, LINES",
            lines: ["The size of run's live table when the terminal does not say."]),
        .init(
            tag: "NOTIFY_SOCKET, WATCHDOG_USEC",
            lines: ["Set by systemd: readiness, reload and stop notifications, and the watchdog (Type=notify)."]),
        .init(
            tag: "JOURNAL_STREAM",
            lines: ["Set by systemd when stderr is the journal: lines carry <3>..<7> priority prefixes."]),
    ]

    static let files: [HelpText.Item] = [
        .init(
            tag: "~/.local/state/podcast-watch/\(StateLocation.databaseName)",
            lines: ["The subscriptions, episodes, downloads and pending announcements (SQLite)."]),
        .init(
            tag: "~/.local/state/podcast-watch/\(StateLock.fileName)",
            lines: ["Held by a running run or demo, so a second one cannot use the same state."]),
        .init(
            tag: "~/.local/state/podcast-watch/\(CommandRunner.hookLogName)",
            lines: ["Hooks' output while run shows its live table."]),
        .init(
            tag: "~/.local/state/podcast-watch/http-token",
            lines: ["The generated dashboard token, when stderr is not a terminal (mode 0600)."]),
        .init(tag: "~/.config/podcast-watch/config", lines: ["The config file; see podcast-watch.conf(5)."]),
        .init(
            tag: "/var/lib/podcast-watch",
            lines: ["The system service's state directory (user podcast-watch)."]),
        .init(
            tag: "/usr/share/podcast-watch/samples",
            lines: ["The sample feeds of demo, in an installed podcast-watch."]),
    ]

    static let examples: [(String, [String])] = [
        ("Try it on the bundled sample feeds, without a network:", ["podcast-watch demo"]),
        (
            "Subscribe, poll every 30 minutes, download into ~/Podcasts and keep 10 files per feed:",
            [
                "podcast-watch add https://example.com/feed.xml",
                "podcast-watch run --interval 30m --download ~/Podcasts --keep 10",
            ]
        ),
        (
            "A desktop notification per new episode (the episode comes in environment variables):",
            ["podcast-watch run --hook 'notify-send \"$PODCAST_TITLE\" \"$EPISODE_TITLE\"'"]
        ),
        ("The web dashboard on http://127.0.0.1:8080/:", ["podcast-watch run --http 8080"]),
        (
            "For cron: poll once, JSON lines out, status 1 if a feed failed:",
            ["podcast-watch run --once --json >> ~/podcast-watch.log"]
        ),
        (
            "Subscriptions of the system service (Debian package):",
            [
                "runuser -u podcast-watch -- podcast-watch --state /var/lib/podcast-watch add URL",
                "systemctl reload podcast-watch",
            ]
        ),
    ]
}
