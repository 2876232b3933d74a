import Testing

@testable import PodcastStore

/// `FetchTarget` reads an http(s) URL without Foundation on its fast path; the slow path
/// (leading whitespace, files, other schemes) must give the same answers as before.
@Suite struct FetchTargetTests {
    @Test func httpSchemesInAnyCaseAreHTTP() {
        #expect(FetchTarget("http://h/f") == .http)
        #expect(FetchTarget("HTTPS://h/f") == .http)
        #expect(FetchTarget("hTtP://h") == .http)
        #expect(FetchTarget("  https://h/f\n") == .http)  // trimmed on the slow path
    }

    @Test func nearMissesTakeTheSlowPath() {
        #expect(FetchTarget("httpx://h") == .invalid(reason: "unsupported scheme \"httpx\""))
        #expect(FetchTarget("http:/h") == .file(path: "http:/h"))
        #expect(FetchTarget("https:") == .file(path: "https:"))
        #expect(FetchTarget("http") == .file(path: "http"))
        #expect(FetchTarget("file:///tmp/a.xml") == .file(path: "/tmp/a.xml"))
        #expect(FetchTarget("") == .invalid(reason: "empty URL"))
    }
}
