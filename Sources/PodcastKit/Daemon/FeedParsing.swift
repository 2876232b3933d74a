import Foundation

/// The daemon's glue between a fetch and the parser.
public enum FeedParsing {
    /// Parses a 2xx response with `FeedParser`: relative URLs resolve against the URL the body
    /// came from (after redirects), and the HTTP `Content-Type` charset is a hint for the
    /// encoding. Throws `FeedParseError` when the body is not a feed at all.
    public static func parse(_ response: FetchResponse) throws -> ParsedFeed {
        try FeedParser.parse(bytes: [UInt8](response.body), baseURL: response.effectiveURL, httpContentType: response.contentType)
    }
}
