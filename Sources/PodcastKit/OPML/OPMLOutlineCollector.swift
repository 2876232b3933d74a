import Foundation

/// Collects feed outlines from OPML SAX events, flattening nested folders, in document order,
/// first occurrence of a URL kept.
final class OPMLOutlineCollector: XMLReaderHandler {
    private(set) var sawRoot = false
    private(set) var rejectedRoot: String?
    private(set) var outlines: [OPMLOutline] = []
    private var seen = Set<String>()
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
        let raw = Self.nonBlank(element.attribute("xmlUrl")) ?? Self.nonBlank(element.attribute("xmlURL"))
            ?? Self.nonBlank(element.attribute("url"))
        guard let url = raw?.trimmedASCII, seen.insert(url).inserted else { return }
        let title = Self.nonBlank(element.attribute("title")) ?? Self.nonBlank(element.attribute("text"))
        outlines.append(OPMLOutline(url: url, title: title.map { HTMLText.squash($0, keepNewlines: false) }))
    }

    override func endElement() {
        depth -= 1
    }

    private static func nonBlank(_ value: String?) -> String? {
        guard let value, !value.trimmedASCII.isEmpty else { return nil }
        return value
    }
}
