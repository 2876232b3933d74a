import Foundation
import PodcastTestSupport
import XCTest

@testable import PodcastEngine

/// stderr for journald: `<N>` level prefixes only when stderr is the journal stream
/// `JOURNAL_STREAM` names; plain otherwise; never an escape sequence.
final class JournalStreamProcessTests: XCTestCase {
    /// Runs the binary through a shell that sets JOURNAL_STREAM to `stream` (`self`: the
    /// device:inode of its own stderr pipe, as systemd would); returns stderr.
    func stderr(of arguments: [String], stream: String?) throws -> String {
        let binary = try BinaryRun.binary()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        let export: String
        switch stream {
        case "self"?: export = "JOURNAL_STREAM=$(stat -L -c %d:%i /proc/self/fd/2); export JOURNAL_STREAM; "
        case let value?: export = "JOURNAL_STREAM='\(value)'; export JOURNAL_STREAM; "
        case nil: export = "unset JOURNAL_STREAM; "
        }
        process.arguments = ["-c", export + "exec \"$0\" \"$@\"", binary] + arguments
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let data = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    func testLevelPrefixesOnlyOnTheJournalStream() throws {
        let state = TemporaryDirectory("journal")
        _ = try BinaryRun.run(["--state", state.path, "add", "--no-check", "http://a.example/f"])
        let args = ["--state", state.path, "remove", "http://b.example/f\u{1B}[2J"]
        XCTAssertEqual(
            try stderr(of: args, stream: "self"),
            "<3>podcast-watch: not subscribed: http://b.example/f\u{241B}[2J (see 'podcast-watch list')\n")
        XCTAssertEqual(
            try stderr(of: args, stream: nil),
            "podcast-watch: not subscribed: http://b.example/f\u{241B}[2J (see 'podcast-watch list')\n")
        // Inherited by a process whose stderr goes elsewhere: plain.
        XCTAssertEqual(
            try stderr(of: args, stream: "1:1"),
            "podcast-watch: not subscribed: http://b.example/f\u{241B}[2J (see 'podcast-watch list')\n")
        // A usage error: the message is an error, its usage lines are info.
        let usage = try stderr(of: ["list", "--bogus"], stream: "self").split(separator: "\n")
        XCTAssertEqual(usage.first, "<3>podcast-watch: unknown option '--bogus' for 'list'")
        XCTAssertTrue(usage.dropFirst().allSatisfy { $0.hasPrefix("<6>") }, "\(usage)")
    }
}
