import Foundation
import PodcastTestSupport
import Testing

@testable import PodcastWeb

/// Serving a stored file: which files open (inside the download folders only, no `.part`, no
/// link, no directory), what a `Range` asks (RFC 9110 §14), and the answer's status, headers
/// and body range.
@Suite struct MediaFileTests {
    @Test(arguments: [
        ("bytes=0-99", MediaFile.ByteRange.part(first: 0, last: 99)),
        ("bytes=100-", .part(first: 100, last: 999)),
        ("bytes=-300", .part(first: 700, last: 999)),
        ("bytes=-5000", .part(first: 0, last: 999)),
        ("bytes=990-5000", .part(first: 990, last: 999)),
        ("bytes=999-999", .part(first: 999, last: 999)),
        ("bytes=1000-", .unsatisfiable),
        ("bytes=-0", .unsatisfiable),
        ("bytes=5-4", .whole),
        ("bytes=0-1,5-6", .whole),
        ("items=0-1", .whole),
        ("bytes=abc-", .whole),
        ("bytes=+1-2", .whole),
        (" BYTES=10-19 ", .part(first: 10, last: 19)),
        ("bytes = 10-19", .whole),
        ("bytes=0-99999999999999999999", .part(first: 0, last: 999)),
        ("bytes=99999999999999999999-", .unsatisfiable),
        ("bytes=-99999999999999999999", .part(first: 0, last: 999)),
    ])
    func rangesOfAThousandBytes(_ header: String, _ expected: MediaFile.ByteRange) {
        #expect(MediaFile.byteRange(header, size: 1000) == expected)
    }

    @Test func anEmptyFileHasNoSatisfiableRange() {
        #expect(MediaFile.byteRange("bytes=0-", size: 0) == .unsatisfiable)
        #expect(MediaFile.byteRange("bytes=-1", size: 0) == .unsatisfiable)
    }

    @Test func onlyRegularFilesInsideTheFoldersOpen() throws {
        let dir = TemporaryDirectory("media")
        let folder = dir.file("media")
        try FileManager.default.createDirectory(atPath: folder + "/Show", withIntermediateDirectories: true)
        let file = folder + "/Show/ep.mp3"
        try Data(repeating: 7, count: 1234).write(to: URL(fileURLWithPath: file))
        try Data(repeating: 1, count: 10).write(to: URL(fileURLWithPath: file + ".part"))
        try Data("secret".utf8).write(to: URL(fileURLWithPath: dir.file("outside.txt")))
        try FileManager.default.createSymbolicLink(
            atPath: folder + "/Show/link.mp3", withDestinationPath: dir.file("outside.txt"))
        try FileManager.default.createSymbolicLink(atPath: dir.file("alias"), withDestinationPath: folder)

        guard case .success(let opened) = MediaFile.open(path: file, folders: [folder]) else {
            Issue.record("the downloaded file did not open")
            return
        }
        #expect(opened.size == 1234)
        close(opened.fd)
        // The same file through a linked folder resolves inside: still served.
        if case .success(let viaAlias) = MediaFile.open(path: dir.file("alias") + "/Show/ep.mp3", folders: [folder]) {
            close(viaAlias.fd)
        } else {
            Issue.record("a path through a link to the folder was refused")
        }
        #expect(MediaFile.open(path: file + ".part", folders: [folder]).refusal == .notAFile)
        #expect(MediaFile.open(path: folder + "/Show/link.mp3", folders: [folder]).refusal == .notAFile)
        // A hard link names the outside file itself: refused by its second name.
        #expect(link(dir.file("outside.txt"), folder + "/Show/hard.mp3") == 0)
        #expect(MediaFile.open(path: folder + "/Show/hard.mp3", folders: [folder]).refusal == .notAFile)
        #expect(MediaFile.open(path: folder + "/Show/../../outside.txt", folders: [folder]).refusal == .outsideFolders)
        #expect(MediaFile.open(path: dir.file("outside.txt"), folders: [folder]).refusal == .outsideFolders)
        #expect(MediaFile.open(path: folder + "/Show", folders: [folder]).refusal == .notAFile)
        #expect(MediaFile.open(path: folder + "/Show/missing.mp3", folders: [folder]).refusal == .notAFile)
        #expect(MediaFile.open(path: file, folders: []).refusal == .outsideFolders)
        #expect(MediaFile.open(path: file, folders: [folder + "/Sho"]).refusal == .outsideFolders)
    }

