import Foundation
import LoopScheduler
import PodcastEngine
import PodcastFeeds

#if canImport(Glibc)
import Glibc
#endif

extension CommandRunner {
    /// `show URL|FILE [--json]`: one unconditional fetch on the main loop, then the report on
    /// stdout. Fetch and parse errors go to stderr with exit status 1; a missing or unreadable
    /// local file, or a directory, is status 4. A pipe, FIFO or device (`/dev/stdin`) is read to
    /// its end, bounded as a fetch is (first byte within 15 s, the end within 60 s): a FIFO with no
    /// writer or a silent pipe is an error (status 1), never a wait for ever.
    func show(_ target: String, json: Bool) -> ExitCode {
        guard let url = location(target) else { return .usage }
        // A local file that is missing or unreadable is an input file error (4), as for `add`.
        if let path = URL(string: url).flatMap({ $0.isFileURL ? $0.path : nil }), access(path, R_OK) != 0 {
            console.err("podcast-watch: cannot read \(path): \(String(cString: strerror(errno)))\n")
            return .inputError
        }
        var result: FetchResult?
        var info = stat()
        // A directory is an input file error too (it fell through to the fetcher: status 1,
        // where the manual (docs/PODCAST-WATCH.md) promises 4).
        if let path = URL(string: url).flatMap({ $0.isFileURL ? $0.path : nil }), stat(path, &info) == 0,
            (info.st_mode & S_IFMT) == S_IFDIR
        {
            console.err("podcast-watch: cannot read \(path): it is a directory, not a feed file\n")
            return .inputError
        }
        if let path = URL(string: url).flatMap({ $0.isFileURL ? $0.path : nil }), stat(path, &info) == 0,
            (info.st_mode & S_IFMT) != S_IFREG, (info.st_mode & S_IFMT) != S_IFDIR
        {
            // A one-shot command may block: a pipe or device is read to its end (the daemon
            // refuses them, `add` too).
            result = FileFetch.readStream(path: path, request: FetchRequest(url: url))
        } else {
            let loop = EventLoop.main
            let fetcher = HTTPFetcher(eventBase: loop.base)
            let token = fetcher.fetch(FetchRequest(url: url)) { outcome in
                result = outcome
                loop.stop()
            }
            do {
                try loop.run()
            } catch {
                console.err("podcast-watch: event loop failed: \(error)\n")
                return .internalError
            }
            token.cancel()
        }
        switch result {
        case .none:
            console.err("podcast-watch: \(url): the fetch did not finish\n")
            return .internalError
        case .failure(let error)?:
            console.err("podcast-watch: cannot fetch \(MaskedURL.string(error.url)): \(error.message)\n")
            return .feedFailed
        case .success(let response)?:
            do {
                let parsed = try FeedParsing.parse(response)
                try emit(
                    json
                        ? FeedReport.json(parsed, response: response).serialized + "\n"
                        : FeedReport.text(parsed, response: response))
                return .success
            } catch let error as OutputError {
                return outputFailed(error)
            } catch {
                console.err("podcast-watch: \(MaskedURL.string(response.effectiveURL)): \(error)\n")
                return .feedFailed
            }
        }
    }
}
