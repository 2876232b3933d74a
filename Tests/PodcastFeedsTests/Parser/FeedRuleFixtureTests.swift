import Foundation
import PodcastTestSupport
import Testing

@testable import PodcastFeeds

/// Every feed fixture paired with the parse it must give, as JSON: `RuleFixtures/Feeds/` holds one
/// feed per namespace (each rule of `FeedRules` once, in its context), `Fixtures/` the edge cases
/// of encodings, entities and broken documents. The expected files live in
/// `RuleFixtures/Expected/`; `PODCASTFEEDS_RECORD_FIXTURES=1` rewrites them (then read the diff).
@Suite struct FeedRuleFixtureTests {
    static let base = "https://feeds.example.com/dir/feed.xml"

    /// The parse as the expected files hold it: every field of the model, keys sorted.
    struct Snapshot: Encodable {
        var format: ParsedFeed.Format?
        var isWellFormed: Bool?
        var encoding: String?
        var repairedEncoding: Bool?
        var warnings: [String]?
        var channel: Channel?
        var episodes: [Episode]?
        var error: String?

        init(_ result: Result<ParsedFeed, FeedParseError>) {
            switch result {
            case .success(let feed):
                format = feed.format
                isWellFormed = feed.isWellFormed
                encoding = feed.encoding
                repairedEncoding = feed.repairedEncoding
                warnings = feed.warnings
                channel = feed.channel
                episodes = feed.episodes
            case .failure(let failure):
                error = "\(failure)"
            }
        }
    }

    /// This test target's folder (no SwiftPM resources: found from this file's path).
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    /// One feed per namespace.
    static let ruleFeeds = folder.appendingPathComponent("RuleFixtures/Feeds")

    /// The fixtures paired with an expected parse: `Rules/NAME` for the rule feeds, the other
    /// fixtures by name (every one but the OPML files).
    static let fixtures: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: TestData.fixtures.path)) ?? []
        let rules = (try? FileManager.default.contentsOfDirectory(atPath: ruleFeeds.path)) ?? []
        return (names.filter { !$0.hasSuffix(".opml") } + rules.map { "Rules/" + $0 }).sorted()
    }()

    static func json(_ name: String) throws -> String {
        let bytes =
            name.hasPrefix("Rules/")
            ? [UInt8](try Data(contentsOf: ruleFeeds.appendingPathComponent(String(name.dropFirst(6)))))
            : try TestData.fixture(name)
        let result = Result { () throws(FeedParseError) in
            try FeedParser.parse(bytes: bytes, baseURL: base, httpContentType: nil)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .secondsSince1970
        return String(decoding: try encoder.encode(Snapshot(result)), as: UTF8.self) + "\n"
    }

    static func expectedURL(_ name: String) -> URL {
        folder.appendingPathComponent("RuleFixtures/Expected")
            .appendingPathComponent(name.replacingOccurrences(of: "/", with: "-") + ".json")
    }

    @Test func everyNamespaceHasItsRuleFixture() {
        #expect(
            Self.fixtures.filter { $0.hasPrefix("Rules/") } == [
                "Rules/atom.xml", "Rules/atom03.xml", "Rules/content.rss", "Rules/dublin-core.rss",
                "Rules/googleplay.rss", "Rules/itunes.rss", "Rules/media.rss", "Rules/podcast-namespace.rss",
                "Rules/podlove-chapters.rss", "Rules/rdf.rdf", "Rules/redirect.xml", "Rules/rss.rss",
            ])
    }

    @Test(arguments: fixtures)
    func fixtureParsesAsItsExpectedJSON(_ name: String) throws {
        let actual = try Self.json(name)
        let url = Self.expectedURL(name)
        if ProcessInfo.processInfo.environment["PODCASTFEEDS_RECORD_FIXTURES"] == "1" {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(actual.utf8).write(to: url)
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        #expect(actual == expected)
    }
}
