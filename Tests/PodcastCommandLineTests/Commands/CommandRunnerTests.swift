import Foundation
import PodcastDaemonTestSupport
import Synchronization
import Testing

@testable import PodcastCommandLine
@testable import PodcastStore

/// Collects what a command writes.
final class CapturedConsole: Sendable {
    let outText = Mutex("")
    let errText = Mutex("")
    var out: String { outText.withLock { $0 } }
    var err: String { errText.withLock { $0 } }

    func console(isTerminal: Bool = false) -> Console {
        Console(
            out: { s in self.outText.withLock { $0 += s } }, err: { s in self.errText.withLock { $0 += s } },
            isTerminal: isTerminal)
    }
}

/// Runs `podcast-watch --state STATE ARGS...` in process, in `state` as the current directory
/// and with a `HOME` that does not exist: the exit code, stdout and stderr.
func runCommand(state: String, _ args: [String]) -> (ExitCode, String, String) {
    let captured = CapturedConsole()
    let code = CommandRunner(
        console: captured.console(), environment: ["HOME": "/nonexistent-home"], currentDirectory: state
    )
    .run(["--state", state] + args)
    return (code, captured.out, captured.err)
}

func temporaryDirectory() -> String {
    let dir = NSTemporaryDirectory() + "pw-test-\(UUID().uuidString)"
    try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    return dir
}

@Suite struct CommandRunnerTests {
    let state = temporaryDirectory()
    /// The current directory of the commands, holding the local feeds show.xml and x.xml.
    let feeds: String = {
        let dir = temporaryDirectory()
        for name in ["show.xml", "x.xml"] {
            _ = FileManager.default.createFile(atPath: dir + "/" + name, contents: Data("<rss/>".utf8))
        }
        return dir
    }()

    func run(_ args: String..., env: [String: String] = ["HOME": "/nonexistent-home"]) -> (ExitCode, String, String) {
        run(args, env: env)
    }

    func run(_ args: [String], env: [String: String] = ["HOME": "/nonexistent-home"], cwd: String? = nil) -> (
        ExitCode, String, String
    ) {
        let captured = CapturedConsole()
        let runner = CommandRunner(console: captured.console(), environment: env, currentDirectory: cwd ?? feeds)
        let code = runner.run(args)
        return (code, captured.out, captured.err)
    }