    @Test func answersCarryValidatorsAndTheAskedRange() throws {
        let opened = MediaFile.Opened(fd: -1, size: 1000, modified: 1_700_000_000, etag: "\"a-3e8-1\"")
        func answer(_ headers: [String: String]) -> HTTPResponse {
            MediaFile.response(
                opened, contentType: "audio/mpeg", request: HTTPRequest(method: "GET", target: "/m", headers: headers))
        }
        let whole = answer([:])
        #expect(whole.status == 200)
        #expect(whole.file?.offset == 0 && whole.file?.length == 1000)
        #expect(whole.header("Accept-Ranges") == "bytes")
        #expect(whole.header("ETag") == "\"a-3e8-1\"")
        #expect(whole.header("Last-Modified") == "Tue, 14 Nov 2023 22:13:20 GMT")
        #expect(whole.header("Content-Type") == "audio/mpeg")
        let part = answer(["Range": "bytes=10-19"])
        #expect(part.status == 206)
        #expect(part.header("Content-Range") == "bytes 10-19/1000")
        #expect(part.file?.offset == 10 && part.file?.length == 10)
        let unsatisfiable = answer(["Range": "bytes=2000-"])
        #expect(unsatisfiable.status == 416)
        #expect(unsatisfiable.header("Content-Range") == "bytes */1000")
        #expect(unsatisfiable.file == nil)
        #expect(answer(["Range": "bytes=10-19", "If-Range": "\"old\""]).status == 200)
        #expect(answer(["Range": "bytes=10-19", "If-Range": "\"a-3e8-1\""]).status == 206)
        #expect(answer(["Range": "bytes=10-19", "If-Range": "Tue, 14 Nov 2023 22:13:20 GMT"]).status == 206)
        #expect(answer(["If-None-Match": "\"x\", W/\"a-3e8-1\""]).status == 304)
        #expect(answer(["If-None-Match": "\"x\""]).status == 200)
        // If-Modified-Since (the file changed at 1,700,000,000 s: Tue, 14 Nov 2023 22:13:20 GMT),
        // ignored beside If-None-Match.
        #expect(answer(["If-Modified-Since": "Tue, 14 Nov 2023 22:13:20 GMT"]).status == 304)
        #expect(answer(["If-Modified-Since": "Wed, 15 Nov 2023 00:00:00 GMT"]).status == 304)
        #expect(answer(["If-Modified-Since": "Tue, 14 Nov 2023 22:13:19 GMT"]).status == 200)
        #expect(answer(["If-Modified-Since": "not a date"]).status == 200)
        #expect(answer(["If-Modified-Since": "Wed, 15 Nov 2023 00:00:00 GMT", "If-None-Match": "\"x\""]).status == 200)
    }

    @Test func contentTypesComeFromTheFeedWhenPlainElseTheExtension() {
        #expect(MediaFile.contentType(declared: "audio/mpeg", path: "/m/a.bin") == "audio/mpeg")
        #expect(MediaFile.contentType(declared: "Audio/MP4", path: "/m/a.mp3") == "audio/mp4")
        #expect(MediaFile.contentType(declared: "audio/mpeg\r\nX-Evil: 1", path: "/m/a.m4a") == "audio/mp4")
        #expect(MediaFile.contentType(declared: nil, path: "/m/a.opus") == "audio/ogg")
        #expect(MediaFile.contentType(declared: "", path: "/m/a.xyz") == "application/octet-stream")
        #expect(MediaFile.contentType(declared: "video/mp4", path: "/m/a.bin") == "video/mp4")
    }

    /// A feed may name any type for its enclosures: a page, a script or an SVG is never served as
    /// one from the dashboard's origin, and every media answer is a sandboxed document.
    @Test func pagesAndScriptsAreServedAsDownloadsInASandbox() {
        for (declared, path) in [
            ("text/html", "/m/a.html"), ("application/javascript", "/m/a.js"), ("text/javascript", "/m/a.mp3"),
            ("image/svg+xml", "/m/a.svg"), ("application/xhtml+xml", "/m/a.xhtml"), ("application/pdf", "/m/a.pdf"),
        ] {
            let expected = path.hasSuffix(".mp3") ? "audio/mpeg" : "application/octet-stream"
            #expect(MediaFile.contentType(declared: declared, path: path) == expected)
        }
        let opened = MediaFile.Opened(fd: -1, size: 10, modified: 1_700_000_000, etag: "\"e\"")
        let request = HTTPRequest(method: "GET", target: "/m", headers: [:])
        let page = MediaFile.response(opened, contentType: "application/octet-stream", request: request)
        #expect(page.header("Content-Security-Policy") == "default-src 'none'; sandbox")
        #expect(page.header("Content-Disposition") == "attachment")
        let episode = MediaFile.response(opened, contentType: "audio/mpeg", request: request)
        #expect(episode.header("Content-Security-Policy") == "default-src 'none'; sandbox")
        #expect(episode.header("Content-Disposition") == nil)
        #expect(episode.header("Content-Type") == "audio/mpeg")
    }
}

extension Result where Failure == MediaFile.Refusal, Success == MediaFile.Opened {
    /// The refusal, or `nil` (closing the descriptor) when the file opened.
    var refusal: MediaFile.Refusal? {
        switch self {
        case .success(let opened):
            close(opened.fd)
            return nil
        case .failure(let refusal): return refusal
        }
    }
}
