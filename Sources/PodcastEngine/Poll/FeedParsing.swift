import Foundation
import PodcastFeeds

/// The daemon's glue between a fetch and the parser.
public enum FeedParsing {
    /// Parses a 2xx response with `FeedParser`: relative URLs resolve against the URL the body
    /// came from (after redirects), the HTTP `Content-Type` charset is a hint for the encoding,
    /// and `Content-Language` gives the language of a feed that states none. Throws
    /// `DocumentRefused` for a document whose parse cost is out of proportion
    /// (`StartTagLimit`, measured by the parser on the decoded text, since an encoding such as
    /// UTF-7 or EBCDIC hides the markup from a scan of the raw bytes), `TruncatedDocument` for
    /// a body cut short before its root element closed (checked only when libxml2 had to
    /// recover; its description says whether it was cut inside an item), `FeedParseError` when
    /// the body is not a feed at all. A body whose root end tag is only damaged (every item
    /// closed, `TruncatedDocument.isDamagedEndOnly`) is read, with a warning saying so. Any
    /// thread.
    @Sendable public static func parse(_ response: FetchResponse) throws -> ParsedFeed {
        let bytes = [UInt8](response.body)
        var parsed: ParsedFeed
        do {
            parsed = try FeedParser.parse(
                bytes: bytes, baseURL: response.effectiveURL, httpContentType: response.contentType,
                httpContentLanguage: response.contentLanguage)
        } catch .refused(let refusal) {
            throw refusal
        }
        if !parsed.isWellFormed, let root = TruncatedDocument.unclosedRoot(bytes) {
            guard TruncatedDocument.isDamagedEndOnly(bytes, root: root, ending: parsed.ending) else {
                throw TruncatedDocument(byteCount: bytes.count, rootElement: root, ending: parsed.ending)
            }
            parsed.warnings.append(
                "the document ends without a complete </\(root)>, but every item closed: read as complete")
        }
        return parsed
    }
}
