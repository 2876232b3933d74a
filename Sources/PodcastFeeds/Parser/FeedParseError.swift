import Foundation

/// Why a document could not be read as a feed at all. A document that is a feed but malformed is
/// not an error: it parses with `ParsedFeed.isWellFormed == false` and warnings.
public enum FeedParseError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// The document has no bytes, or only whitespace, comments and processing instructions.
    case emptyDocument
    /// The root element is not `rss`, `rdf:RDF` or `feed` (for example an HTML page).
    case notAFeed(rootElement: String)
    /// No root element could be recovered; `details` holds libxml2's first messages.
    case unreadable(details: [String])
    /// The parse was stopped through `ParseCancellation` (its budget ran out) before the end.
    case stopped
    /// The document was not parsed: its start tags would cost libxml2 time out of proportion to
    /// its size (`StartTagLimit`, measured on the decoded text).
    case refused(DocumentRefused)

    /// A one-line explanation naming what was found.
    public var description: String {
        switch self {
        case .emptyDocument:
            return "empty document: no feed element (expected <rss>, <rdf:RDF> or <feed>)"
        case .notAFeed(let root):
            return "not a feed: the root element is <\(root)>, expected <rss>, <rdf:RDF> or <feed>"
        case .unreadable(let details):
            return "not readable as XML" + (details.first.map { ": \($0)" } ?? "")
        case .stopped:
            return "parse stopped before the end of the document"
        case .refused(let refusal):
            return refusal.description
        }
    }

    /// Same as `description`, for Foundation error reporting.
    public var errorDescription: String? { description }
}
