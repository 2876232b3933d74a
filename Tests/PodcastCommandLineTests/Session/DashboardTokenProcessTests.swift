import Foundation
import PodcastDaemonTestSupport
import PodcastTestSupport
import XCTest

/// The generated `--http` token never goes to a log: with stderr not a terminal (a service's
/// journal) it is written to `http-token` in the state directory, mode 0600, and the start line
/// names that file; the token there is the one the server wants.
extension DaemonProcessTests {
    func testGeneratedTokenGoesToAFileNotToStderr() throws {
        server.route("/a", .ok(TestFeeds.rss(["a1"])))
        try withStore { try $0.add(url: server.url("/a")) }
        let child = try start("run", "--json", "--http", "0.0.0.0:0")
        let file = dir.file("http-token")
        XCTAssertTrue(child.wait { child.stderr.contains("dashboard at http://") })
        XCTAssertTrue(child.stderr.contains("(token required; it is in \(file): open "), child.stderr)
        let token = try String(contentsOfFile: file, encoding: .utf8).trimmingCharacters(in: .newlines)
        XCTAssertGreaterThanOrEqual(token.count, 16)
        XCTAssertFalse(child.stderr.contains(token), child.stderr)
        let mode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int)
        XCTAssertEqual(mode, 0o600)
        let port = child.stderr.components(separatedBy: "dashboard at http://0.0.0.0:").last
            .flatMap { UInt16($0.prefix { $0.isNumber }) }
        guard let port else { return XCTFail("no port in \(child.stderr)") }
        let allowed = TestSocket.request(
            port: port,
            "GET /api/feeds HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\nConnection: close\r\n\r\n")
        XCTAssertTrue(allowed.hasPrefix("HTTP/1.1 200 OK\r\n"), allowed)
        child.signal(SIGTERM)
        XCTAssertEqual(child.finish(), 0)
    }
}
