import Foundation
import LoopScheduler

extension CommandRunner {
    /// `show URL|FILE [--json]`: one unconditional fetch on the main loop, then the report on
    /// stdout. Fetch and parse errors go to stderr with exit status 1.
    func show(_ target: String, json: Bool) -> ExitCode {
        guard let url = location(target) else { return .usage }
        let loop = EventLoop.main
        let fetcher = HTTPFetcher(eventBase: loop.base)
        var result: FetchResult?
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
        switch result {
        case .none:
            console.err("podcast-watch: \(url): the fetch did not finish\n")
            return .internalError
        case .failure(let error)?:
            console.err("podcast-watch: cannot fetch \(error.url): \(error.message)\n")
            return .feedFailed
        case .success(let response)?:
            do {
                let parsed = try FeedParsing.parse(response)
                try emit(json ? FeedReport.json(parsed, response: response).serialized + "\n" : FeedReport.text(parsed, response: response))
                return .success
            } catch let error as OutputError {
                return outputFailed(error)
            } catch {
                console.err("podcast-watch: \(response.effectiveURL): \(error)\n")
                return .feedFailed
            }
        }
    }
}
