import Foundation
import PodcastDaemonTestSupport
import PodcastTestSupport
import Testing

@testable import PodcastCommandLine
@testable import PodcastEngine
@testable import PodcastFeeds
@testable import PodcastStore

#if canImport(Glibc)
import Glibc
#endif

/// A config path that is not a regular file: a directory or FIFO gave "cannot read it" with
/// whatever errno an earlier call had left (a FIFO could also wait for a writer), and a link to
/// `/dev/zero` was taken as `/dev/null`, "no config". Each is now refused, naming what it is;
/// `/dev/null` under any name is still the empty config.
@Suite struct ConfigFileKindTests {
    let dir = TemporaryDirectory("config-kind")

    func refusal(_ path: String, required: Bool = true) -> String? {
        do {
            _ = try RunConfig.load(path: path, required: required)
            return nil
        } catch {
            return error.message
        }
    }

    @Test func whatIsNotARegularFileIsNamed() throws {
        try FileManager.default.createDirectory(atPath: dir.file("folder"), withIntermediateDirectories: false)
        try #require(mkfifo(dir.file("fifo"), 0o600) == 0)
        try #require(symlink("/dev/zero", dir.file("zero-link")) == 0)
        let suffix = ", not a regular file (use /dev/null for no config)"
        // Also when found at a default path (not required): a folder there is a mistake to report.
        for required in [true, false] {
            #expect(
                refusal(dir.file("folder"), required: required)
                    == "config file \(dir.file("folder")): it is a directory\(suffix)")
            #expect(
                refusal(dir.file("fifo"), required: required)
                    == "config file \(dir.file("fifo")): it is a FIFO\(suffix)")
            #expect(
                refusal(dir.file("zero-link"), required: required)
                    == "config file \(dir.file("zero-link")): it is a character device\(suffix)")
        }
        #expect(refusal("/dev/zero") == "config file /dev/zero: it is a character device\(suffix)")
    }

    @Test func devNullUnderAnyNameIsStillTheEmptyConfig() throws {
        try #require(symlink("/dev/null", dir.file("null-link")) == 0)
        let config = try #require(try RunConfig.load(path: dir.file("null-link"), required: true))
        #expect(config.runTokens == [] && config.stateDirectory == nil)
    }

    @Test func aRegularFileIsReadAndAHugeOneRefused() throws {
        try "interval = 2h\n".write(toFile: dir.file("config"), atomically: true, encoding: .utf8)
        #expect(try RunConfig.load(path: dir.file("config"))?.runTokens == ["--interval", "2h"])
        try Data(count: RunConfig.maximumBytes + 1).write(to: URL(fileURLWithPath: dir.file("huge")))
        #expect(
            refusal(dir.file("huge"))
                == "config file \(dir.file("huge")): larger than \(RunConfig.maximumBytes) bytes; not a config file")
        // A missing file: the errno of the lookup itself; absent at a default path.
        #expect(
            refusal(dir.file("nope")) == "config file \(dir.file("nope")): cannot read it: No such file or directory")
        #expect(try RunConfig.load(path: dir.file("nope")) == nil)
    }
}
