import Foundation
import XCTest

@testable import PodcastCommandLine
@testable import PodcastWeb

/// The web options on the command line and in the config file: `--http`, `--http-token` and
/// `--http-public-origin` (the values themselves are parsed and tested in the web layer).
final class HTTPOptionTests: XCTestCase {
    func testTheOptionAndTheConfigKey() throws {
        let invocation = try CommandLineParser.parse([
            "run", "--http", "8080", "--http-public-origin", "https://pods.example.net",
        ])
        guard case .run(let options) = invocation.command else { return XCTFail("not run") }
        XCTAssertEqual(options.httpPublicOrigin?.description, "https://pods.example.net")
        XCTAssertThrowsError(try CommandLineParser.parse(["run", "--http-public-origin", "https://pods.example.net"])) {
            XCTAssertEqual(
                ($0 as? UsageError)?.message, "option '--http-public-origin' only applies with '--http'")
        }
        let config = try RunConfig.parse("http = 8080\nhttp-public-origin = https://pods.example.net\n", path: "/c")
        XCTAssertEqual(
            config.runTokens, ["--http", "8080", "--http-public-origin", "https://pods.example.net"])
        XCTAssertThrowsError(try RunConfig.parse("http-public-origin = https://pods.example.net/x\n", path: "/c")) {
            XCTAssertEqual(
                ($0 as? UsageError)?.message,
                "/c:1: bad value for 'http-public-origin': option '--http-public-origin' needs scheme://host[:port] such as https://pods.example.net (no path: the dashboard is served at the root), not 'https://pods.example.net/x'"
            )
        }
    }

    func testTheConfigFileTakesTheHTTPKeys() throws {
        let config = try RunConfig.parse("http = 0.0.0.0:8080\nhttp-token = 0123456789abcdef\n", path: "/etc/pw/config")
        XCTAssertEqual(config.runTokens, ["--http", "0.0.0.0:8080", "--http-token", "0123456789abcdef"])
        XCTAssertThrowsError(try RunConfig.parse("http = nowhere\n", path: "/c")) { error in
            XCTAssertEqual(
                (error as? UsageError)?.message,
                "/c:1: bad value for 'http': option '--http' needs [ADDR:]PORT (the port must be a number from 0 to 65535), not 'nowhere'"
            )
        }
    }

    /// `--http` with `--http-token`: a token needs `--http`, a short one is refused, and both
    /// land in `run`'s options.
    func testHTTPAndTokenOptions() throws {
        XCTAssertEqual(
            (try? CommandLineParser.parse(["run", "--http-token", "0123456789abcdef"])).debugDescription, "nil")
        XCTAssertThrowsError(try CommandLineParser.parse(["run", "--http", "1", "--http-token", "short"]))
        let invocation = try CommandLineParser.parse(["run", "--http", "0.0.0.0:0", "--http-token", "0123456789abcdef"])
        guard case .run(let options) = invocation.command else { return XCTFail("not run") }
        XCTAssertEqual(options.http, HTTPAddress(host: "0.0.0.0", port: 0))
        XCTAssertEqual(options.httpToken, "0123456789abcdef")
    }
}
