import CLibxml2
import Foundation

/// Collects feed outlines from OPML SAX events, flattening nested folders, in document order,
/// repeats included (the importer counts them after normalising the URLs).
final class OPMLOutlineCollector: XMLReaderHandler {
    private(set) var sawRoot = false
    private(set) var rejectedRoot: String?
    private(set) var outlines: [OPMLOutline] = []
    /// The outline whose start tag the end of the document cut off (its index in `outlines`):
    /// libxml2's recovery reports it with what it read, including an attribute value cut short.
    private(set) var outlineAtEnd: Int?
    private var depth = 0

    override func startElement(_ element: XMLStartElement) {
        depth += 1
        let name = String(cString: element.localname)
        if depth == 1 {
            if name.lowercased() == "opml" {
                sawRoot = true
            } else {
                rejectedRoot = name
                stopParsing()
            }
            return
        }
        guard name.lowercased() == "outline" else { return }
        // A complete start tag leaves libxml2 at its `>` or `/>` when it reports it; the end of
        // the input there (the NUL after the last byte read) means the tag was cut.
        let atEnd = parserContext?.pointee.input?.pointee.cur?.pointee == 0
        let raw =
            Self.nonBlank(element.attribute("xmlUrl")) ?? Self.nonBlank(element.attribute("xmlURL"))
            ?? Self.nonBlank(element.attribute("url"))
        guard let url = raw?.trimmedASCII else { return }
        var title = (Self.nonBlank(element.attribute("title")) ?? Self.nonBlank(element.attribute("text")))
            .map { HTMLText.squash($0, keepNewlines: false) }
        // `text` is required by OPML, so a feed without a name is exported with its URL there:
        // that is no title, and must not become one that masks the channel's own.
        if title?.trimmedASCII == url { title = nil }
        // Our extension attribute, under any prefix bound to our namespace (`pw:` when we wrote it).
        // A value that is not a positive whole number is kept, so the importer can say so.
        let rawInterval = element.attribute("interval", namespace: OPML.namespace)
        let interval = rawInterval.flatMap { Int($0.trimmedASCII) }.flatMap { $0 > 0 ? $0 : nil }
        let download = element.attribute("download", namespace: OPML.namespace).flatMap { value -> Bool? in
            switch value.trimmedASCII.lowercased() {
            case "true", "1", "yes": return true
            case "false", "0", "no": return false
            default: return nil
            }
        }
        let keep = element.attribute("keep", namespace: OPML.namespace).flatMap { Int($0.trimmedASCII) }.flatMap {
            (1...100_000).contains($0) ? $0 : nil
        }
        let line = parserContext.map { Int(xmlSAX2GetLineNumber(UnsafeMutableRawPointer($0))) }
        if atEnd { outlineAtEnd = outlines.count }
        outlines.append(
            OPMLOutline(
                url: url, title: title, interval: interval, rejectedInterval: interval == nil ? rawInterval : nil,
                download: download, keep: keep, line: line))
    }

    override func endElement() {
        depth -= 1
    }

    private static func nonBlank(_ value: String?) -> String? {
        guard let value, !value.trimmedASCII.isEmpty else { return nil }
        return value
    }
}
