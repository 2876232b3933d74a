import Foundation
import PodcastDaemonTestSupport
import Testing

@testable import PodcastCommandLine
@testable import PodcastEngine
@testable import PodcastFeeds

/// `show --json` carries every field the parser exposes: checked end to end, from a
/// document through `FeedParser` to the exact JSON.
@Suite struct FeedReportParserFieldsTests {
    // Declares ISO-8859-1 but is UTF-8 with one stray Latin-1 byte (0xE9): repaired per run.
    private static let document: [UInt8] =
        Array(
            """
            <?xml version="1.0" encoding="ISO-8859-1"?>
            <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"
                 xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:atom="http://www.w3.org/2005/Atom">
            <channel>
              <title>Brøndby Talk</title>
              <itunes:subtitle>Football, weekly</itunes:subtitle>
              <managingEditor>ed@example.com (Eddie Editor)</managingEditor>
              <item>
                <guid isPermaLink="false">ep-1</guid>
                <title>Caf
            """.utf8) + [0xE9]
        + Array(
            """
             chat</title>
                <dc:creator>Dana Creator</dc:creator>
                <description><![CDATA[<p onclick="x()">Hi <a href="javascript:alert(1)">there</a></p>]]></description>
                <atom:link rel="payment" href="https://example.com/tip"/>
              </item>
              <item>
                <title>Second</title>
                <itunes:author>Ivy Itunes</itunes:author>
              </item>
            </channel>
            </rss>
            """.utf8)

    private let response = FetchResponse(
        status: 200,
        headers: ["content-type": "application/rss+xml", "content-language": "da-DK, en"],
        requestedURL: "http://example.com/feed", effectiveURL: "http://example.com/feed")

    private func report() throws -> String {
        let parsed = try FeedParser.parse(
            bytes: Self.document, baseURL: "http://example.com/feed", httpContentType: response.contentType,
            httpContentLanguage: response.contentLanguage)
        return FeedReport.json(parsed, response: response).serialized
    }

    @Test func topLevelHasContentLanguageAndRepairedEncoding() throws {
        let json = try report()
        #expect(
            json.hasPrefix(
                #"{"url":"http://example.com/feed","final_url":"http://example.com/feed","http_status":200,"content_type":"application/rss+xml","content_language":"da-DK, en","etag":null,"last_modified":null,"moved_to":null,"format":"rss","encoding":"UTF-8","repaired_encoding":true,"well_formed":true,"warnings":["mixed encodings (labelled ISO-8859-1): read the UTF-8 runs as UTF-8 and 1 stray byte as windows-1252"],"#
            ))
    }

    @Test func channelHasSubtitleLanguageAndBothAuthors() throws {
        let json = try report()
        #expect(
            json.contains(
                #""channel":{"title":"Brøndby Talk","link":null,"description":null,"subtitle":"Football, weekly","image_url":null,"language":"da-DK","generator":null,"author":"Eddie Editor","itunes_author":null,"owner_name":null,"#
            ))
    }

    @Test func episodesHaveTheirAuthorsPaymentGuidKindAndSanitisedHTML() throws {
        let json = try report()
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let episodes = try #require(object["episodes"] as? [[String: Any]])
        #expect(episodes.count == 2)
        #expect(episodes[0]["title"] as? String == "Café chat")
        #expect(episodes[0]["guid_is_permalink"] as? Bool == false)
        #expect(episodes[0]["author"] as? String == "Dana Creator")
        #expect(episodes[0]["itunes_author"] is NSNull)
        #expect(episodes[0]["payment_url"] as? String == "https://example.com/tip")
        #expect(
            episodes[0]["description_html"] as? String
                == #"<p onclick="x()">Hi <a href="javascript:alert(1)">there</a></p>"#)
        #expect(
            episodes[0]["description_html_sanitized"] as? String
                == #"<p>Hi <a rel="nofollow noopener noreferrer">there</a></p>"#)
        #expect(episodes[1]["guid_is_permalink"] is NSNull)
        #expect(episodes[1]["author"] as? String == "Ivy Itunes")
        #expect(episodes[1]["itunes_author"] as? String == "Ivy Itunes")
        #expect(episodes[1]["payment_url"] is NSNull)
        #expect(episodes[1]["description_html_sanitized"] is NSNull)
        // The order of the new keys among the old ones.
        #expect(
            json.contains(
                #""guid":"ep-1","guid_is_permalink":false,"title":"Café chat","#))
        #expect(
            json.contains(
                #""author":"Dana Creator","itunes_author":null,"payment_url":"https://example.com/tip","primary_enclosure":null,"#
            ))
    }

    @Test func textShowsTheNewFields() throws {
        let parsed = try FeedParser.parse(
            bytes: Self.document, baseURL: "http://example.com/feed", httpContentType: response.contentType,
            httpContentLanguage: response.contentLanguage)
        let text = FeedReport.text(parsed, response: response)
        #expect(text.contains("content language: da-DK, en\n"))
        #expect(text.contains("format: rss, UTF-8, mixed encodings repaired\n"))
        #expect(
            text.contains("title: Brøndby Talk\nsubtitle: Football, weekly\nlanguage: da-DK\nauthor: Eddie Editor\n"))
        #expect(text.contains("author: Dana Creator\n"))
        #expect(text.contains("payment: https://example.com/tip\n"))
        #expect(!text.contains("itunes author"))  // shown only where it differs from "author"
    }
}
