/// The one table of `podcast-watch`'s commands and their options. `CommandLineParser` takes each
/// command's options from it, and the man pages and shell completions are generated from it
/// (`ManualPage`, `ShellCompletion`), so no option can be accepted, documented or completed by
/// one of them alone. Each command's help text (`UsageText`) must mention exactly these options
/// (a test checks it, as the texts are written by hand).
///
/// Immutable data; safe from any thread.
public enum CommandTable {
    /// What a value or an operand is, for completion: shells offer files, folders, feed numbers
    /// or fixed words, and nothing for free text.
    public enum ValueKind: Equatable, Sendable {
        /// Free text (a title, a command line, a number): nothing to offer.
        case text
        /// A file path.
        case file
        /// A folder path.
        case directory
        /// A feed number, as `podcast-watch list` shows them.
        case feedID
        /// A subscribed feed's URL, as `podcast-watch list` shows them, or a file path.
        case feedURL
        /// One of these words (or, where noted in the help, another value).
        case words([String])
    }

    /// One option: its name with dashes, the placeholder of its value (`nil` for a flag) and
    /// what completes that value.
    public struct Option: Equatable, Sendable {
        /// `--name` (with its dashes).
        public var name: String
        /// The value's placeholder as the help text writes it (`N`, `DIR`); `nil`: a flag.
        public var value: String?
        /// What completes the value.
        public var kind: ValueKind

        /// A flag (no value).
        public static func flag(_ name: String) -> Option { Option(name: name, value: nil, kind: .text) }
        /// An option taking a value.
        public static func valued(_ name: String, _ value: String, _ kind: ValueKind = .text) -> Option {
            Option(name: name, value: value, kind: kind)
        }
    }

    /// One command: its name, one-line summary (the general usage's), its operand and options.
    public struct Command: Equatable, Sendable {
        /// The name as typed.
        public var name: String
        /// What it does, in a few words.
        public var summary: String
        /// Its operand's kind; `nil` when it takes none.
        public var operand: ValueKind?
        /// Its own options, in the help text's order.
        public var options: [Option]

        /// The names of the options that take a value.
        public var valued: Set<String> { Set(options.filter { $0.value != nil }.map(\.name)) }
        /// The names of the flags.
        public var flags: Set<String> { Set(options.filter { $0.value == nil }.map(\.name)) }
    }

    /// The options every command accepts, anywhere on the line.
    public static let globalOptions: [Option] = [
        .valued("--state", "DIR", .directory), .flag("--help"), .flag("-h"), .flag("--version"),
    ]

    /// The commands, in the order the general usage lists them (`help` is apart: it takes a
    /// command name and no option).
    public static let commands: [Command] = [
        Command(
            name: "add", summary: "subscribe to a feed", operand: .file,
            options: [
                .valued("--title", "T"), .valued("--interval", "SECONDS"), .flag("--download"),
                .flag("--no-download"), .valued("--keep", "N"), .flag("--no-check"), .flag("--replace"),
            ]),
        Command(name: "remove", summary: "unsubscribe", operand: .feedURL, options: [.valued("--id", "N", .feedID)]),
        Command(
            name: "enable", summary: "poll a disabled feed again", operand: .feedURL,
            options: [.valued("--id", "N", .feedID)]),
        Command(
            name: "disable", summary: "stop polling a feed, keep it", operand: .feedURL,
            options: [.valued("--id", "N", .feedID)]),
        Command(
            name: "set", summary: "change one feed's settings", operand: .feedURL,
            options: [
                .valued("--id", "N", .feedID), .flag("--download"), .flag("--no-download"),
                .flag("--download-default"), .valued("--keep", "N", .words(["default"])),
                .valued("--interval", "S", .words(["default"])),
            ]),
        Command(name: "list", summary: "list the subscriptions", operand: nil, options: [.flag("--json")]),
        Command(name: "import", summary: "subscribe to the feeds of an OPML file", operand: .file, options: []),
        Command(name: "export", summary: "print the subscriptions as OPML 2.0", operand: nil, options: []),
        Command(
            name: "run", summary: "poll the feeds, report new episodes", operand: nil,
            options: [
                .flag("--once"), .flag("--force"), .valued("--interval", "S"), .valued("--hook", "CMD"),
                .valued("--hook-timeout", "S"), .valued("--hook-retries", "N"),
                .valued("--hook-log", "FILE", .file),
                .valued("--hook-on", "EVENTS", .words(RunOptions.HookEvent.allCases.map(\.rawValue))),
                .valued("--download", "DIR", .directory), .valued("--download-name", "TEMPLATE"),
                .valued("--download-jobs", "N"), .valued("--download-per-host", "N"),
                .valued("--download-rate", "RATE"), .valued("--download-max-size", "SIZE"), .valued("--keep", "N"),
                .flag("--json"), .valued("--http", "[ADDR:]PORT"), .valued("--http-token", "TOKEN"),
                .valued("--http-public-origin", "URL"), .valued("--first-sync-announce", "N"),
            ]),
        Command(
            name: "show", summary: "fetch and parse one feed, print it all", operand: .file,
            options: [.flag("--json")]),
        Command(
            name: "demo", summary: "one pass over the bundled sample feeds", operand: nil,
            options: [.valued("--samples", "DIR", .directory), .flag("--json")]),
        Command(
            name: "downloads", summary: "list downloaded and queued episodes", operand: nil,
            options: [.flag("--json")]),
        Command(
            name: "download", summary: "download an episode, a back catalogue, or retry failures", operand: .file,
            options: [
                .valued("--episode", "N"), .flag("--failed"), .flag("--all"), .valued("--id", "N", .feedID),
            ]),
        Command(
            name: "cancel-download", summary: "cancel a queued or running download", operand: nil,
            options: [.valued("--episode", "N")]),
        Command(
            name: "delete-download", summary: "delete a downloaded file, keep the episode", operand: nil,
            options: [.valued("--episode", "N")]),
        Command(
            name: "feed-url", summary: "print (or rotate) the private URL of a local podcast feed", operand: .file,
            options: [.valued("--id", "N", .feedID), .flag("--rotate")]),
    ]

    /// The command named `name`, if there is one.
    public static func command(_ name: String) -> Command? { commands.first { $0.name == name } }
}
