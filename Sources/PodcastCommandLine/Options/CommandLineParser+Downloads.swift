import PodcastStore

extension CommandLineParser {
    /// `download`, `cancel-download`, `delete-download` and `feed-url` (see `Command`).
    static func parseDownloadControl(_ name: String, _ tokens: [String]) throws(UsageError) -> Command {
        let args = try scan(tokens, command: name)
        switch name {
        case "cancel-download", "delete-download":
            try noOperands(args.operands, command: name)
            let id = try episode(args, command: name)
            return name == "cancel-download" ? .cancelDownload(episodeID: id) : .deleteDownload(episodeID: id)
        case "feed-url":
            let key = try feed(args, command: name, required: false)
            return .feedURL(key: key, rotate: args.flags.contains("--rotate"))
        default:
            return try parseDownload(args, command: name)
        }
    }

    private static func parseDownload(_ args: Scanned, command name: String) throws(UsageError) -> Command {
        let asks = [args.values["--episode"] != nil, args.flags.contains("--failed"), args.flags.contains("--all")]
        guard asks.filter({ $0 }).count == 1 else {
            throw UsageError("give one of --episode N, --failed, or a feed with --all", command: name)
        }
        if args.values["--episode"] != nil {
            try noOperands(args.operands, command: name)
            guard args.values["--id"] == nil else { throw UsageError("--id goes with --all", command: name) }
            return .download(.episode(try episode(args, command: name)))
        }
        if args.flags.contains("--failed") {
            try noOperands(args.operands, command: name)
            guard args.values["--id"] == nil else { throw UsageError("--id goes with --all", command: name) }
            return .download(.failed)
        }
        guard let key = try feed(args, command: name, required: true) else {
            throw UsageError("'download --all' needs a feed: URL or --id N", command: name)
        }
        return .download(.backCatalogue(key))
    }

    private static func episode(_ args: Scanned, command name: String) throws(UsageError) -> Int64 {
        guard let v = args.values["--episode"] else {
            throw UsageError("'\(name)' needs --episode N (the number 'downloads' shows)", command: name)
        }
        guard let id = wholeNumber(v).map(Int64.init), id >= 1 else {
            throw UsageError(
                "option '--episode' needs an episode number (see 'podcast-watch downloads'), not '\(v)'",
                command: name)
        }
        return id
    }

    // URL or `--id N`; `nil` when neither is given and none is `required`.
    private static func feed(_ args: Scanned, command name: String, required: Bool) throws(UsageError)
        -> FeedSelector?
    {
        if let v = args.values["--id"] {
            try noOperands(args.operands, command: name)
            guard let id = wholeNumber(v).map(Int64.init), id >= 1 else {
                throw UsageError(
                    "option '--id' needs a feed number (see 'podcast-watch list'), not '\(v)'", command: name)
            }
            return .id(id)
        }
        if args.operands.isEmpty && !required { return nil }
        return .url(try exactlyOne(args.operands, what: "URL", command: name))
    }
}
