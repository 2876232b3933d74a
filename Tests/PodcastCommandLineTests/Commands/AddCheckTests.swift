import Foundation
import PodcastTestSupport
import Testing

@testable import PodcastCommandLine
@testable import PodcastFeeds

/// `add` fetches the URL once before it subscribes: a feed is stored with its title, an HTTP
/// error or a document that is no feed is refused with status 8, a web page's one feed link is
/// followed and several are listed; `--no-check` fetches nothing. Against a loopback server.
@Suite struct AddCheckTests {
    let state = temporaryDirectory()
    let server: TestHTTPServer

    init() throws {
        server = try TestHTTPServer()
    }

    func run(_ args: String...) -> (ExitCode, String, String) { runCommand(state: state, args) }

    static func feed(title: String) -> String {
        "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>\(title)</title><item><guid>g1</guid><title>One</title></item></channel></rss>"
    }

    static func page(_ head: String) -> String {
        "<!DOCTYPE html><html><head><title>A site</title>\(head)</head><body><p>Hello</p></body></html>"
    }

    /// The `list --json` lines' url and title.
    func listed() -> [String] {
        let (code, out, _) = run("list", "--json")
        #expect(code == .success)
        return out.split(separator: "\n").map { line in
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return "\(object?["url"] as? String ?? "?") \(object?["title"] as? String ?? "nil")"
        }
    }

    @Test func aFeedIsSubscribedWithItsTitleBeforeTheFirstPoll() {
        defer { server.stop() }
        server.route("/feed.xml", .ok(Self.feed(title: "Tidepool Radio")))
        let url = server.url("/feed.xml")
        #expect(
            run("add", url) == (.success, "Subscribed to Tidepool Radio <\(url)> (feed #1, default interval)\n", ""))
        #expect(server.requestCount("/feed.xml") == 1)
        #expect(listed() == ["\(url) Tidepool Radio"])
        // The user's --title is what lists show; the channel's is kept beside it.
        server.route("/other.xml", .ok(Self.feed(title: "Other")))
        let other = server.url("/other.xml")
        #expect(run("add", other, "--title", "Mine").1 == "Subscribed to Mine <\(other)> (feed #2, default interval)\n")
    }

    @Test func anHTTPErrorIsRefusedWithStatus8AndNothingIsStored() {
        defer { server.stop() }
        let url = server.url("/missing.xml")
        #expect(
            run("add", url) == (
                .notAFeed, "",
                "podcast-watch: not subscribed: cannot fetch \(url): HTTP 404 Not Found ('add --no-check' subscribes without fetching)\n"
            ))
        server.route("/broken.xml", .status(500, "boom"))
        #expect(run("add", server.url("/broken.xml")).0 == .notAFeed)
        #expect(listed() == [])
    }

    @Test func aPageWithoutFeedLinksIsRefused() {
        defer { server.stop() }
        server.route("/", .ok(Self.page("<link rel=\"stylesheet\" href=\"s.css\">"), contentType: "text/html"))
        let url = server.url("/")
        let (code, out, err) = run("add", url)
        #expect(code == .notAFeed)
        #expect(out == "")
        #expect(err.hasPrefix("podcast-watch: not subscribed: \(url) is not a feed, and links to none: "), "\(err)")
        #expect(listed() == [])
    }

    @Test func aPageWithOneFeedLinkSubscribesToThatFeed() {
        defer { server.stop() }
        // A relative href resolves against the page's URL; other links do not count.
        server.route(
            "/blog/",
            .ok(
                Self.page(
                    "<link rel=\"alternate\" type=\"text/html\" href=\"/en/\"><link rel=\"icon\" href=\"f.ico\"><LINK REL=\"Alternate\" TYPE=\"application/rss+xml; charset=utf-8\" TITLE=\"Posts\" HREF=\"feed.xml\">"
                ), contentType: "text/html"))
        server.route("/blog/feed.xml", .ok(Self.feed(title: "The Blog")))
        let page = server.url("/blog/")
        let feed = server.url("/blog/feed.xml")
        #expect(
            run("add", page) == (
                .success,
                "Found the feed \(feed) on the page \(page)\nSubscribed to The Blog <\(feed)> (feed #1, default interval)\n",
                ""
            ))
        #expect(listed() == ["\(feed) The Blog"])
        #expect(server.requests.map(\.uri) == ["/blog/", "/blog/feed.xml"])
    }

    @Test func aPageWithTwoFeedLinksListsThemAndSubscribesToNone() {
        defer { server.stop() }
        server.route(
            "/",
            .ok(
                Self.page(
                    "<link rel=\"alternate\" type=\"application/rss+xml\" title=\"Episodes (MP3)\" href=\"/mp3.xml\"><link rel=\"alternate\" type=\"application/atom+xml\" href=\"https://cdn.example/atom.xml\">"
                ), contentType: "text/html"))
        let url = server.url("/")
        #expect(
            run("add", url) == (
                .notAFeed, "",
                """
                podcast-watch: \(url) is a page that links 2 feeds; add one of them:
                  Episodes (MP3)
                    \(server.url("/mp3.xml"))
                  (no title)
                    https://cdn.example/atom.xml

                """
            ))
        #expect(server.requests.map(\.uri) == ["/"])  // neither feed fetched
        #expect(listed() == [])
    }

    @Test func noCheckSubscribesWithoutFetching() {
        defer { server.stop() }
        let url = server.url("/not-yet.xml")
        #expect(run("add", url, "--no-check") == (.success, "Subscribed to \(url) (feed #1, default interval)\n", ""))
        #expect(server.requests.isEmpty)
        #expect(listed() == ["\(url) nil"])
    }

    @Test func hostileTitlesAreNeutralisedOnTheTerminal() {
        defer { server.stop() }
        // An HTML-typed title whose `&amp;#27;` decodes to ESC (the parser keeps it, as feeds
        // mean it), and a bidi override that reorders what follows.
        let atom =
            "<?xml version=\"1.0\"?><feed xmlns=\"http://www.w3.org/2005/Atom\"><title type=\"html\">Evil&amp;#27;]0;owned&amp;#7; Show&#x202E;txt.exe</title></feed>"
        server.route("/evil.xml", .ok(atom, contentType: "application/atom+xml"))
        let url = server.url("/evil.xml")
        let (code, out, _) = run("add", url)
        #expect(code == .success)
        #expect(out == "Subscribed to Evil␛]0;owned␇ Show\u{FFFD}txt.exe <\(url)> (feed #1, default interval)\n")
        #expect(!out.unicodeScalars.contains { TerminalText.isUnsafe($0) && $0 != "\n" })
        // A page's link titles too.
        server.route(
            "/",
            .ok(
                Self.page(
                    "<link rel=alternate type=application/rss+xml title=\"A\u{9B}2J\" href=/a.xml><link rel=alternate type=application/rss+xml title=\"B\u{202E}C\" href=/b.xml>"
                ), contentType: "text/html; charset=utf-8"))
        let listedPage = run("add", server.url("/"))
        #expect(listedPage.0 == .notAFeed)
        #expect(
            listedPage.2.contains("  A\u{FFFD}2J\n") && listedPage.2.contains("  B\u{FFFD}C\n"), "\(listedPage.2)")
        #expect(!listedPage.2.unicodeScalars.contains { TerminalText.isUnsafe($0) && $0 != "\n" })
    }
}
