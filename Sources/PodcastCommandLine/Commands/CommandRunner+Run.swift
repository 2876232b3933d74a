import Foundation
import PodcastStore

extension CommandRunner {
    /// `run`: the daemon until a signal (or, with `--once`, one pass).
    func runDaemon(_ store: FeedStore?, _ options: RunOptions) throws -> ExitCode {
        guard let store else { return .stateError }
        #if DEBUG
        // Test-only failpoint (DaemonProcessTests): compiled out of release builds, so a user's
        // environment can never make the daemon kill itself.
        let crash = environment["PODCAST_WATCH_CRASH_AFTER_COMMITS"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
        #else
        let crash: Int? = nil
        #endif
        var options = ConfigReload.resolved(options, currentDirectory: currentDirectory)
        options.downloadFallbackDirectory = StateLocation.downloadDirectory(environment: environment)
        let stateDirectory = (store.database.path as NSString).deletingLastPathComponent
        return DaemonSession(
            store: store, options: options, console: console, crashAfterCommits: crash,
            hookLogDefault: stateDirectory + "/" + CommandRunner.hookLogName, environment: environment,
            configReload: configReload
        ).run()
    }

    /// The hook log's file name in the state directory (see `RunOptions.hookLog`).
    static let hookLogName = "hooks.log"

    /// `demo`: subscribes a throwaway state directory to every feed file in the samples folder
    /// and runs one `run --once` pass over them, with `run`'s rules (a first sync announces the
    /// newest 3 episodes of each feed); the directory is removed afterwards.
    func demo(samples: String?, json: Bool) -> ExitCode {
        guard let folder = samples ?? environment["PODCAST_WATCH_SAMPLES"] ?? defaultSamplesDirectory else {
            console.err("podcast-watch: no sample feeds: pass --samples DIR or set PODCAST_WATCH_SAMPLES\n")
            return .inputError
        }
        let dir = folder.hasPrefix("/") ? folder : currentDirectory + "/" + folder
        if let failure = PosixDirectory.unreadableReason(dir) {
            console.err("podcast-watch: cannot read the sample feeds: \(failure)\n")
            return .inputError
        }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: dir)
                .filter { [".xml", ".rss", ".atom"].contains(where: $0.lowercased().hasSuffix) }.sorted()
        } catch {
            console.err("podcast-watch: cannot read the sample feeds in \(dir): \(error.localizedDescription)\n")
            return .inputError
        }
        guard !names.isEmpty else {
            console.err("podcast-watch: no feed files (.xml, .rss, .atom) in \(dir)\n")
            return .inputError
        }
        let state = NSTemporaryDirectory() + "podcast-watch-demo-\(getpid())-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: state) }
        return withStore(state, create: true, exclusive: true) { store in
            guard let store else { return .stateError }
            for name in names {
                try store.add(url: URL(fileURLWithPath: dir + "/" + name).standardizedFileURL.absoluteString)
            }
            // Exactly what `run --once` does on a first sync: the newest 3 of each feed announced.
            let status = DaemonSession(store: store, options: RunOptions(once: true, json: json), console: console)
                .run()
            if !json && console.isTerminal {
                // After the view: its frames clear the screen, which wiped a line written before.
                console.err("podcast-watch demo: \(names.count) sample feeds from \(dir)\n")
            }
            return status
        }
    }
}
