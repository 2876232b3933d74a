import Testing
@testable import PodcastKit

@Suite struct FeedLocationTests {
    func norm(_ s: String) throws(FeedLocation.Invalid) -> String {
        try FeedLocation.normalize(s, currentDirectory: "/home/u/pods", home: "/home/u")
    }

    @Test func httpURLsAreKept() throws {
        #expect(try norm("  HTTPS://Example.COM/Feed.xml?a=1&b=2 ") == "https://example.com/Feed.xml?a=1&b=2")
        #expect(try norm("http://127.0.0.1:8080/f") == "http://127.0.0.1:8080/f")
    }

    @Test func pathsBecomeFileURLs() throws {
        #expect(try norm("feed.xml") == "file:///home/u/pods/feed.xml")
        #expect(try norm("../x/./my feed.xml") == "file:///home/u/x/my%20feed.xml")
        #expect(try norm("/abs/f.rss") == "file:///abs/f.rss")
        #expect(try norm("~/f.rss") == "file:///home/u/f.rss")
        #expect(try norm("odd:name.xml") == "file:///home/u/pods/odd:name.xml")
        #expect(try norm("file:///tmp/a/../b.xml") == "file:///tmp/b.xml")
    }

    @Test func badLocationsAreRefused() {
        #expect(throws: FeedLocation.Invalid(input: "ftp://h/f", reason: "unsupported URL scheme 'ftp' (use http, https, file or a path)")) {
            try norm("ftp://h/f")
        }
        #expect(throws: FeedLocation.Invalid.self) { try norm("http:///nohost") }
        #expect(throws: FeedLocation.Invalid.self) { try norm("   ") }
    }

    @Test func stateDirectoryFollowsXDG() {
        #expect(StateLocation.defaultDirectory(environment: ["XDG_STATE_HOME": "/x/state/", "HOME": "/h"]) == "/x/state/podcast-watch")
        #expect(StateLocation.defaultDirectory(environment: ["XDG_STATE_HOME": "relative", "HOME": "/h"]) == "/h/.local/state/podcast-watch")
        #expect(StateLocation.defaultDirectory(environment: ["HOME": "/h"]) == "/h/.local/state/podcast-watch")
        #expect(StateLocation.defaultDirectory(environment: [:]) == nil)
        #expect(StateLocation.resolve("s", environment: [:], currentDirectory: "/w") == "/w/s")
        #expect(StateLocation.resolve("/abs", environment: [:], currentDirectory: "/w") == "/abs")
    }
}
