import Foundation
import Testing

@testable import PodcastCommandLine

/// Filesystem failures are reported with the path and the errno text, never a raw Foundation error.
@Suite struct PathErrorMessageTests {
    func run(_ args: [String], cwd: String) -> (ExitCode, String, String) {
        let captured = CapturedConsole()
        let runner = CommandRunner(
            console: captured.console(), environment: ["HOME": "/nonexistent-home"], currentDirectory: cwd)
        let code = runner.run(args)
        return (code, captured.out, captured.err)
    }

    @Test func aStateDirectoryBelowARegularFileNamesTheFile() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(FileManager.default.createFile(atPath: dir + "/F", contents: Data()))
        #expect(FileManager.default.createFile(atPath: dir + "/feed.xml", contents: Data("<rss/>".utf8)))
        #expect(
            run(["--state", dir + "/F/sub", "add", "feed.xml"], cwd: dir)
                == (
                    .stateError, "",
                    "podcast-watch: cannot create the state directory \(dir)/F/sub: \(dir)/F: Not a directory\n"
                ))
    }

    @Test func missingOrUnlistableSamplesNameThePathAndReason() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(
            run(["demo", "--samples", "/nonexistent-samples"], cwd: dir)
                == (
                    .inputError, "",
                    "podcast-watch: cannot read the sample feeds: /nonexistent-samples: No such file or directory\n"
                ))
        #expect(FileManager.default.createFile(atPath: dir + "/plain", contents: Data()))
        #expect(
            run(["demo", "--samples", "plain"], cwd: dir)
                == (.inputError, "", "podcast-watch: cannot read the sample feeds: \(dir)/plain: Not a directory\n"))
    }

    @Test func showOfAMissingFileIsAnInputError() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(
            run(["show", "/missing-feed.xml"], cwd: dir)
                == (.inputError, "", "podcast-watch: cannot read /missing-feed.xml: No such file or directory\n"))
    }

    @Test func aTitleWithControlCharactersIsRefused() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(FileManager.default.createFile(atPath: dir + "/feed.xml", contents: Data("<rss/>".utf8)))
        let (code, out, err) = run(
            ["--state", dir + "/state", "add", "feed.xml", "--title", "Evil\u{1B}[2J"], cwd: dir)
        #expect(code == .usage)
        #expect(out == "")
        #expect(
            err.hasPrefix(
                "podcast-watch: option '--title' must not contain control characters (newlines, tabs, escapes)"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/state"))  // refused before anything was created
    }
}
