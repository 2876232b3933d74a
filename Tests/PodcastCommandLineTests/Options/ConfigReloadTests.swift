import Foundation
import LoopScheduler
import PodcastDaemonTestSupport
import PodcastTestSupport
import Testing

@testable import PodcastCommandLine
@testable import PodcastEngine
@testable import PodcastStore

/// SIGHUP re-reads the config file: which keys apply live, which need a
/// restart, a broken file refused whole, the command line still winning; and the live changes
/// themselves on a virtual clock (poll interval, hook command and policy, download limits).
@Suite struct ConfigReloadTests {
    func reload(_ dir: TemporaryDirectory, arguments: [String] = ["run", "--json"]) -> ConfigReload {
        ConfigReload(
            path: dir.file("config"), required: false, environment: ["HOME": dir.path], arguments: arguments,
            currentDirectory: dir.path)
    }

    @Test func aFreshReadGivesTheFilesOptionsAndTheCommandLineStillWins() throws {
        let dir = TemporaryDirectory("reload-read")
        try "interval = 15m\nhook = echo one\nkeep = 3\n".write(
            toFile: dir.file("config"), atomically: true, encoding: .utf8)
        let first = try reload(dir, arguments: ["run", "--interval", "2h"]).read()
        #expect(first.options.intervalSeconds == 7200)  // the command line's
        #expect(first.options.hook == "echo one")
        #expect(first.options.keep == 3)
        #expect(first.stateDirectory == dir.path + "/.local/state/podcast-watch")

        try "interval = 5m\nhook = echo two\nkeep = 3\nstate = st\n".write(
            toFile: dir.file("config"), atomically: true, encoding: .utf8)
        let second = try reload(dir, arguments: ["run", "--interval", "2h"]).read()
        #expect(ConfigReload.changes(from: first.options, to: second.options) == [.init(key: "hook", live: true)])
        #expect(second.stateDirectory == dir.path + "/st")
    }

    /// A file that fails to parse is refused with its line; nothing of it is taken.
    /// `state = ./state`, `state/` or a symlink to the running folder is the same directory: no
    /// "state changed" warning at every SIGHUP. Another folder (existing or not) is a change.
    @Test func theSameStateDirectorySpelledDifferentlyIsNoChange() throws {
        let dir = TemporaryDirectory()
        let running = dir.path + "/state"
        try FileManager.default.createDirectory(atPath: running, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: dir.path + "/link", withDestinationPath: running)
        #expect(ConfigReload.sameStateDirectory(dir.path + "/./state", running))
        #expect(ConfigReload.sameStateDirectory(dir.path + "/state/", running))
        #expect(ConfigReload.sameStateDirectory(dir.path + "/link", running))
        #expect(!ConfigReload.sameStateDirectory(dir.path, running))
        #expect(ConfigReload.sameStateDirectory(dir.path + "/gone/../gone2/", dir.path + "/gone2"))
        #expect(!ConfigReload.sameStateDirectory(dir.path + "/gone3", dir.path + "/gone2"))
        // Through a real read: `state = ./state/` in the file.
        try "state = ./state/\n".write(toFile: dir.file("config"), atomically: true, encoding: .utf8)
        let fresh = try reload(dir).read()
        #expect(ConfigReload.sameStateDirectory(try #require(fresh.stateDirectory), running))
    }

