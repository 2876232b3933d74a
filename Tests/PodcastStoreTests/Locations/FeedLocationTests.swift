import Testing

@testable import PodcastStore

@Suite struct FeedLocationTests {
    func norm(_ s: String) throws(FeedLocation.Invalid) -> String {
        try FeedLocation.normalize(s, currentDirectory: "/home/u/pods", home: "/home/u")
    }

    @Test func httpURLsAreNormalisedConservatively() throws {
        #expect(try norm("  HTTPS://Example.COM/Feed.xml?a=1&b=2 ") == "https://example.com/Feed.xml?a=1&b=2")
        #expect(try norm("http://127.0.0.1:8080/f") == "http://127.0.0.1:8080/f")
        #expect(try norm("http://Example.com:80/Path/%7Ex?Q=A#Frag") == "http://example.com/Path/%7Ex?Q=A")
        #expect(try norm("https://example.com:443") == "https://example.com/")
        #expect(try norm("https://example.com:8443?x") == "https://example.com:8443/?x")
        #expect(try norm("http://example.com:/f") == "http://example.com/f")
        #expect(try norm("http://User:Pw@Example.com/f") == "http://User:Pw@example.com/f")
        #expect(try norm("http://[::1]:80/f") == "http://[::1]/f")
        #expect(try norm("http://[::1]:8080/f") == "http://[::1]:8080/f")
        #expect(try norm("feed://Example.com/rss") == "http://example.com/rss")
        #expect(try norm("feed:https://example.com/rss") == "https://example.com/rss")
        #expect(try norm("pcast://example.com/rss") == "http://example.com/rss")
    }

    @Test func pathsBecomeFileURLs() throws {
        #expect(try norm("feed.xml") == "file:///home/u/pods/feed.xml")
        #expect(try norm("../x/./my feed.xml") == "file:///home/u/x/my%20feed.xml")
        #expect(try norm("/abs/f.rss") == "file:///abs/f.rss")
        #expect(try norm("~/f.rss") == "file:///home/u/f.rss")
        #expect(try norm("odd:name.xml") == "file:///home/u/pods/odd:name.xml")
        #expect(try norm("file:///tmp/a/../b.xml") == "file:///tmp/b.xml")
        #expect(try norm("file:/tmp/b.xml") == "file:///tmp/b.xml")
        #expect(try norm("file://localhost/tmp/b.xml") == "file:///tmp/b.xml")
        #expect(try norm("file:///tmp/my%20feed.xml") == "file:///tmp/my%20feed.xml")
        #expect(try norm("./x.xml") == "file:///home/u/pods/x.xml")
        #expect(try norm("/home/u/pods/x.xml") == "file:///home/u/pods/x.xml")
        #expect(try norm("file:///home/u/pods/x.xml") == "file:///home/u/pods/x.xml")
    }

    @Test func badLocationsAreRefused() {
        #expect(
            throws: FeedLocation.Invalid(
                input: "ftp://h/f", reason: "unsupported URL scheme 'ftp' (use http, https, file or a path)")
        ) {
            try norm("ftp://h/f")
        }
        #expect(throws: FeedLocation.Invalid.self) { try norm("http:///nohost") }
        #expect(throws: FeedLocation.Invalid.self) { try norm("   ") }
        #expect(throws: FeedLocation.Invalid(input: "http://h:99999/f", reason: "not a valid port '99999'")) {
            try norm("http://h:99999/f")
        }
        #expect(
            throws: FeedLocation.Invalid(
                input: "http://h/a b", reason: "white space or control characters in the URL (percent-encode them: %20)"
            )
        ) { try norm("http://h/a b") }
        #expect(
            throws: FeedLocation.Invalid(
                input: "file://other/x.xml", reason: "a file:// URL on another host (other) cannot be read")
        ) { try norm("file://other/x.xml") }
        #expect(
            throws: FeedLocation.Invalid(
                input: "feed:ftp://x", reason: "'feed:' must be followed by // or an http(s) URL")
        ) { try norm("feed:ftp://x") }
    }
}
