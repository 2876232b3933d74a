import Foundation
import LoopScheduler
import PodcastDaemonTestSupport
import PodcastTestSupport
import Testing

@testable import PodcastEngine
@testable import PodcastFeeds
@testable import PodcastStore

#if canImport(Glibc)
import Glibc
#endif

/// Something that is not a regular file at `NAME.part` (a symbolic link, a FIFO, a folder)
/// failed that download on every retry ("Too many levels of symbolic links"; a FIFO could even
/// block the file's queue in `open`). It is someone else's name, as a foreign file is: the
/// download takes the next free one, and the thing at the name is left as it was.
@Suite(.serialized) struct PartNameTakenTests {
    enum Squatter: String, CaseIterable {
        case symlink, fifo, folder
    }

    @Test(arguments: Squatter.allCases)
    func aPartNameThatIsNotAFileIsPassedOver(_ squatter: Squatter) throws {
        let h = try DownloadHarness()
        let data = DownloadHarness.bytes(7_000, seed: 9)
        h.server.route("/s.mp3") { .file(data, for: $0) }
        let folder = h.directory + "/Loopback Radio"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let part = folder + "/2023-11-14 Squat.mp3.part"
        let victim = h.temp.file("victim")
        let original = Data("not to be written through".utf8)
        _ = FileManager.default.createFile(atPath: victim, contents: original)
        switch squatter {
        case .symlink: try #require(symlink(victim, part) == 0)
        case .fifo: try #require(mkfifo(part, 0o600) == 0)
        case .folder: try FileManager.default.createDirectory(atPath: part, withIntermediateDirectories: false)
        }
        let id = try h.announce(title: "Squat", path: "/s.mp3", length: 7_000)
        try h.queue.start()
        h.run(until: { h.isSettled(id) })
        #expect(h.state(id) == .done, "\(String(describing: h.record(id)?.error))")
        #expect(h.record(id)?.path == folder + "/2023-11-14 Squat (2).mp3")
        #expect(h.contents(folder + "/2023-11-14 Squat (2).mp3") == data)
        #expect(h.record(id)?.attempts == 0)  // no failed attempt on the way
        // The squatter is untouched, and so is what a link points at.
        var info = stat()
        #expect(lstat(part, &info) == 0)
        #expect(FileManager.default.contents(atPath: victim) == original)
    }
}
