import Foundation
import Testing

@testable import PodcastEngine
@testable import PodcastFeeds

/// File names from hostile titles: never outside the directory, never a device or hidden name,
/// never longer than a file system takes; extensions from the URL or the MIME type.
@Suite struct DownloadNamingTests {
    let naming = DownloadNaming.standard
    let day = Date(timeIntervalSince1970: 1_700_000_000)  // 2023-11-14 UTC

    func path(
        podcast: String? = "Show", title: String?, url: String = "https://cdn.example/a/ep.mp3", mime: String? = nil
    )
        -> String
    {
        naming.relativePath(
            for: .init(podcast: podcast, title: title, guid: "g-1", episodeID: 42, date: day, url: url, mimeType: mime))
    }

    @Test func defaultTemplate() {
        #expect(path(title: "Episode 1: Hello") == "Show/2023-11-14 Episode 1_ Hello.mp3")
    }

    /// `standard` skips the checks: they must pass for its template, and give the same naming.
    @Test func theStandardNamingIsTheCheckedDefault() throws {
        #expect(try DownloadNaming() == DownloadNaming.standard)
        #expect(DownloadNaming.standard.template == "{podcast}/{date} {title}.{ext}")
    }

    /// `{date}` is the UTC day, whatever the process's time zone: one second before and at a
    /// UTC midnight.
    @Test func theDateIsTheUTCDay() {
        let naming = DownloadNaming.standard
        let midnight = Date(timeIntervalSince1970: 1_700_006_400)  // 2023-11-15T00:00:00Z
        let fields = DownloadNaming.Fields(
            podcast: "Show", title: "t", guid: nil, episodeID: 1, date: midnight.addingTimeInterval(-1),
            url: "https://cdn.example/e.mp3", mimeType: nil)
        #expect(naming.relativePath(for: fields) == "Show/2023-11-14 t.mp3")
        var later = fields
        later.date = midnight
        #expect(naming.relativePath(for: later) == "Show/2023-11-15 t.mp3")
    }

    @Test func pathTraversalTitlesStayInside() {
        #expect(path(title: "../../etc/passwd") == "Show/2023-11-14 .._.._etc_passwd.mp3")
        #expect(path(podcast: "..", title: "x") == "_/2023-11-14 x.mp3")
        #expect(
            path(podcast: "/etc", title: "/root/.ssh/authorized_keys")
                == "_etc/2023-11-14 _root_.ssh_authorized_keys.mp3")
        #expect(path(podcast: "...", title: ".hidden") == "_/2023-11-14 .hidden.mp3")
        let custom = try! DownloadNaming(template: "{title}.{ext}")
        let hidden = custom.relativePath(
            for: .init(
                podcast: nil, title: "../.bashrc", guid: nil, episodeID: 1, date: day, url: "http://h/x", mimeType: nil)
        )
        #expect(hidden == "_.bashrc.bin")  // no leading dot: not hidden
        let dots = custom.relativePath(
            for: .init(podcast: nil, title: "..", guid: nil, episodeID: 1, date: day, url: "http://h/x", mimeType: nil))
        #expect(dots == "bin")
        #expect(!dots.contains("/"))
    }

    @Test func controlAndInvisibleCharactersAreDropped() {
        #expect(path(title: "a\u{0}b\u{1B}[31mc\u{7F}d\u{202E}e\nf\tg") == "Show/2023-11-14 ab[31mcde f g.mp3")
        #expect(path(title: "   ") == "Show/2023-11-14 g-1.mp3")
        #expect(path(title: nil) == "Show/2023-11-14 g-1.mp3")
        #expect(path(podcast: nil, title: "t") == "cdn.example/2023-11-14 t.mp3")
    }

    @Test func reservedNamesGetAPrefix() {
        let bare = try! DownloadNaming(template: "{title}")
        func name(_ t: String) -> String {
            bare.relativePath(
                for: .init(podcast: nil, title: t, guid: nil, episodeID: 1, date: day, url: "http://h/x", mimeType: nil)
            )
        }
        #expect(name("CON") == "_CON")
        #expect(name("nul.txt") == "_nul.txt")
        #expect(name("com1") == "_com1")
        #expect(name("CONSOLE") == "CONSOLE")
    }

    @Test func longTitlesAreCutOnACharacterBoundaryKeepingTheExtension() {
        let long = String(repeating: "é", count: 300)  // 600 UTF-8 bytes
        let p = path(title: long)
        let file = String(p.split(separator: "/").last!)
        #expect(file.utf8.count <= DownloadNaming.maxComponentBytes)
        #expect(file.hasSuffix(".mp3"))
        #expect(file.hasPrefix("2023-11-14 éé"))
        #expect(String(decoding: Array(file.utf8), as: UTF8.self) == file)
    }

    @Test func extensionFromURLThenMIME() {
        #expect(DownloadNaming.fileExtension(url: "https://h/a/b.M4A?x=1", mimeType: "audio/mpeg") == "m4a")
        #expect(DownloadNaming.fileExtension(url: "https://h/a/download", mimeType: "audio/mpeg; q=1") == "mp3")
        #expect(DownloadNaming.fileExtension(url: "https://h/a/b.toolongext", mimeType: "video/mp4") == "mp4")
        #expect(DownloadNaming.fileExtension(url: "https://h/a/b.m%2F", mimeType: nil) == "bin")
        #expect(DownloadNaming.fileExtension(url: "https://h/", mimeType: "application/x-unknown") == "bin")
    }

    @Test func numberedCandidates() {
        #expect(DownloadNaming.numbered("Show/a.mp3", 1) == "Show/a.mp3")
        #expect(DownloadNaming.numbered("Show/a.mp3", 2) == "Show/a (2).mp3")
        #expect(DownloadNaming.numbered("Show.d/noext", 3) == "Show.d/noext (3)")
    }

    @Test func templatesAreChecked() {
        #expect(throws: OptionValueError.self) { try DownloadNaming(template: "{podcast}/{nope}.{ext}") }
        #expect(throws: OptionValueError.self) { try DownloadNaming(template: "{podcast}/{title") }
        #expect(throws: OptionValueError.self) { try DownloadNaming(template: "{podcast}/{date}.{ext}") }
        #expect((try? DownloadNaming(template: "{id}-{guid}.{ext}")) != nil)
    }
}
