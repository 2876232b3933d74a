import Testing

@testable import PodcastCommandLine

@Suite struct CommandLineParserTests {
    func parse(_ args: String...) throws(UsageError) -> Invocation { try CommandLineParser.parse(args) }

    func usageError(_ args: [String]) -> UsageError? {
        do {
            _ = try CommandLineParser.parse(args)
            return nil
        } catch {
            return error
        }
    }

    @Test func addWithOptionsInAnyOrder() throws {
        #expect(
            try parse("add", "http://x/f.xml").command == .add(url: "http://x/f.xml", title: nil, intervalSeconds: nil))
        #expect(
            try parse("add", "--title", "My Show", "f.xml", "--interval=15m").command
                == .add(url: "f.xml", title: "My Show", intervalSeconds: 900))
        #expect(
            try parse("add", "f.xml", "--interval", "2h").command
                == .add(url: "f.xml", title: nil, intervalSeconds: 7200))
    }

    @Test func globalStateAnywhere() throws {
        #expect(try parse("--state", "/tmp/s", "list").stateDirectory == "/tmp/s")
        #expect(
            try parse("list", "--state=/tmp/t", "--json")
                == Invocation(stateDirectory: "/tmp/t", command: .list(json: true)))
    }

    @Test func runOptions() throws {
        let inv = try parse(
            "run", "--once", "--interval", "60", "--hook", "echo \"$EPISODE_TITLE\"", "--json", "--first-sync-announce",
            "0")
        #expect(
            inv.command
                == .run(
                    RunOptions(
                        once: true, intervalSeconds: 60, hook: "echo \"$EPISODE_TITLE\"", json: true,
                        firstSyncAnnounce: 0)))
        #expect(try parse("run").command == .run(RunOptions()))
        #expect(RunOptions().firstSyncAnnounce == 3)
    }

    @Test func otherCommands() throws {
        #expect(try parse("remove", "u").command == .remove(url: "u"))
        #expect(try parse("remove", "1").command == .remove(url: "1"))
        var forced = RunOptions(once: true)
        forced.force = true
        #expect(try parse("run", "--once", "--force").command == .run(forced))
        #expect(throws: UsageError.self) { try parse("run", "--force") }
        #expect(try parse("remove", "--id", "12").command == .removeID(id: 12))
        #expect(throws: UsageError.self) { try parse("remove", "--id", "x") }
        #expect(throws: UsageError.self) { try parse("remove", "--id", "1", "u") }
        #expect(try parse("import", "subs.opml").command == .importOPML(path: "subs.opml"))
        #expect(try parse("export").command == .export)
        #expect(try parse("show", "feed.xml", "--json").command == .show(target: "feed.xml", json: true))
        #expect(try parse("demo").command == .demo(samplesDirectory: nil, json: false))
        #expect(try parse("demo", "--samples", "d", "--json").command == .demo(samplesDirectory: "d", json: true))
        #expect(try parse("show", "--", "-weird-name.xml").command == .show(target: "-weird-name.xml", json: false))
    }

    @Test func helpAndVersion() throws {
        #expect(try parse("--help").command == .help(topic: nil))
        #expect(try parse("-h").command == .help(topic: nil))
        #expect(try parse("help").command == .help(topic: nil))
        #expect(try parse("help", "run").command == .help(topic: "run"))
        #expect(try parse("run", "--help").command == .help(topic: "run"))
        #expect(try parse("add", "--bogus", "--help").command == .help(topic: "add"))
        #expect(try parse("--version").command == .version)
        #expect(try parse("list", "--version").command == .version)
        for name in CommandLineParser.commands {
            #expect(UsageText.help(for: name).hasPrefix("Usage: podcast-watch \(name)"))
        }
    }

    @Test func usageErrorsAreClear() {
        #expect(usageError([]) == UsageError("no command given"))
        #expect(usageError(["frobnicate"]) == UsageError("unknown command 'frobnicate'"))
        #expect(usageError(["--fast"]) == UsageError("unknown option '--fast'"))
        #expect(usageError(["run", "--fast"]) == UsageError("unknown option '--fast' for 'run'", command: "run"))
        #expect(usageError(["add"]) == UsageError("'add' needs a URL", command: "add"))
        #expect(usageError(["add", "a", "b"]) == UsageError("'add' takes one URL, got 2: a b", command: "add"))
        #expect(
            usageError(["add", "a", "--interval"]) == UsageError("option '--interval' needs a value", command: "add"))
        #expect(
            usageError(["add", "a", "--interval", "soon"])
                == UsageError(
                    "option '--interval' needs a duration such as 900, 15m or 2h (1 s to 30 d), not 'soon'",
                    command: "add"))
        #expect(usageError(["add", "a", "--interval", "0"]) != nil)
        #expect(usageError(["add", "a", "--interval", "-5"]) != nil)
        #expect(usageError(["add", "a", "--interval", "99999999999999999999"]) != nil)
        #expect(
            usageError(["run", "--first-sync-announce", "-1"])
                == UsageError("option '--first-sync-announce' needs a whole number >= 0, not '-1'", command: "run"))
        #expect(usageError(["run", "--once=yes"]) == UsageError("option '--once' takes no value", command: "run"))
        #expect(usageError(["run", "--hook", "  "]) == UsageError("option '--hook' needs a command", command: "run"))
        #expect(usageError(["list", "extra"]) == UsageError("unexpected argument 'extra' for 'list'", command: "list"))
        #expect(usageError(["--state"]) == UsageError("option '--state' needs a value"))
        #expect(usageError(["help", "nope"]) == UsageError("unknown command 'nope'"))
    }

    @Test func intervalUnits() throws {
        #expect(try CommandLineParser.parseInterval("90", option: "--interval", command: nil) == 90)
        #expect(try CommandLineParser.parseInterval("90s", option: "--interval", command: nil) == 90)
        #expect(try CommandLineParser.parseInterval("1d", option: "--interval", command: nil) == 86_400)
        #expect(try CommandLineParser.parseInterval("30d", option: "--interval", command: nil) == 2_592_000)
        #expect(throws: UsageError.self) {
            try CommandLineParser.parseInterval("31d", option: "--interval", command: nil)
        }
        #expect(throws: UsageError.self) {
            try CommandLineParser.parseInterval("h", option: "--interval", command: nil)
        }
        #expect(throws: UsageError.self) {
            try CommandLineParser.parseInterval("1.5h", option: "--interval", command: nil)
        }
        #expect(throws: UsageError.self) { try CommandLineParser.parseInterval("", option: "--interval", command: nil) }
    }

    @Test func shortUsageNamesTheCommand() {
        #expect(
            UsageText.short(for: "remove")
                == "Usage: podcast-watch remove URL\n       podcast-watch remove --id N\nTry 'podcast-watch remove --help' for more.\n"
        )
        #expect(
            UsageText.short(for: nil)
                == "Usage: podcast-watch [--state DIR] COMMAND [OPTIONS]\nTry 'podcast-watch --help' for more.\n")
    }
}
