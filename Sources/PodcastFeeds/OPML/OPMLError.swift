import Foundation

/// Why an OPML document could not be imported.
public enum OPMLError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// No bytes, or only whitespace/comments.
    case emptyDocument
    /// The root element is not `<opml>`; carries the name found.
    case notOPML(rootElement: String)
    /// The XML is broken. `details` are libxml2's messages (with line numbers); `recovered` is
    /// what could still be read, so a caller may offer a partial import.
    case malformed(details: [String], recovered: [OPMLOutline])
    /// The document was not parsed: its start tags would cost libxml2 time out of proportion to
    /// its size (`StartTagLimit`, measured on the decoded text).
    case refused(DocumentRefused)

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .emptyDocument:
            return "empty OPML document: no <opml> element"
        case .notOPML(let root):
            return "not an OPML file: the root element is <\(root)>, expected <opml>"
        case .malformed(let details, let recovered):
            return "broken OPML file (\(recovered.count) outline(s) recoverable)"
                + (details.first.map { ": \($0)" } ?? "")
        case .refused(let refusal):
            return "OPML file \(refusal)"
        }
    }

    /// Same as `description`, for Foundation error reporting.
    public var errorDescription: String? { description }
}
