import Foundation
import LoopScheduler
import PodcastDaemonTestSupport
import PodcastTestSupport
import XCTest

@testable import PodcastWeb

/// A file body over evhttp: a client that reads slowly keeps its connection past
/// `requestTimeout` while the reply drains (the sweep leaves a sending connection to libevent's
/// write timeout), and receives every byte.
final class MediaTransferTests: XCTestCase {
    func testASlowReaderOfALongFileIsNotSweptAndGetsEveryByte() throws {
        let dir = TemporaryDirectory("media-transfer")
        let path = dir.file("long.mp3")
        let size = 24 << 20
        var bytes = [UInt8](repeating: 0, count: size)
        for i in stride(from: 0, to: size, by: 4096) { bytes[i] = UInt8(truncatingIfNeeded: i / 4096) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        // As podcast-watch does: a connection closed under a sendfile(2) is EPIPE, not death.
        signal(SIGPIPE, SIG_IGN)
        let clock = VirtualClock()
        let harness = try ServerHarness(limits: HTTPLimits(requestTimeout: 0.2), now: clock.now) { _ in
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            return .response(
                HTTPResponse(
                    status: 200, headers: [("Content-Type", "audio/mpeg")],
                    file: HTTPFileBody(fd: fd, offset: 0, length: Int64(size))))
        }
        defer { harness.stop() }

        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var small: Int32 = 64 * 1024  // a small window, so most of the file waits on the server
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = harness.port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        XCTAssertEqual(connected, 0)
        let request = "GET /m HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n"
        _ = request.withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        func readSome() -> Int {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 { received += chunk[0..<n] }
            return n
        }
        while received.count < 100_000 { XCTAssertGreaterThan(readSome(), 0) }
        // Five request timeouts pass on the sweep's clock while most of the file is unsent.
        clock.advance(by: .seconds(1))
        harness.onLoop { harness.server.sweepConnections() }
        while readSome() > 0 {}
        let headerEnd = try XCTUnwrap(
            (0..<received.count - 3).first { received[$0] == 13 && received[$0 + 1] == 10 && received[$0 + 2] == 13 })
        XCTAssertEqual(received.count - headerEnd - 4, size)
        XCTAssertTrue(received.count == headerEnd + 4 + size && Array(received[(headerEnd + 4)...]) == bytes)
        XCTAssertEqual(harness.onLoop { harness.server.closedByLimits }, 0)
    }
}
