import Foundation
import Testing

@testable import PodcastEngine

/// The daemon's parse of a fetched response hands the parser the HTTP
/// `Content-Language`, which names the language of a feed that states none (and only then).
struct ResponseLanguageTests {
    static func response(_ xml: String, language: String?) -> FetchResponse {
        var headers = ["content-type": "application/rss+xml"]
        if let language { headers["content-language"] = language }
        return FetchResponse(
            status: 200, headers: headers, body: Data(xml.utf8), requestedURL: "http://127.0.0.1/f.xml",
            effectiveURL: "http://127.0.0.1/f.xml")
    }

    @Test func contentLanguageNamesTheLanguageOfAFeedThatStatesNone() throws {
        let xml = "<rss version=\"2.0\"><channel><title>T</title><item><guid>1</guid></item></channel></rss>"
        #expect(try FeedParsing.parse(Self.response(xml, language: "de-AT, en")).channel.language == "de-AT")
        #expect(try FeedParsing.parse(Self.response(xml, language: nil)).channel.language == nil)
    }

    @Test func theFeedsOwnLanguageWins() throws {
        let xml = "<rss version=\"2.0\"><channel><title>T</title><language>fr</language></channel></rss>"
        #expect(try FeedParsing.parse(Self.response(xml, language: "de")).channel.language == "fr")
    }
}
