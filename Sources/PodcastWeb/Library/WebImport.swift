import Foundation
import LoopScheduler
import PodcastEngine
import PodcastFeeds

/// The part of a web OPML import whose cost the uploaded file controls: decoding the request
/// body and parsing the OPML (libxml2). It runs on a worker (`OffLoopExecutor`), and only the
/// outlines come back to the loop, where `WebControl.importOutlines` subscribes them (at most
/// `WebImportSummary.maxOutlines`, so that part stays bounded too).
///
/// Pure; any thread.
public enum WebImport {
    /// Why an upload gave no outlines to import.
    public enum Failure: Error, Sendable, Equatable {
        /// `POST /api/import` whose body is not `{"opml": "..."}`.
        case notJSON
        /// Nothing could be read as OPML.
        case notOPML(OPMLError)
        /// More outlines than the web import takes (`WebImportSummary.maxOutlines`); nothing is imported.
        case tooManyOutlines(count: Int)
    }

    /// Runs `parse` on `offLoop` and hands its result to `completion` on the loop, keeping the
    /// job's token until then (an executor whose token cancels when released would drop it).
    static func run(
        on offLoop: OffLoopExecutor, _ parse: @escaping @Sendable () -> Result<[OPMLOutline], Failure>,
        completion: @escaping (Result<[OPMLOutline], Failure>) -> Void
    ) {
        final class Token { var value: Cancellable? }
        let token = Token()
        token.value = offLoop.submit(parse) { result in
            token.value = nil
            completion(result)
        }
    }

    /// The outlines of an OPML document, as `import` reads them (a broken file gives what could
    /// be recovered), refused whole above `WebImportSummary.maxOutlines`.
    public static func outlines(_ data: Data) -> Result<[OPMLOutline], Failure> {
        let outlines: [OPMLOutline]
        switch Result(catching: { () throws(OPMLError) -> [OPMLOutline] in try OPML.parse(data: data) }) {
        case .success(let all): outlines = all
        case .failure(let error):
            guard case .malformed(_, let recovered) = error, !recovered.isEmpty else {
                return .failure(.notOPML(error))
            }
            outlines = recovered
        }
        guard outlines.count <= WebImportSummary.maxOutlines else {
            return .failure(.tooManyOutlines(count: outlines.count))
        }
        return .success(outlines)
    }

    /// The outlines of the OPML in a `{"opml": "<opml>...</opml>"}` body.
    public static func outlines(jsonBody body: [UInt8]) -> Result<[OPMLOutline], Failure> {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any],
            let text = object["opml"] as? String
        else { return .failure(.notJSON) }
        return outlines(Data(text.utf8))
    }
}
