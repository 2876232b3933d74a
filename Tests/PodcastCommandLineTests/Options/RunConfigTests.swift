import Foundation
import PodcastTestSupport
import Testing

@testable import PodcastCommandLine

/// `run`'s config file: strict `key = value`, errors with line numbers (exit 2),
/// command-line options win.
@Suite struct RunConfigTests {
    func options(_ config: String, _ arguments: [String]) throws -> RunOptions {
        let parsed = try RunConfig.parse(config, path: "/etc/pw/config")
        guard case .run(let options) = try CommandLineParser.parse(arguments, runDefaults: parsed.runTokens).command
        else {
            throw UsageError("not run")
        }
        return options
    }

    @Test func everyKeyAndCommentsAndBlanks() throws {
        let config = try RunConfig.parse(
            """
            # polling
            interval = 15m

              hook = echo "$EPISODE_TITLE" # not a comment = part of the command
            hook-timeout=2m
            hook-retries = 1
            hook-log = logs/hooks.log
            first-sync-announce = 0
            state = st
            """, path: "/etc/pw/config")
        #expect(config.stateDirectory == "/etc/pw/st")
        #expect(
            config.runTokens == [
                "--interval", "15m", "--hook", "echo \"$EPISODE_TITLE\" # not a comment = part of the command",
                "--hook-timeout", "2m", "--hook-retries", "1", "--hook-log", "/etc/pw/logs/hooks.log",
                "--first-sync-announce", "0",
            ])
    }

    @Test func commandLineWins() throws {
        let file = "interval = 15m\nhook = from-file\nhook-retries = 1\n"
        let fromFile = try options(file, ["run"])
        #expect(fromFile.intervalSeconds == 900 && fromFile.hook == "from-file" && fromFile.hookRetries == 1)
        let overridden = try options(file, ["run", "--interval", "2h", "--hook", "from-flag"])
        #expect(overridden.intervalSeconds == 7200 && overridden.hook == "from-flag" && overridden.hookRetries == 1)
        #expect(try options("", ["run"]) == RunOptions())
    }

    @Test func mistakesNameTheLine() {
        func error(_ text: String) -> String? {
            do {
                _ = try RunConfig.parse(text, path: "/c")
                return nil
            } catch { return error.message }
        }
        #expect(
            error("interval = 15m\n\n# x\nintervall = 2h\n")
                == "/c:4: unknown key 'intervall' (known: state, interval, hook, hook-timeout, hook-retries, hook-log, first-sync-announce, download, download-name, download-jobs, download-per-host, download-rate, download-max-size, keep, hook-on, http, http-token, http-public-origin)"
        )
        #expect(error("interval = 15m\ninterval = 2h\n") == "/c:2: 'interval' is already set on line 1")
        #expect(error("\n\ninterval\n") == "/c:3: expected 'key = value', got 'interval'")
        #expect(error("hook =   \n") == "/c:1: 'hook' needs a value")
        #expect(
            error("hook = x\nhook-retries = 11\n")
                == "/c:2: bad value for 'hook-retries': option '--hook-retries' needs a whole number from 0 to 10, not '11'"
        )
        #expect(
            error("interval = 0\n")
                == "/c:1: bad value for 'interval': option '--interval' needs a duration such as 900, 15m or 2h (1 s to 30 d), not '0'"
        )
        #expect(error("once = true\n")?.hasPrefix("/c:1: unknown key 'once'") == true)
    }

    /// Through the CLI: a bad file is exit 2 with its line; none found changes nothing; an
    /// explicit $PODCAST_WATCH_CONFIG must exist.
    @Test func cliReportsConfigErrorsAsUsageErrors() throws {
        let dir = TemporaryDirectory()
        try FileManager.default.createDirectory(
            atPath: dir.file("cfg/podcast-watch"), withIntermediateDirectories: true)
        try "interval = 15m\nhook-timout = 5\n".write(
            toFile: dir.file("cfg/podcast-watch/config"), atomically: true, encoding: .utf8)
        let captured = CapturedConsole()
        let runner = CommandRunner(
            console: captured.console(), environment: ["HOME": "/nonexistent-home", "XDG_CONFIG_HOME": dir.file("cfg")])
        #expect(runner.run(["--state", dir.file("state"), "run", "--once"]) == .usage)
        #expect(
            captured.err
                == "podcast-watch: \(dir.file("cfg/podcast-watch/config")):2: unknown key 'hook-timout' (known: state, interval, hook, hook-timeout, hook-retries, hook-log, first-sync-announce, download, download-name, download-jobs, download-per-host, download-rate, download-max-size, keep, hook-on, http, http-token, http-public-origin)\n"
        )
        #expect(!FileManager.default.fileExists(atPath: dir.file("state")))  // nothing started

        let missing = CapturedConsole()
        let explicit = CommandRunner(
            console: missing.console(),
            environment: ["HOME": "/nonexistent-home", "PODCAST_WATCH_CONFIG": dir.file("nope")])
        #expect(explicit.run(["run", "--once"]) == .usage)
        #expect(
            missing.err == "podcast-watch: config file \(dir.file("nope")): cannot read it: No such file or directory\n"
        )
        #expect(RunConfig.path(environment: ["HOME": "/h"]) == "/h/.config/podcast-watch/config")
        #expect(
            RunConfig.path(environment: ["HOME": "/h", "XDG_CONFIG_HOME": "relative"])
                == "/h/.config/podcast-watch/config")
        #expect(RunConfig.path(environment: [:]) == nil)
    }

    /// `PODCAST_WATCH_CONFIG=/dev/null` says "no config": an empty config, not "cannot read it:
    /// Inappropriate ioctl for device" (exit 2). An empty file is empty too.
    @Test func devNullIsAnEmptyConfig() throws {
        let config = try #require(try RunConfig.load(path: "/dev/null", required: true))
        #expect(config.runTokens == [] && config.stateDirectory == nil && config.path == "/dev/null")
        let dir = TemporaryDirectory("config-empty")
        #expect(FileManager.default.createFile(atPath: dir.file("config"), contents: Data()))
        let empty = try #require(try RunConfig.load(path: dir.file("config"), required: true))
        #expect(empty.runTokens == [] && empty.stateDirectory == nil)
    }
}