    /// The summary line after every SIGHUP: restart-only changes still get one, hook keys without
    /// a hook are not "applied", and no config file says only the feed list was reloaded.
    @Test func theSummaryLineSaysWhatHappened() {
        let f = "/etc/podcast-watch/config"
        #expect(
            ConfigReload.summary(path: f, live: [], inert: [], restart: ["http"], noFile: false)
                == "config reloaded from /etc/podcast-watch/config: nothing applied (restart needed for http)")
        #expect(
            ConfigReload.summary(path: f, live: [], inert: ["hook-on"], restart: ["http", "state"], noFile: false)
                == "config reloaded from /etc/podcast-watch/config: nothing applied (hook-on has no effect without a hook; restart needed for http, state)"
        )
        #expect(
            ConfigReload.summary(
                path: f, live: ["interval"], inert: ["hook-on", "hook-retries"], restart: [], noFile: false)
                == "config reloaded from /etc/podcast-watch/config: applied interval; hook-on, hook-retries have no effect without a hook"
        )
        #expect(
            ConfigReload.summary(path: f, live: ["hook"], inert: [], restart: ["http"], noFile: false)
                == "config reloaded from /etc/podcast-watch/config: applied hook")
        #expect(
            ConfigReload.summary(path: "/dev/null", live: [], inert: [], restart: [], noFile: true)
                == "config reloaded: no config file (/dev/null); feed list reloaded")
        #expect(
            ConfigReload.summary(path: f, live: [], inert: [], restart: [], noFile: false)
                == "config reloaded from /etc/podcast-watch/config: nothing changed")
    }

    @Test func aBrokenFileIsRefusedWithItsLine() throws {
        let dir = TemporaryDirectory("reload-broken")
        try "interval = 5m\ninterval = 6m\n".write(toFile: dir.file("config"), atomically: true, encoding: .utf8)
        #expect(throws: UsageError.self) { try reload(dir).read() }
        do {
            _ = try reload(dir).read()
        } catch {
            #expect(error.message == "\(dir.file("config")):2: 'interval' is already set on line 1")
        }
        // A file removed since the start means "no options from a file".
        try FileManager.default.removeItem(atPath: dir.file("config"))
        #expect(try reload(dir).read().options == RunOptions(json: true))
    }

    @Test func liveAndRestartKeys() throws {
        let old = try #require(runOptions("run", "--hook", "a", "--interval", "60", "--http", "8080"))
        func changes(_ args: String...) throws -> [ConfigReload.Change] {
            ConfigReload.changes(from: old, to: try #require(runOptions(args)))
        }
        #expect(
            try changes(
                "run", "--hook", "b", "--interval", "120", "--http", "8081", "--hook-timeout", "5", "--keep", "2",
                "--download-jobs", "8", "--hook-log", "/tmp/x")
                == [
                    .init(key: "interval", live: true), .init(key: "hook", live: true),
                    .init(key: "hook-timeout", live: true), .init(key: "hook-log", live: false),
                    .init(key: "download-jobs", live: true), .init(key: "keep", live: true),
                    .init(key: "http", live: false),
                ])
        // Adding or removing the hook altogether needs a restart (the runner is made at start).
        #expect(try changes("run", "--interval", "60", "--http", "8080") == [.init(key: "hook", live: false)])
        #expect(try changes("run", "--hook", "a", "--interval", "60", "--http", "8080").isEmpty)
        // The public origin is one of the listener's access rules, read at start.
        #expect(
            try changes(
                "run", "--hook", "a", "--interval", "60", "--http", "8080", "--http-public-origin",
                "https://pods.example.net") == [.init(key: "http-public-origin", live: false)])
    }

    func runOptions(_ args: String...) -> RunOptions? { runOptions(args) }
    func runOptions(_ args: [String]) -> RunOptions? {
        guard case .run(let options) = try? CommandLineParser.parse(args).command else { return nil }
        return options
    }

    /// A reloaded `interval` reschedules feeds without their own at once, as a restart would:
    /// the next poll is at most one new interval away. Before, the old hour stood until the
    /// next restart.
    @Test func aShorterIntervalAppliesAtOnce() throws {
        let dir = TemporaryDirectory("reload-interval")
        let store = try FeedStore(path: dir.file("state.sqlite"))
        let scheduler = ManualScheduler()
        let fetcher = ScriptedFetcher()
        fetcher.autoRespond = { ok($0.url, "g1") }
        _ = try store.add(url: "http://h/default")
        _ = try store.add(url: "http://h/own", intervalSeconds: 7200)
        let start = Date(timeIntervalSince1970: 1_000_000)
        let daemon = PodcastDaemon(
            store: store, fetcher: fetcher, parse: parseGuids, scheduler: scheduler,
            configuration: .init(intervalOverride: 3600),
            now: { start.addingTimeInterval(MonotonicInstant(nanoseconds: 0).distance(to: scheduler.now).seconds) },
            random: noJitter)
        try daemon.start()
        #expect(fetcher.requests.map(\.url) == ["http://h/default", "http://h/own"])
        scheduler.advance(by: 60)
        daemon.setIntervalOverride(900)
        #expect(daemon.configuration.intervalOverride == 900)
        scheduler.advance(by: 899)
        #expect(fetcher.requests.count == 2)
        scheduler.advance(by: 1)  // 900 s after the start: the default feed only
        #expect(fetcher.requests.map(\.url).dropFirst(2) == ["http://h/default"])
        scheduler.advance(by: 900)
        #expect(fetcher.requests.map(\.url).dropFirst(2) == ["http://h/default", "http://h/default"])
        // A longer one takes over from the next poll (already due at 2700); the feed with its
        // own interval keeps it.
        daemon.setIntervalOverride(3000)
        scheduler.advance(by: 900)
        #expect(fetcher.requests.count == 5)
        scheduler.advance(by: 2999)
        #expect(fetcher.requests.count == 5)
        scheduler.advance(by: 1)  // 5700
        #expect(fetcher.requests.map(\.url).last == "http://h/default")
        scheduler.advance(by: 1500)  // 7200: the own-interval feed
        #expect(fetcher.requests.map(\.url).dropFirst(6) == ["http://h/own"])
        daemon.stop()
    }

    /// A reloaded hook command and policy apply to the next attempt, retries still owed included.
    @Test func aChangedHookRunsFromTheNextAttempt() throws {
        let dir = TemporaryDirectory("reload-hook")
        let log = dir.file("log")
        var timers: [(Double, () -> Void)] = []
        let runner = HookRunner(
            command: "echo old >> \(log); exit 1", policy: HookRunner.Policy(retries: 1, firstRetryDelay: 15))
        runner.after = { seconds, action in timers.append((seconds, action)) }
        var outcomes: [HookRunner.Outcome] = []
        runner.onOutcome = { _, outcome in outcomes.append(outcome) }
        runner.run(
            for: EpisodeAnnouncement(
                time: Date(), feedURL: "http://h/f", podcastTitle: nil, title: "t", guid: "g", url: nil))
        let deadline = Date().addingTimeInterval(20)
        while runner.runningCount > 0 && Date() < deadline {
            runner.reap()
            usleep(2000)
        }
        #expect(timers.map(\.0) == [15])
        runner.command = "echo new >> \(log)"
        // (Same retries: an owed attempt beyond a lowered limit is given up, see HookRetryTests.)
        runner.policy = HookRunner.Policy(retries: 1, firstRetryDelay: 15, timeout: 30)
        timers.removeFirst().1()  // the retry owed
        #expect(timers.map(\.0) == [30])  // the new timeout was armed
        while runner.runningCount > 0 && Date() < deadline {
            runner.reap()
            usleep(2000)
        }
        #expect(try String(contentsOfFile: log, encoding: .utf8) == "old\nnew\n")
        #expect(outcomes.count == 2)
        if case .succeeded(let attempts) = outcomes.last { #expect(attempts == 2) } else { Issue.record("\(outcomes)") }
    }
}

