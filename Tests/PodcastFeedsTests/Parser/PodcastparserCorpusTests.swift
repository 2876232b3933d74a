import Foundation
import PodcastTestSupport
import Testing

@testable import PodcastFeeds

/// Acceptance against gPodder's podcastparser test suite (`../shared/corpus/podcastparser/`): each
/// `X.rss` is parsed with the base URL `file://tests/data/X.rss` and mapped to podcastparser's
/// result shape, then compared key by key with `X.json`.
///
/// podcastparser's *presentation* conventions live in `PodcastparserView` below, not in the
/// parser: newest-first sorting, `max_episodes`, guid derivation (link, else the single enclosure
/// URL), title fallback from the enclosure file name, dropping items with no identity, resolving a
/// permalink guid against the base and copying it into an empty link, and the `-1` /
/// `application/octet-stream` / `""` / `0` "unknown" markers.
///
/// Where our parser differs on purpose, the difference is listed in `deliberateDifferences`
/// (the one table), with the reason. A listed difference that no longer occurs fails the test
/// too, so the table stays true.
@Suite(.enabled(if: TestData.hasCorpus, "../shared/corpus is absent (a user's clone): podcastparser corpus skipped"))
struct PodcastparserCorpusTests {
    /// (feed, key path, reason). Paths use the JSON key names.
    static let deliberateDifferences: [(file: String, path: String, reason: String)] = [
        (
            "atom_updated", "episodes[0].description",
            "Atom <summary> is a plain-text description (RFC 4287 §4.2.13); podcastparser ignores Atom summaries, we keep them"
        ),
        (
            "atom_content_encoded", "episodes[0].description",
            "Atom <summary> is the plain description; podcastparser ignores it and strips the HTML body instead"
        ),
        (
            "atom_updated", "link",
            "an Atom feed <link href> without rel/type is rel=alternate (RFC 4287 §4.2.7.2), so it is the channel link; podcastparser requires type=text/html"
        ),
        (
            "atom_content_encoded", "link",
            "same as atom_updated: untyped Atom rel=alternate link is the channel link"
        ),
    ]

    static func feedNames() -> [String] {
        guard let corpus = TestData.corpus else { return [] }
        let folder = corpus.appendingPathComponent("podcastparser")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".rss") }.map { String($0.dropLast(4)) }.sorted()
    }

    @Test func corpusHasAllFeeds() {
        #expect(Self.feedNames().count == 56)
    }

    @Test(arguments: feedNames())
    func feedMatchesPodcastparser(_ name: String) throws {
        let folder = TestData.corpus!.appendingPathComponent("podcastparser")
        let url = "file://tests/data/\(name).rss"
        let feed = try FeedParser.parse(
            bytes: TestData.bytes(folder.appendingPathComponent("\(name).rss")), baseURL: url)
        var maxEpisodes = 0
        let paramURL = folder.appendingPathComponent("\(name).param.json")
        if let data = try? Data(contentsOf: paramURL),
            let params = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        {
            maxEpisodes = (params["max_episodes"] as? Int) ?? 0
        }
        let ours = JSONValue(PodcastparserView.make(feed, url: url, maxEpisodes: maxEpisodes))
        var expectedObject = try JSONSerialization.jsonObject(
            with: Data(contentsOf: folder.appendingPathComponent("\(name).json")))
        if name == "payment" {
            // payment.json has `payment_url` twice in the episode (null, then the URL); the
            // corpus README says the later one is meant.
            var root = expectedObject as! [String: Any]
            var episodes = root["episodes"] as! [[String: Any]]
            episodes[0]["payment_url"] = "https://flattr.com/submit/episode"
            root["episodes"] = episodes
            expectedObject = root
        }
        let expected = JSONValue(expectedObject)
        let differences = JSONValue.differences(ours: ours, expected: expected)
        let allowed = Self.deliberateDifferences.filter { $0.file == name }
        for difference in differences where !allowed.contains(where: { $0.path == difference.path }) {
            Issue.record("\(name): \(difference.path): \(difference.detail)")
        }
        for entry in allowed where !differences.contains(where: { $0.path == entry.path }) {
            Issue.record("\(name): table entry \(entry.path) no longer differs; remove it")
        }
    }
}

