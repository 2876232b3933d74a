import Foundation
import PodcastTestSupport
import Testing

@testable import PodcastFeeds

/// Acceptance against the facts recorded from feedparser's suite (`../shared/corpus/feedparser/`,
/// one `*.expect.json` per feed; see the corpus README). Files are read as bytes and the recorded
/// `httpContentType` is passed as the transport hint.
///
/// Mapping: `wellFormed` ↔ `isWellFormed` (a document we reject with `FeedParseError` counts as
/// not well-formed); `feedTitle` ↔ `channel.title`; an item's `description` ↔ its
/// `descriptionHTML ?? description` (feedparser keeps markup in `description`, we split it);
/// `guid` verbatim; `published` at whole seconds.
@Suite(.enabled(if: TestData.hasCorpus, "../shared/corpus is absent (a user's clone): feedparser corpus skipped"))
struct FeedparserCorpusTests {
    /// (feed path without `.xml`, key, reason): the one table of deliberate differences.
    static let deliberateDifferences: [(file: String, key: String, reason: String)] = [
        ("illformed/chardet/big5", "encoding", chardet),
        ("illformed/chardet/eucjp", "encoding", chardet),
        ("illformed/chardet/euckr", "encoding", chardet),
        ("illformed/chardet/gb2312", "encoding", chardet),
        ("illformed/chardet/shiftjis", "encoding", chardet),
        ("illformed/chardet/tis620", "encoding", chardet),
        ("illformed/chardet/windows1255", "encoding", chardet),
    ]
    static let chardet =
        "no statistical charset guessing: undeclared bytes that are not UTF-8 are read as windows-1252 and flagged not well-formed (the corpus marks this key advisory)"

    static func feedPaths() -> [String] {
        guard let corpus = TestData.corpus else { return [] }
        let folder = corpus.appendingPathComponent("feedparser")
        let enumerator = FileManager.default.enumerator(atPath: folder.path)
        var paths: [String] = []
        while let path = enumerator?.nextObject() as? String {
            if path.hasSuffix(".xml") { paths.append(String(path.dropLast(4))) }
        }
        return paths.sorted()
    }

    @Test func corpusHasAllFeeds() {
        #expect(Self.feedPaths().count == 60)
    }

    @Test(arguments: feedPaths())
    func feedMatchesRecordedFacts(_ path: String) throws {
        let folder = TestData.corpus!.appendingPathComponent("feedparser")
        let expect =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: folder.appendingPathComponent("\(path).expect.json"))) as! [String: Any]
        let bytes = try TestData.bytes(folder.appendingPathComponent("\(path).xml"))
        var mismatches: [(key: String, detail: String)] = []

        let feed: ParsedFeed?
        do {
            feed = try FeedParser.parse(
                bytes: bytes, baseURL: nil, httpContentType: expect["httpContentType"] as? String)
        } catch {
            feed = nil
            // Rejecting is only right for a document that is not well-formed and claims nothing else.
            let claims = Set(expect.keys).subtracting(["source", "wellFormed"])
            if expect["wellFormed"] as? Bool != false || !claims.isEmpty {
                mismatches.append(("parse", "threw \(error)"))
            }
        }
        if let feed {
            if let wellFormed = expect["wellFormed"] as? Bool, wellFormed != feed.isWellFormed {
                mismatches.append(
                    ("wellFormed", "ours=\(feed.isWellFormed) expected=\(wellFormed) warnings=\(feed.warnings)"))
            }
            if let encoding = expect["encoding"] as? String, encoding.lowercased() != feed.encoding?.lowercased() {
                mismatches.append(("encoding", "ours=\(feed.encoding ?? "nil") expected=\(encoding)"))
            }
            if let title = expect["feedTitle"] as? String, title != feed.channel.title {
                mismatches.append(("feedTitle", "ours=\(feed.channel.title ?? "nil") expected=\(title)"))
            }
            for item in expect["items"] as? [[String: Any]] ?? [] {
                let index = item["index"] as! Int
                guard index < feed.episodes.count else {
                    mismatches.append(("items[\(index)]", "missing; we have \(feed.episodes.count) items"))
                    continue
                }
                mismatches += Self.compare(item, feed.episodes[index], index: index)
            }
        }
        let allowed = Self.deliberateDifferences.filter { $0.file == path }
        for mismatch in mismatches where !allowed.contains(where: { $0.key == mismatch.key }) {
            Issue.record("\(path): \(mismatch.key): \(mismatch.detail)")
        }
        for entry in allowed where !mismatches.contains(where: { $0.key == entry.key }) {
            Issue.record("\(path): table entry \(entry.key) no longer differs; remove it")
        }
    }

    static func compare(_ item: [String: Any], _ episode: Episode, index: Int) -> [(key: String, detail: String)] {
        var out: [(String, String)] = []
        let prefix = "items[\(index)]."
        func check(_ key: String, _ ours: String?) {
            guard item.keys.contains(key) else { return }
            let expected = item[key] as? String  // NSNull → nil: "must have none"
            if ours != expected { out.append((prefix + key, "ours=\(ours ?? "nil") expected=\(expected ?? "nil")")) }
        }
        check("title", episode.title)
        check("guid", episode.guid)
        check("link", episode.link)
        check("description", episode.descriptionHTML ?? episode.description)
        if let published = item["published"] as? String {
            let expected = DateParser.parse(published).map { Int64($0.timeIntervalSince1970) }
            let ours = episode.published.map { Int64($0.timeIntervalSince1970) }
            if expected == nil || ours != expected {
                out.append((prefix + "published", "ours=\(String(describing: ours)) expected=\(published)"))
            }
        }
        if let enclosures = item["enclosures"] as? [[String: Any]] {
            for (position, enclosure) in enclosures.enumerated() {
                guard position < episode.enclosures.count else {
                    out.append((prefix + "enclosures[\(position)]", "missing"))
                    continue
                }
                let ours = episode.enclosures[position]
                if let url = enclosure["url"] as? String, url != ours.url {
                    out.append((prefix + "enclosures[\(position)].url", "ours=\(ours.url) expected=\(url)"))
                }
                if let length = enclosure["length"] as? Int, Int64(length) != ours.length {
                    out.append(
                        (
                            prefix + "enclosures[\(position)].length",
                            "ours=\(String(describing: ours.length)) expected=\(length)"
                        ))
                }
                if let type = enclosure["type"] as? String, type != ours.mimeType {
                    out.append(
                        (prefix + "enclosures[\(position)].type", "ours=\(ours.mimeType ?? "nil") expected=\(type)"))
                }
            }
        }
        return out
    }
}