/// A reload's download settings: limits apply at once, a new folder and template from the next
/// download queued; what is in flight keeps its path.
@Suite(.serialized) struct DownloadSettingsReloadTests {
    @Test func raisedLimitStartsWaitingDownloadsAndNewFolderAppliesToNewOnes() throws {
        let h = try DownloadHarness { $0.maxConcurrent = 1 }
        let data = DownloadHarness.bytes(40_000, seed: 5)
        h.server.route("/s.mp3") { request in
            var r = TestHTTPServer.Response.file(data, for: request)
            r.stream = .init(pieceBytes: 10_000, interval: 0.05)
            return r
        }
        try h.queue.start()
        let first = try h.announce(title: "One", path: "/s.mp3?1")
        let second = try h.announce(title: "Two", path: "/s.mp3?2")
        #expect(h.queue.activeCount == 1)
        #expect(h.queue.waitingCount == 1)
        var settings = h.queue.settings
        settings.maxConcurrent = 2
        settings.directory = h.temp.path + "/other"
        h.queue.update(settings: settings)
        #expect(h.queue.activeCount == 2)  // at once, not after the first finished
        #expect(h.queue.waitingCount == 0)
        let third = try h.announce(title: "Three", path: "/s.mp3?3")
        h.run(until: { [first, second, third].allSatisfy { h.state($0) == .done } })
        #expect(h.record(first)?.path.hasPrefix(h.directory + "/") == true)
        #expect(h.record(second)?.path.hasPrefix(h.directory + "/") == true)  // named when it was queued
        #expect(h.record(third)?.path.hasPrefix(h.temp.path + "/other/") == true)
        for id in [first, second, third] { #expect(h.contents(h.record(id)!.path) == data) }
    }
}
