import Foundation
import PodcastTestSupport
import Testing

@testable import PodcastCommandLine
@testable import PodcastFeeds

/// The config file beyond `run`: CRLF files, control characters
/// in messages, `~` and `$NAME` in path values, and `state` applying to every command that
/// uses the state directory.
@Suite struct ConfigFileScopeTests {
    func error(_ text: String, environment: [String: String] = [:]) -> String? {
        do {
            _ = try RunConfig.parse(text, path: "/c/config", environment: environment)
            return nil
        } catch { return error.message }
    }

    /// A file saved by a Windows editor: every line ends in CRLF. It was read as one line and
    /// refused, with the raw CR in the message.
    @Test func crlfLineEndingsAreAccepted() throws {
        let config = try RunConfig.parse(
            "# from notepad\r\ninterval = 15m\r\n\r\nhook = echo hi\r\nstate = /var/pw\r\n", path: "/c/config")
        #expect(config.runTokens == ["--interval", "15m", "--hook", "echo hi"])
        #expect(config.stateDirectory == "/var/pw")
        // A mistake on a CRLF line is reported with its own line number.
        #expect(
            error("interval = 15m\r\nhook-retries = 11\r\n")
                == "/c/config:2: bad value for 'hook-retries': option '--hook-retries' needs a whole number from 0 to 10, not '11'"
        )
    }

    /// A stray CR, ESC or other control in the file shows as a visible symbol in the message:
    /// never a raw CR that rewrites the line on a terminal, never an escape sequence.
    @Test func controlCharactersInMessagesAreVisible() {
        #expect(
            error("inter\rval = 2h\n")
                == "/c/config:1: unknown key 'inter␍val' (known: state, interval, hook, hook-timeout, hook-retries, hook-log, first-sync-announce, download, download-name, download-jobs, download-per-host, download-rate, download-max-size, keep, hook-on, http, http-token, http-public-origin)"
        )
        #expect(
            error("hook = x\nhook-retries = 1\u{1b}[2J\n")
                == "/c/config:2: bad value for 'hook-retries': option '--hook-retries' needs a whole number from 0 to 10, not '1␛[2J'"
        )
        #expect(error("interval\u{7}\n") == "/c/config:1: expected 'key = value', got 'interval␇'")
        for message in [error("inter\rval = 2h\n"), error("bog\u{9b}us = \u{202e}\n")] {
            #expect(message != nil)
            #expect(message?.unicodeScalars.contains(where: TerminalText.isUnsafe) == false)
        }
    }

    /// `~/`, `$NAME` and `${NAME}` in path values; relative paths are relative to the file's
    /// folder; an unset variable is an error naming the line, never a path rooted at `/`.
    @Test func pathValuesExpandHomeAndVariables() throws {
        let env = ["HOME": "/home/ann", "XDG_STATE_HOME": "/home/ann/.st"]
        func state(_ value: String) throws -> String? {
            try RunConfig.parse("state = \(value)\n", path: "/etc/pw/config", environment: env).stateDirectory
        }
        #expect(try state("~/pw") == "/home/ann/pw")
        #expect(try state("~") == "/home/ann")
        #expect(try state("$HOME/pw") == "/home/ann/pw")
        #expect(try state("${XDG_STATE_HOME}/podcast-watch") == "/home/ann/.st/podcast-watch")
        #expect(try state("$XDG_STATE_HOME/pw-$HOME") == "/home/ann/.st/pw-/home/ann")
        #expect(try state("st") == "/etc/pw/st")
        #expect(try state("/abs/~/x") == "/abs/~/x")
        let log = try RunConfig.parse("hook-log = ~/hooks.log\n", path: "/etc/pw/config", environment: env)
        #expect(log.runTokens == ["--hook-log", "/home/ann/hooks.log"])
        // The hook is the shell's business: left exactly as written.
        let hook = try RunConfig.parse("hook = echo ~ $HOME\n", path: "/etc/pw/config", environment: env)
        #expect(hook.runTokens == ["--hook", "echo ~ $HOME"])

        #expect(
            error("\nstate = $STATE_DIR/pw\n", environment: env)
                == "/c/config:2: bad value for 'state': $STATE_DIR is not set (in '$STATE_DIR/pw')")
        #expect(
            error("state = ~/pw\n")
                == "/c/config:1: bad value for 'state': $HOME is not set (in '~/pw')")
        #expect(
            error("state = ~bob/pw\n", environment: env)
                == "/c/config:1: bad value for 'state': '~user' is not supported; write the path in full (in '~bob/pw')"
        )
        #expect(
            error("state = ${HOME/pw\n", environment: env)
                == "/c/config:1: bad value for 'state': '${' without a closing '}' (in '${HOME/pw')")
        #expect(
            error("state = /a/$/b\n", environment: env)
                == "/c/config:1: bad value for 'state': '$' must start a variable name such as $HOME (in '/a/$/b')")
    }

    /// `state` in the file applies to add, list, disable, enable, export, import and remove, not
    /// only to run (they used the default directory, so `add` subscribed somewhere `run`
    /// never looked). `--state` on the command line still wins.
    @Test func stateAppliesToEveryCommandThatUsesIt() throws {
        let home = TemporaryDirectory("cfg-scope")
        let feed = home.file("feed.xml")
        try "<rss/>".write(toFile: feed, atomically: true, encoding: .utf8)
        try "# CRLF on purpose\r\nstate = ~/pw-state\r\n".write(
            toFile: home.file("config"), atomically: true, encoding: .utf8)
        let env = ["HOME": home.path, "PODCAST_WATCH_CONFIG": home.file("config")]
        func run(_ args: String...) -> (ExitCode, String, String) {
            let captured = CapturedConsole()
            let code = CommandRunner(console: captured.console(), environment: env, currentDirectory: "/").run(args)
            return (code, captured.out, captured.err)
        }
        #expect(run("add", feed).0 == .success)
        #expect(FileManager.default.fileExists(atPath: home.file("pw-state/\(StateLocation.databaseName)")))
        #expect(!FileManager.default.fileExists(atPath: home.file(".local/state/podcast-watch")))
        #expect(run("disable", "--id", "1").0 == .success)
        #expect(run("list", "--json").1.contains("\"enabled\":false"))
        #expect(run("enable", "--id", "1").0 == .success)
        let exported = run("export")
        #expect(exported.0 == .success && exported.1.contains("feed.xml"))
        try exported.1.write(toFile: home.file("backup.opml"), atomically: true, encoding: .utf8)
        #expect(run("remove", "--id", "1").0 == .success)
        #expect(run("import", home.file("backup.opml")).0 == .success)
        let list = run("list", "--json")
        #expect(list.0 == .success && list.1.contains("feed.xml") && list.1.contains("\"id\":2"))
        // The command line's --state wins over the file's.
        #expect(run("--state", home.file("other"), "list").1 == "")
        // A broken file stops every such command with its line (exit 2), not only run.
        try "state = ~/pw-state\nbogus = 1\n".write(toFile: home.file("config"), atomically: true, encoding: .utf8)
        let broken = run("list")
        #expect(broken.0 == .usage)
        #expect(broken.2.hasPrefix("podcast-watch: \(home.file("config")):2: unknown key 'bogus'"))
        // Commands that use no state do not read it.
        #expect(run("--version").0 == .success)
    }
}