/// Maps a `ParsedFeed` to podcastparser's dictionary shape (see the suite's comment).
enum PodcastparserView {
    static func make(_ feed: ParsedFeed, url: String, maxEpisodes: Int) -> [String: Any] {
        let c = feed.channel
        var d: [String: Any] = ["title": c.title ?? baseName(url)]
        d["link"] = c.link
        d["description"] = c.description
        d["cover_url"] = c.imageURL
        d["new_url"] = c.newFeedURL
        d["type"] = c.showType
        d["explicit"] = c.explicit
        d["language"] = c.language
        d["generator"] = c.generator
        d["itunes_author"] = c.itunesAuthor
        if c.ownerName != nil || c.ownerEmail != nil {
            var owner: [String: Any] = [:]
            owner["name"] = c.ownerName
            owner["email"] = c.ownerEmail
            d["itunes_owner"] = owner
        }
        if !c.keywords.isEmpty { d["itunes_keywords"] = c.keywords }
        if !c.categories.isEmpty { d["itunes_categories"] = c.categories }
        d["payment_url"] = c.paymentURL
        d["funding_url"] = c.fundingURL
        if c.locked { d["import_prohibited"] = true }
        d["paged_feed_first"] = c.pagedFeedFirst
        d["paged_feed_next"] = c.pagedFeedNext

        var episodes: [(published: Int64, value: [String: Any])] = []
        for e in feed.episodes {
            let permalink = e.guidIsPermaLink == true
            let resolvedGuid = e.guid.map { permalink ? URLResolver.resolve($0, against: url) : $0 }
            let link = e.link ?? (permalink ? resolvedGuid : nil) ?? ""
            guard
                let guid = resolvedGuid ?? (link.isEmpty ? nil : link)
                    ?? (Set(e.enclosures.map(\.url)).count == 1 ? e.enclosures[0].url : nil)
            else { continue }
            guard let title = e.title ?? (e.enclosures.count == 1 ? baseName(e.enclosures[0].url) : nil) else {
                continue
            }
            let published = e.published.map { Int64($0.timeIntervalSince1970) } ?? 0
            var episode: [String: Any] = [
                "guid": guid, "title": title, "link": link, "description": e.description ?? "",
                "published": published, "total_time": Int64(e.duration ?? 0),
                "payment_url": e.paymentURL as Any? ?? NSNull(),
                "enclosures": e.enclosures.map { enclosure -> [String: Any] in
                    [
                        "url": enclosure.url, "file_size": enclosure.length ?? -1,
                        "mime_type": enclosure.mimeType ?? "application/octet-stream",
                    ]
                },
            ]
            episode["description_html"] = e.descriptionHTML
            episode["subtitle"] = e.subtitle
            episode["episode_art_url"] = e.imageURL
            episode["type"] = e.episodeType
            episode["number"] = e.number
            episode["season"] = e.season
            episode["explicit"] = e.explicit
            episode["itunes_author"] = e.itunesAuthor
            if !e.chapters.isEmpty {
                episode["chapters"] = e.chapters.map { chapter -> [String: Any] in
                    var value: [String: Any] = ["start": Int64(chapter.start), "title": chapter.title]
                    value["href"] = chapter.href
                    value["image"] = chapter.image
                    return value
                }
            }
            episode["chapters_json_url"] = e.chaptersURL
            episode["transcript_url"] = e.transcripts.first?.url
            if !e.persons.isEmpty {
                episode["persons"] = e.persons.map { person -> [String: Any] in
                    [
                        "name": person.name, "role": person.role ?? "host", "group": person.group ?? "cast",
                        "href": person.href as Any? ?? NSNull(), "img": person.img as Any? ?? NSNull(),
                    ]
                }
            }
            episodes.append((published, episode))
        }
        // Newest first; ties keep document order (a stable sort).
        var sorted = episodes.enumerated().sorted { a, b in
            a.element.published != b.element.published ? a.element.published > b.element.published : a.offset < b.offset
        }.map(\.element.value)
        if maxEpisodes > 0 { sorted = Array(sorted.prefix(maxEpisodes)) }
        d["episodes"] = sorted
        return d
    }

    /// The last path component without its extension (`file://tests/data/x.rss` → `x`).
    static func baseName(_ url: String) -> String {
        let last = url.split(separator: "/").last.map(String.init) ?? url
        guard let dot = last.lastIndex(of: "."), dot != last.startIndex else { return last }
        return String(last[..<dot])
    }
}
