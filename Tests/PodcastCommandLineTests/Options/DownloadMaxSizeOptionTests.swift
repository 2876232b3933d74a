import Foundation
import Testing

@testable import PodcastCommandLine
@testable import PodcastEngine

/// `--download-max-size SIZE` and the config key `download-max-size`: parsed as the rate is
/// (`500M`, `4G`), at least 1M, handed to the queue, and applied live by a reload.
@Suite struct DownloadMaxSizeOptionTests {
    @Test func theOptionTheKeyAndTheReload() throws {
        let inv = try CommandLineParser.parse(["run", "--download", "/m", "--download-max-size", "500M"])
        guard case .run(let options) = inv.command else {
            Issue.record("not run")
            return
        }
        #expect(options.downloadMaxSize == 500 << 20)
        #expect(DaemonSession.downloadSettings(options)?.maxFileBytes == 500 << 20)
        #expect(RunOptions().downloadMaxSize == 8 << 30)
        for bad in ["0", "1k", "512k", "big", "-1G"] {
            #expect(
                throws: UsageError(
                    "option '--download-max-size' needs a size of at least 1M such as 500M or 4G, not '\(bad)'",
                    command: "run")
            ) {
                try CommandLineParser.parse(["run", "--download-max-size", bad])
            }
        }
        let config = try RunConfig.parse("download-max-size = 2G\n", path: "/etc/pw/config")
        #expect(config.runTokens == ["--download-max-size", "2G"])
        #expect(throws: UsageError.self) { try RunConfig.parse("download-max-size = 0\n", path: "/c") }
        var changed = options
        changed.downloadMaxSize = 1 << 30
        #expect(ConfigReload.changes(from: options, to: changed) == [.init(key: "download-max-size", live: true)])
    }
}
