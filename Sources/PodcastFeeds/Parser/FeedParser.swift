import Foundation

/// Parses podcast feeds (RSS 0.9x/2.0, RSS 1.0/RDF, Atom 1.0/0.3, with the iTunes, `podcast:`,
/// Media RSS, `content:`, Dublin Core, Podlove Simple Chapters and Google Play vocabularies) with
/// libxml2's SAX2 parser in recover mode.
///
/// Pipeline: encoding (`DocumentDecoder`: BOM, XML declaration, HTTP charset, Latin-1-over-UTF-8, per-run repair of mixed encodings),
/// entity repair (`EntityRepair`: HTML named entities, unknown entities and bare `&` kept), then
/// libxml2 with `XML_PARSE_RECOVER | XML_PARSE_NONET` and no entity substitution or DTD loading:
/// nothing is ever fetched and no declared entity is expanded. Well-known prefixes (`itunes`,
/// `podcast`, `media`, `content`, `dc`, `atom`, `psc`, `googleplay`) work even when undeclared.
///
/// The result is a plain value. Stateless and thread-safe: call it from any thread, concurrently.
public enum FeedParser {
    /// Parses a feed document.
    ///
    /// - Parameters:
    ///   - bytes: the document exactly as received (any encoding).
    ///   - baseURL: the document's URL; relative references resolve against it (and `xml:base`).
    ///     `nil` leaves relative references as written.
    ///   - httpContentType: the HTTP `Content-Type` header value; its `charset` is used when the
    ///     document has no BOM and no XML declaration encoding.
    ///   - httpContentLanguage: the HTTP `Content-Language` header value; its first language tag
    ///     is the channel's language when the document names none (`<language>`, `xml:lang`).
    /// - Returns: the feed; `isWellFormed == false` and `warnings` when libxml2 had to recover.
    /// - Throws: `FeedParseError` for an empty document, a root element that is not a feed, or
    ///   no recoverable root element; `.stopped` when `ParseCancellation.current` was cancelled
    ///   during the parse; `.refused` when the decoded document's start tags would cost libxml2
    ///   time out of proportion (`StartTagLimit`: checked before libxml2 sees a byte).
    public static func parse(
        bytes: [UInt8], baseURL: String?, httpContentType: String? = nil, httpContentLanguage: String? = nil
    ) throws(FeedParseError) -> ParsedFeed {
        let decoded = DocumentDecoder(bytes: bytes, httpContentType: httpContentType)
        var repair = EntityRepair()
        let document = repair.repair(decoded.utf8) ?? decoded.utf8
        if document.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            throw .emptyDocument
        }
        let builder = FeedBuilder(documentURL: baseURL)
        let outcome = XMLReader.parse(document, handler: builder)
        if let refused = outcome.refused { throw .refused(refused) }
        if outcome.stopped { throw .stopped }
        if let root = builder.rejectedRoot { throw .notAFeed(rootElement: root) }
        guard let format = builder.format else {
            if XMLReader.hasOnlyProlog(document) { throw .emptyDocument }
            throw .unreadable(details: outcome.messages)
        }

        var warnings = decoded.warnings
        if repair.htmlEntities > 0 {
            warnings.append(
                "decoded \(repair.htmlEntities) HTML named entit\(repair.htmlEntities == 1 ? "y" : "ies") that XML does not define"
            )
        }
        if !repair.unknownEntities.isEmpty {
            let list = repair.unknownEntities.map { "&\($0);" }.joined(separator: ", ")
            warnings.append("kept unknown entities literally: \(list)")
        }
        if repair.bareAmpersands > 0 {
            warnings.append("kept \(repair.bareAmpersands) bare '&' literally (should be &amp;)")
        }
        warnings += outcome.messages
        let mapped = builder.names.undeclaredPrefixes.filter { FeedNamespace.from(undeclaredPrefix: $0) != .other }
        if !mapped.isEmpty {
            warnings.append(
                "undeclared namespace prefixes read by their usual meaning: \(mapped.joined(separator: ", "))")
        }
        // The Content-Language fallback is applied inside the builder: mutating the channel here
        // would copy it (and retain each of its strings) once more per document.
        let (channel, episodes) = builder.result(httpContentLanguage: httpContentLanguage)
        warnings += builder.warnings

        // HTML entities are declared by the DTDs of RSS 0.91-era feeds, so with a DOCTYPE they
        // are not a well-formedness error; unknown entities and bare `&` always are.
        let repairBroke =
            repair.bareAmpersands > 0 || !repair.unknownEntities.isEmpty
            || (repair.htmlEntities > 0 && !repair.sawDoctype)
        var feed = ParsedFeed(
            format: format, channel: channel, episodes: episodes, warnings: warnings,
            isWellFormed: decoded.wellFormed && outcome.wellFormed && !repairBroke, encoding: decoded.encoding,
            repairedEncoding: decoded.repairedEncoding)
        if !outcome.wellFormed {
            feed.ending =
                builder.unclosedItem.map { .insideItem($0) }
                ?? .afterItems(count: builder.itemCount, channelClosed: builder.channelClosed)
        }
        return feed
    }

    /// Parses a feed document held in `Data`; see `parse(bytes:baseURL:httpContentType:)`.
    /// `url` is the document's URL (its `absoluteString` is the base for relative references).
    public static func parse(
        data: Data, url: URL?, httpContentType: String? = nil, httpContentLanguage: String? = nil
    ) throws(FeedParseError) -> ParsedFeed {
        try parse(
            bytes: [UInt8](data), baseURL: url?.absoluteString, httpContentType: httpContentType,
            httpContentLanguage: httpContentLanguage)
    }
}
