import Foundation
import PodcastTestSupport
import XCTest

@testable import PodcastCommandLine

/// With `chmod 000` on the state directory, `list` said "No subscriptions" and
/// `export` printed an empty OPML, both with status 0, so `export > backup.opml` silently
/// emptied a backup. Now: exit 3, naming the path and the errno text.
final class UnreadableStateTests: XCTestCase {
    func run(_ args: [String]) -> (ExitCode, String, String) {
        let captured = CapturedConsole()
        let code = CommandRunner(console: captured.console(), environment: ["HOME": "/nonexistent-home"]).run(args)
        return (code, captured.out, captured.err)
    }

    /// Any failure other than "no such file" hides the database the same way; a symlink loop
    /// shows it even to root, which `chmod 000` does not stop.
    func testAStateDirectoryThatCannotBeSearchedIsAnErrorNotAnEmptyList() throws {
        let dir = TemporaryDirectory("unreadable")
        let state = dir.file("state")
        XCTAssertEqual(symlink(state, state), 0)
        let database = state + "/" + StateLocation.databaseName
        for command in [["list"], ["list", "--json"], ["export"], ["remove", "http://h/f"]] {
            let (code, out, err) = run(["--state", state] + command)
            XCTAssertEqual(code, .stateError, "\(command)")
            XCTAssertEqual(out, "", "\(command)")
            XCTAssertEqual(
                err,
                "podcast-watch: cannot read the state directory \(state): \(database): Too many levels of symbolic links\n",
                "\(command)")
        }
    }

    /// `chmod 000` itself, with the binary run as an unprivileged user when the tests run as root
    /// (as CI does: root ignores the mode).
    func testChmod000StateDirectoryExitsThreeWithPermissionDenied() throws {
        guard let binary = DaemonProcessTests.binary else {
            throw XCTSkip("podcast-watch binary not built next to the tests")
        }
        let dir = TemporaryDirectory("chmod000")
        XCTAssertEqual(chmod(dir.path, 0o755), 0)
        let state = dir.file("state")
        XCTAssertEqual(run(["--state", state, "add", "--no-check", "http://h/f"]).0, .success)
        var launcher = [binary]
        if getuid() == 0 {
            // A copy nobody can execute, wherever the build tree lives (root's home is 0700).
            let copy = dir.file("podcast-watch")
            try FileManager.default.copyItem(atPath: binary, toPath: copy)
            XCTAssertEqual(chmod(copy, 0o755), 0)
            guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
                throw XCTSkip("no setpriv to drop root")
            }
            XCTAssertEqual(chown(state, 65534, 65534), 0)
            launcher = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", copy]
        }
        XCTAssertEqual(chmod(state, 0o000), 0)
        defer { chmod(state, 0o700) }
        // A home this user cannot search: the default config file cannot even be looked up.
        let home = dir.file("home")
        XCTAssertEqual(mkdir(home, 0o000), 0)
        defer { chmod(home, 0o700) }
        for (command, hiddenConfig) in [(["list"], false), (["export"], false), (["list"], true)] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: launcher[0])
            process.arguments = Array(launcher.dropFirst()) + ["--state", state] + command
            // Not the tester's own config file (root's, unsearchable once privileges are dropped).
            process.environment = ProcessInfo.processInfo.environment.merging(
                hiddenConfig
                    ? ["HOME": home, "XDG_CONFIG_HOME": "", "PODCAST_WATCH_CONFIG": ""]
                    : ["XDG_CONFIG_HOME": dir.file("no-config"), "PODCAST_WATCH_CONFIG": ""]
            ) { $1 }
            let out = Pipe()
            let err = Pipe()
            process.standardOutput = out
            process.standardError = err
            try process.run()
            let outText = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let errText = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            if errText.contains("error while loading shared libraries") {
                throw XCTSkip("the unprivileged user cannot load the Swift runtime: \(errText)")
            }
            XCTAssertEqual(process.terminationStatus, 3, "\(command): \(errText)")
            XCTAssertEqual(outText, "", "\(command)")
            // The config file that cannot be looked up is a warning (as git's), not a usage error
            // that would hide the real problem.
            let warning =
                hiddenConfig
                ? "podcast-watch: warning: cannot look for the config file \(home)/.config/podcast-watch/config: Permission denied; going on without it\n"
                : ""
            XCTAssertEqual(
                errText,
                warning
                    + "podcast-watch: cannot read the state directory \(state): \(state)/\(StateLocation.databaseName): Permission denied\n",
                "\(command)")
        }
    }
}
