import Foundation
import PodcastTestSupport
import XCTest

@testable import PodcastCommandLine

/// `demo` on a terminal: its header line must survive the view's clear-screen (XCTest: the demo
/// drives EventLoop.main, which needs the main thread).
final class DemoHeaderTests: XCTestCase {
    func testDemoOnATerminalPrintsItsHeaderAfterTheLastFrame() throws {
        let dir = TemporaryDirectory("demo")
        let both = CapturedConsole()
        let console = Console(
            out: { s in both.outText.withLock { $0 += s } }, err: { s in both.outText.withLock { $0 += s } },
            isTerminal: true)
        let samples = dir.file("samples")
        try FileManager.default.createDirectory(atPath: samples, withIntermediateDirectories: true)
        try "<rss version=\"2.0\"><channel><title>S</title><item><guid>a</guid></item></channel></rss>"
            .write(toFile: samples + "/s.xml", atomically: true, encoding: .utf8)
        let runner = CommandRunner(console: console, environment: ["HOME": "/nonexistent"], currentDirectory: dir.path)
        XCTAssertEqual(runner.run(["demo", "--samples", samples]), .success)
        let text = both.out
        XCTAssertTrue(text.contains(TerminalRenderer.clearScreen))
        let afterLastClear = text.components(separatedBy: TerminalRenderer.clearScreen).last ?? ""
        XCTAssertTrue(afterLastClear.hasSuffix("podcast-watch demo: 1 sample feeds from \(samples)\n"), afterLastClear)
    }
}
