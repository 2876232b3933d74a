import Foundation
import Testing

@testable import PodcastCommandLine

/// The command table is the one list of commands and options: the parser takes its options from
/// it, the hand-written help texts must name exactly its options, and the man pages, the config
/// page and the shell completions generated from it must cover every command, option, exit
/// status, config key and environment variable the code knows.
@Suite struct CommandTableTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// `--name` tokens in `text`.
    static func optionNames(_ text: some StringProtocol) -> Set<String> {
        var names: Set<String> = []
        for match in String(text).matches(of: /--[a-z][a-z-]*/) { names.insert(String(match.output)) }
        return names
    }

    @Test func commandNamesAreTheTables() {
        #expect(
            CommandLineParser.commands == [
                "add", "remove", "enable", "disable", "set", "list", "import", "export", "run", "show", "demo",
                "downloads", "download", "cancel-download", "delete-download", "feed-url",
            ])
        #expect(CommandTable.commands.map(\.name) == CommandLineParser.commands)
    }

    /// Each command's usage lines name exactly its options in the table, and each option item
    /// of its help is one of them, with the table's value placeholder.
    @Test(arguments: CommandTable.commands.map(\.name))
    func helpTextNamesExactlyTheTableOptions(_ name: String) throws {
        let command = try #require(CommandTable.command(name))
        let help = HelpText(UsageText.help(for: name))
        #expect(Self.optionNames(help.usage.joined(separator: "\n")) == Set(command.options.map(\.name)))
        for item in help.bodyItems {
            let option = try #require(item.optionName, "item '\(item.tag)' of \(name)")
            let entry = try #require(command.options.first { $0.name == option }, "\(name): \(option) not in the table")
            let words = item.tag.split(separator: " ").map(String.init)
            if let value = entry.value {
                #expect(words.count == 2 && (words[1] == value || words[1] == "default"), "\(name): \(item.tag)")
            } else {
                #expect(words == [option], "\(name): \(item.tag)")
            }
        }
    }

    /// The parser classifies every table option as the table does: a flag refuses a value, an
    /// option with a value needs one; an option of no table entry is unknown.
    @Test(arguments: CommandTable.commands.map(\.name))
    func parserTakesItsOptionsFromTheTable(_ name: String) throws {
        let command = try #require(CommandTable.command(name))
        func message(_ arguments: [String]) -> String? {
            do {
                _ = try CommandLineParser.parse(arguments)
                return nil
            } catch {
                return error.message
            }
        }
        for option in command.options {
            if option.value == nil {
                #expect(message([name, "\(option.name)=x"]) == "option '\(option.name)' takes no value")
            } else {
                #expect(message([name, option.name]) == "option '\(option.name)' needs a value")
            }
        }
        #expect(message([name, "--no-such-option"]) == "unknown option '--no-such-option' for '\(name)'")
    }

    /// The section of `page` from the line starting with `start` to the next line starting with
    /// `end` (or the end).
    static func section(_ page: String, from start: String, to end: String) throws -> String {
        let lines = page.split(separator: "\n", omittingEmptySubsequences: false)
        let first = try #require(lines.firstIndex { $0.hasPrefix(start) }, "no \(start)")
        let last = lines[(first + 1)...].firstIndex { $0.hasPrefix(end) } ?? lines.endIndex
        return lines[first..<last].joined(separator: "\n")
    }

    @Test func manualPageCoversEveryCommandOptionAndExitStatus() throws {
        let page = ManualPage.podcastWatch(date: "2026-12-05")
        #expect(page.hasPrefix(".TH \"PODCAST\\-WATCH\" \"1\" \"2026-12-05\" \"podcast\\-watch \(UsageText.version)\""))
        for command in CommandTable.commands {
            let heading = try #require(
                page.split(separator: "\n").first {
                    $0.hasPrefix(".SS ")
                        && $0.dropFirst(5).dropLast().replacingOccurrences(of: "\\-", with: "-")
                            .components(separatedBy: ", ").contains(command.name)
                }, "no section for \(command.name)")
            let text = try Self.section(page, from: String(heading), to: ".S")
            for option in command.options {
                #expect(
                    text.contains(option.name.replacingOccurrences(of: "-", with: "\\-")),
                    "\(command.name) \(option.name)")
            }
        }
        let options = try Self.section(page, from: ".SH OPTIONS", to: ".SH")
        for option in CommandTable.globalOptions {
            #expect(
                options.contains("\\fB\(option.name.replacingOccurrences(of: "-", with: "\\-"))\\fR"), "\(option.name)")
        }
        let exit = try Self.section(page, from: ".SH EXIT STATUS", to: ".SH")
        let tags = exit.split(separator: "\n").filter { $0.hasPrefix("\\fB") }.joined(separator: " ")
        let documented = Set(tags.matches(of: /[0-9]+/).map { Int32($0.output)! })
        #expect(documented == Set(ExitCode.allCases.map(\.rawValue)))
    }

    /// Every variable the code reads from its environment is in ENVIRONMENT, but the debug-only
    /// failpoint.
    @Test func manualPageNamesEveryEnvironmentVariable() throws {
        let page = ManualPage.podcastWatch(date: "2026-12-05")
        let environment = try Self.section(page, from: ".SH ENVIRONMENT", to: ".SH")
        var read: Set<String> = []
        // Every module of the podcast side and the executable.
        for module in [
            "PodcastFeeds", "PodcastStore", "PodcastEngine", "PodcastWeb", "PodcastCommandLine", "podcast-watch",
        ] {
            let sources = Self.root.appendingPathComponent("Sources/\(module)")
            let files = try #require(FileManager.default.enumerator(atPath: sources.path))
            for case let file as String in files where file.hasSuffix(".swift") {
                let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
                for match in text.matches(of: /environment\["([A-Z_]+)"\]/) { read.insert(String(match.output.1)) }
            }
        }
        read.remove("PODCAST_WATCH_CRASH_AFTER_COMMITS")
        #expect(read.count >= 10)
        for name in read.sorted() {
            #expect(environment.contains(name), "\(name) not in ENVIRONMENT")
        }
    }

    @Test func configPageDescribesEveryKey() throws {
        let page = ManualPage.config(date: "2026-12-05")
        let keys = try Self.section(page, from: ".SH KEYS", to: ".SH")
        for key in RunConfig.keys {
            #expect(ManualPage.configKeyDescription(key) != nil, "\(key) has no option help")
            #expect(keys.contains(".TP\n\\fB\(key.replacingOccurrences(of: "-", with: "\\-"))\\fR = \\fI"), "\(key)")
        }
        #expect(!page.contains("(undocumented)"))
        #expect(page.contains("Config file: $PODCAST_WATCH_CONFIG"))
    }

    /// The example config lists every key, commented out, and parses once uncommented.
    @Test func exampleConfigHasEveryKey() throws {
        let text = try String(
            contentsOf: Self.root.appendingPathComponent("contrib/podcast-watch.conf"), encoding: .utf8)
        let settings = text.split(separator: "\n").filter { $0.wholeMatch(of: /#[a-z-]+ = .+/) != nil }
        let keys = settings.map { String($0.dropFirst().prefix { $0 != " " }) }
        #expect(keys.sorted() == RunConfig.keys.sorted())
        let uncommented = settings.map { $0.dropFirst() }.joined(separator: "\n")
        let config = try RunConfig.parse(
            uncommented, path: "/etc/podcast-watch/config", environment: ["HOME": "/home/u"])
        #expect(config.stateDirectory == "/home/u/.local/state/podcast-watch")
        #expect(config.runTokens.contains("--http-public-origin"))
    }

    @Test func completionsOfferEveryCommandAndOption() {
        let scripts = ["bash": ShellCompletion.bash, "zsh": ShellCompletion.zsh, "fish": ShellCompletion.fish]
        for (shell, script) in scripts {
            for command in CommandTable.commands {
                #expect(script.contains(command.name), "\(shell): \(command.name)")
                for option in command.options {
                    let needle = shell == "fish" ? "-l \(option.name.dropFirst(2))" : option.name
                    #expect(script.contains(needle), "\(shell): \(command.name) \(option.name)")
                }
            }
        }
        #expect(ShellCompletion.zsh.hasPrefix("#compdef podcast-watch\n"))
        #expect(ShellCompletion.bash.hasSuffix("complete -F _podcast_watch podcast-watch\n"))
    }

    /// Help text that starts a roff request (`.`, `'`) is protected; hyphens are minus signs.
    @Test func roffEscapesRequestsAndHyphens() {
        #expect(Roff.escape("'disable' stops") == "\\&'disable' stops")
        #expect(Roff.escape(".hidden") == "\\&.hidden")
        #expect(Roff.escape("a\\b --x") == "a\\eb \\-\\-x")
    }
}
