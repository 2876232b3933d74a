import Foundation
import PodcastCommandLine

// podcast-watch: a thin shell over PodcastCommandLine's CommandRunner (see `podcast-watch --help`).
#if canImport(Glibc)
import Glibc
#endif

// First of all: SIGHUP/SIGUSR1 wait (blocked) until `run` has its handlers, instead of killing
// a daemon that is still starting; other commands release them at once.
EarlySignals.hold()

// The bundled sample feeds (override with --samples or PODCAST_WATCH_SAMPLES): an installed binary
// (`make install`, the Debian package) finds them in PREFIX/share/podcast-watch/samples beside its
// PREFIX/bin; a build in a clone, through this file's location in the source tree, so `make run`
// works from a fresh clone without a network.
let installedSamples = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")).map {
    URL(fileURLWithPath: $0).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("share/podcast-watch/samples").path
}
let sourceTreeSamples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("SampleFeeds").path
let samples = installedSamples.flatMap { FileManager.default.fileExists(atPath: $0) ? $0 : nil } ?? sourceTreeSamples

// A closed stdout pipe must end in a reported write error (EPIPE), not in death by SIGPIPE; and a
// closed stdout must not be taken over by a file opened later.
signal(SIGPIPE, SIG_IGN)
Console.guardStandardDescriptors()

let status = CommandRunner(defaultSamplesDirectory: samples).run(Array(CommandLine.arguments.dropFirst()))
exit(status.rawValue)