    @Test func subscribeListRemove() {
        #expect(
            run("--state", state, "add", "--no-check", "show.xml", "--title", "Local", "--interval", "10m")
                == (.success, "Subscribed to file://\(feeds)/show.xml (feed #1, every 10 min)\n", ""))
        #expect(
            run("--state", state, "add", "--no-check", "http://Example.com/f")
                == (.success, "Subscribed to http://example.com/f (feed #2, default interval)\n", ""))
        #expect(
            run("--state", state, "add", "--no-check", "\(feeds)/show.xml")
                == (.feedFailed, "", "podcast-watch: file://\(feeds)/show.xml is already subscribed (feed #1)\n"))
        let (code, out, _) = run("--state", state, "list", "--json")
        #expect(code == .success)
        #expect(
            out == """
                {"id":1,"url":"file://\(feeds)/show.xml","title":"Local","status":"ok","interval":600,"last_check":null,"last_success":null,"last_error":null,"episodes":0,"new_episodes":0,"enabled":true,"hook_error":null}
                {"id":2,"url":"http://example.com/f","title":null,"status":"ok","interval":null,"last_check":null,"last_success":null,"last_error":null,"episodes":0,"new_episodes":0,"enabled":true,"hook_error":null}

                """)
        #expect(
            run("--state", state, "remove", "show.xml") == (
                .success, "Unsubscribed from file://\(feeds)/show.xml (Local)\n", ""
            ))
        #expect(
            run("--state", state, "remove", "show.xml")
                == (.feedFailed, "", "podcast-watch: not subscribed: show.xml (see 'podcast-watch list')\n"))
        // "2" is a path (\(feeds)/2), not feed #2: ids need --id.
        #expect(
            run("--state", state, "remove", "2") == (
                .feedFailed, "", "podcast-watch: not subscribed: 2 (see 'podcast-watch list')\n"
            ))
        #expect(
            run("--state", state, "remove", "--id", "2") == (
                .success, "Unsubscribed from http://example.com/f (http://example.com/f)\n", ""
            ))
        #expect(
            run("--state", state, "remove", "--id", "2") == (
                .feedFailed, "", "podcast-watch: no feed #2 (see 'podcast-watch list')\n"
            ))
    }

    @Test func everySpellingOfAFeedIsOneSubscription() {
        // currentDirectory is \(feeds).
        #expect(
            run("--state", state, "add", "--no-check", "./x.xml") == (
                .success, "Subscribed to file://\(feeds)/x.xml (feed #1, default interval)\n", ""
            ))
        for same in ["\(feeds)/x.xml", "file://\(feeds)/x.xml", "sub/../x.xml"] {
            #expect(
                run("--state", state, "add", same) == (
                    .feedFailed, "", "podcast-watch: file://\(feeds)/x.xml is already subscribed (feed #1)\n"
                ))
        }
        #expect(
            run("--state", state, "add", "--no-check", "HTTPS://Example.com:443/rss#top", "--interval", "1h")
                == (.success, "Subscribed to https://example.com/rss (feed #2, every 1 h)\n", ""))
        #expect(run("--state", state, "add", "--no-check", "https://example.com/rss").0 == .feedFailed)
        #expect(
            run("--state", state, "remove", "file://\(feeds)/x.xml") == (
                .success, "Unsubscribed from file://\(feeds)/x.xml (file://\(feeds)/x.xml)\n", ""
            ))
    }

    @Test func removeAcceptsTheURLGivenToAddAfterAMove() throws {
        #expect(run("--state", state, "add", "--no-check", "HTTP://Old.example/feed").0 == .success)
        do {
            let store = try FeedStore(path: state + "/podcast-watch.sqlite")
            try store.apply(
                update: FeedUpdate(
                    feedID: 1, outcome: .notModified,
                    permanentRedirect: PermanentRedirect(url: "http://new.example/feed", status: 301)))
        }
        // As typed to add (normalised the same way), though the feed now lives at the new URL.
        #expect(
            run("--state", state, "remove", "HTTP://Old.example/feed")
                == (.success, "Unsubscribed from http://new.example/feed (http://new.example/feed)\n", ""))
        #expect(try FeedStore(path: state + "/podcast-watch.sqlite").feeds().isEmpty)
    }

    @Test func importSkipsJunkURLsAndCountsRepeats() throws {
        let opml = state + "/junk.opml"
        _ = FileManager.default.createFile(atPath: state + "/here.xml", contents: Data("<rss/>".utf8))
        try """
        <opml version="2.0"><body>\
        <outline text="Junk" xmlUrl="not a url"/>\
        <outline text="Rel" xmlUrl="relative/feed.xml"/>\
        <outline text="Here" xmlUrl="here.xml"/>\
        <outline text="Q" xmlUrl="http://h.example/a&quot;b"/>\
        <outline text="A" xmlUrl="http://h.example/f"/>\
        <outline text="A again" xmlUrl="HTTP://H.example:80/f"/>\
        <outline text="A thrice" xmlUrl="http://h.example/f"/>\
        </body></opml>
        """.write(toFile: opml, atomically: true, encoding: .utf8)
        #expect(
            run(["--state", state, "import", opml], cwd: state) == (
                .success,
                "Imported 2 feeds from \(opml) (0 already subscribed, 2 repeated in the file, 3 skipped)\n",
                """
                podcast-watch: skipped outline "Junk" (xmlUrl not a url): not an http(s) URL, and no such file: \(state)/not a url
                podcast-watch: skipped outline "Rel" (xmlUrl relative/feed.xml): not an http(s) URL, and no such file: \(state)/relative/feed.xml
                podcast-watch: skipped outline "Q" (xmlUrl http://h.example/a"b): the character '"' must be percent-encoded in a URL

                """
            ))
        #expect(
            try FeedStore(path: state + "/podcast-watch.sqlite").feeds().map(\.url) == [
                "file://\(state)/here.xml", "http://h.example/f",
            ])
    }

    @Test func addRefusesAMissingLocalFileAndUnescapedURLCharacters() throws {
        #expect(
            run("--state", state, "add", "--no-check", "not a url")
                == (
                    .inputError, "",
                    "podcast-watch: no such file: \(feeds)/not a url (from 'not a url'; a feed is an http(s):// URL, a file:// URL or the path of an existing file)\n"
                ))
        for bad in ["http://h.example/a b", "http://h.example/<x>", "http://h.example/\"q\""] {
            #expect(run("--state", state, "add", bad).0 == .usage)
        }
        let feeds = try FeedStore(path: state + "/podcast-watch.sqlite").feeds()
        #expect(feeds.isEmpty)
    }

    @Test func listWithoutStateCreatesNothing() {
        let fresh = state + "/never"
        #expect(
            run("--state", fresh, "list") == (.success, "", "No subscriptions. Add one with: podcast-watch add URL\n"))
        #expect(!FileManager.default.fileExists(atPath: fresh))
    }

    @Test func usageErrorsExit2WithUsageOnStderr() {
        let (code, out, err) = run("add")
        #expect(code == .usage)
        #expect(out == "")
        #expect(
            err
                == "podcast-watch: 'add' needs a URL\nUsage: podcast-watch add URL [--title T] [--interval SECONDS|15m|2h|1d]\n                         [--download | --no-download] [--keep N] [--no-check]\n       podcast-watch add URL --replace\nTry 'podcast-watch add --help' for more.\n"
        )
        #expect(
            run("--state", state, "add", "--no-check", "ftp://x/y")
                == (
                    .usage, "",
                    "podcast-watch: 'ftp://x/y': unsupported URL scheme 'ftp' (use http, https, file or a path)\n"
                ))
    }

    @Test func stateErrorsExit3() throws {
        let notADir = state + "/file"
        try "x".write(toFile: notADir, atomically: true, encoding: .utf8)
        // Both the read-only and the writing commands name the path (list used to say "No
        // subscriptions" and exit 0; add printed a raw NSCocoaErrorDomain error).
        for command in [
            ["add", "--no-check", "http://h/f"], ["list"], ["list", "--json"], ["export"], ["remove", "x"],
            ["run", "--once"],
        ] {
            #expect(
                run(["--state", notADir] + command) == (
                    .stateError, "", "podcast-watch: --state \(notADir): not a directory\n"
                ))
        }
        #expect(
            run(["--state", "file"] + ["list"], cwd: state) == (
                .stateError, "", "podcast-watch: --state file: not a directory\n"
            ))
        for command in [["list"], ["list", "--json"], ["export"]] {
            #expect(
                run(["--state", notADir + "/sub"] + command)
                    == (.stateError, "", "podcast-watch: --state \(notADir)/sub: a parent is not a directory\n"))
        }
        #expect(try String(contentsOfFile: notADir, encoding: .utf8) == "x")
        let garbage = state + "/g"
        try FileManager.default.createDirectory(atPath: garbage, withIntermediateDirectories: true)
        try String(repeating: "not sqlite ", count: 100).write(
            toFile: garbage + "/podcast-watch.sqlite", atomically: true, encoding: .utf8)
        #expect(run("--state", garbage, "list").0 == .stateError)
        #expect(
            run("list", env: [:]) == (
                .stateError, "", "podcast-watch: no state directory: set --state DIR, XDG_STATE_HOME or HOME\n"
            ))
    }

    @Test func anotherProgramsSQLiteFileIsNotTakenOver() throws {
        let foreign = state + "/foreign"
        try FileManager.default.createDirectory(atPath: foreign, withIntermediateDirectories: true)
        let path = foreign + "/podcast-watch.sqlite"
        do {
            let db = try Database(path: path)
            try db.execute("CREATE TABLE foo(x); INSERT INTO foo VALUES (42)")
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let message =
            "podcast-watch: cannot open the state database: \(path) is an SQLite database of another program (it has 1 table that is not podcast-watch's); it was left untouched\n"
        #expect(run("--state", foreign, "list") == (.stateError, "", message))
        #expect(run("--state", foreign, "add", "--no-check", "http://h/f") == (.stateError, "", message))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        let db = try Database(path: path)
        #expect(try db.scalarInt("SELECT count(*) FROM sqlite_master WHERE type = 'table'") == 1)
        #expect(try db.scalarInt("PRAGMA user_version") == 0)

        // Another program's application_id is refused even without tables.
        let marked = state + "/marked"
        try FileManager.default.createDirectory(atPath: marked, withIntermediateDirectories: true)
        try Database(path: marked + "/podcast-watch.sqlite").execute("PRAGMA application_id = 1234")
        #expect(run("--state", marked, "list").0 == .stateError)

        // Ours carries our application_id; a database from before the mark is still accepted.
        #expect(run("--state", state, "add", "--no-check", "http://h/f").0 == .success)
        #expect(
            try Database(path: state + "/podcast-watch.sqlite").scalarInt("PRAGMA application_id")
                == Int64(FeedStore.applicationID))
        try Database(path: state + "/podcast-watch.sqlite").execute("PRAGMA application_id = 0")
        #expect(run("--state", state, "list").0 == .success)
        #expect(
            try Database(path: state + "/podcast-watch.sqlite").scalarInt("PRAGMA application_id")
                == Int64(FeedStore.applicationID))
    }

    @Test func generalHelpMatchesTheManual() {
        let help = UsageText.general
        #expect(help.contains("add URL [--title T] [--interval SECONDS|15m|2h|1d]"))
        #expect(help.contains("remove or set found no such\n      feed, or add found it already subscribed"))
        #expect(help.contains("5   output error") && help.contains("6   run or demo: another podcast-watch run"))
    }

    @Test func helpAndVersionGoToStdout() {
        #expect(run("--help") == (.success, UsageText.general, ""))
        #expect(run("show", "--help") == (.success, UsageText.help(for: "show"), ""))
        #expect(run("--version") == (.success, "podcast-watch \(UsageText.version)\n", ""))
    }

    @Test func exportThenImportKeepsNoTitleAndTheInterval() throws {
        #expect(
            run("--state", state, "add", "--no-check", "http://h.example/untitled", "--interval", "15m").0 == .success)
        #expect(run("--state", state, "add", "--no-check", "http://h.example/named", "--title", "Named").0 == .success)
        let (code, opml, _) = run("--state", state, "export")
        #expect(code == .success)
        #expect(
            opml.contains(
                """
                <outline type="rss" text="http://h.example/untitled" xmlUrl="http://h.example/untitled" pw:interval="900"/>
                    <outline type="rss" text="Named" title="Named" xmlUrl="http://h.example/named"/>
                """))
        let other = state + "/other"
        try opml.write(toFile: state + "/out.opml", atomically: true, encoding: .utf8)
        #expect(run("--state", other, "import", state + "/out.opml").0 == .success)
        let feeds = try FeedStore(path: other + "/podcast-watch.sqlite").feeds()
        #expect(feeds.map(\.url) == ["http://h.example/untitled", "http://h.example/named"])
        #expect(feeds.map(\.title) == [nil, "Named"])  // the URL did not become a title
        #expect(feeds.map(\.intervalSeconds) == [900, nil])
    }

    @Test func importAndExportOPML() throws {
        let opml = state + "/subs.opml"
        try """
        <?xml version="1.0"?><opml version="1.1"><body><outline text="Folder">\
        <outline text="A &amp; B" xmlUrl="http://a.example/f"/><outline title="Local" url="local.xml"/></outline>\
        <outline text="bad" xmlUrl="ftp://x/y"/></body></opml>
        """.write(toFile: opml, atomically: true, encoding: .utf8)
        _ = FileManager.default.createFile(atPath: state + "/local.xml", contents: Data("<rss/>".utf8))
        #expect(
            run("--state", state, "import", opml) == (
                .success, "Imported 2 feeds from \(opml) (0 already subscribed, 1 skipped)\n",
                "podcast-watch: skipped outline \"bad\" (xmlUrl ftp://x/y): unsupported URL scheme 'ftp' (use http, https, file or a path)\n"
            ))
        #expect(
            run("--state", state, "import", opml).1
                == "Imported 0 feeds from \(opml) (2 already subscribed, 1 skipped)\n")
        #expect(
            run("--state", state, "export") == (
                .success,
                """
                <?xml version="1.0" encoding="UTF-8"?>
                <opml version="2.0" xmlns:pw="https://podcast-watch.invalid/opml/1">
                  <head>
                    <title>podcast-watch subscriptions</title>
                  </head>
                  <body>
                    <outline type="rss" text="A &amp; B" title="A &amp; B" xmlUrl="http://a.example/f"/>
                    <outline type="rss" text="Local" title="Local" xmlUrl="file://\(state)/local.xml"/>
                  </body>
                </opml>

                """, ""
            ))
        #expect(
            run("--state", state, "import", "/no/such.opml") == (
                .inputError, "", "podcast-watch: cannot read /no/such.opml: no such file\n"
            ))
        try "<html/>".write(toFile: state + "/h.opml", atomically: true, encoding: .utf8)
        #expect(run("--state", state, "import", state + "/h.opml").0 == .inputError)
    }
}
