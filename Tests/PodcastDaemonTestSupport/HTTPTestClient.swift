import Foundation
import LoopScheduler
import PodcastWeb
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// An `HTTPServer` on its own `EventLoop`, run on a background thread, with a 10 ms repeating
/// timer standing in for the daemon's polling (`ticks` shows the loop kept going).
package final class ServerHarness: @unchecked Sendable {
    /// A handler answering `METHOD PATH Q BODY-BYTES` as text: what the server parsed.
    package static func echo(_ request: HTTPRequest) -> HTTPReply {
        .response(.text("\(request.method) \(request.path) \(request.query["q"] ?? "-") \(request.body.count)\n"))
    }

    package let loop: EventLoop
    package let server: HTTPServer
    package let port: UInt16
    package let ticks = Atomic<Int>(0)
    private var timer: EventRegistration?
    private var thread: Thread?
    private let done = DispatchSemaphore(value: 0)

    /// `now`: the connection sweep's clock (a virtual one for the timeout tests).
    package init(
        limits: HTTPLimits, now: @escaping () -> MonotonicInstant = MonotonicInstant.now,
        handler: @escaping (HTTPRequest) -> HTTPReply
    ) throws {
        loop = try EventLoop()
        server = try HTTPServer(loop: loop, limits: limits, now: now, handler: handler)
        try server.bind(address: "127.0.0.1", port: 0)
        port = server.port
        timer = loop.scheduleRepeatingTimer(every: .milliseconds(10)) { [unowned self] in
            self.ticks.add(1, ordering: .relaxed)
        }
        let loop = self.loop
        let done = self.done
        let thread = Thread {
            try? loop.run()
            done.signal()
        }
        self.thread = thread
        thread.start()
    }

    /// Runs `body` on the loop's thread and returns its result.
    @discardableResult
    package func onLoop<T: Sendable>(_ body: @escaping () -> T) -> T {
        let result = Mutex<T?>(nil)
        let ready = DispatchSemaphore(value: 0)
        nonisolated(unsafe) let work = body  // runs on the loop's thread only, while we wait
        loop.execute {
            result.withLock { $0 = work() }
            ready.signal()
        }
        ready.wait()
        return result.withLock { $0! }
    }

    package func stop() {
        let server = self.server
        let timer = self.timer
        onLoop {
            timer?.cancel()
            server.close()
            return 0
        }
        loop.stop()
        done.wait()
        loop.shutdown()
    }
}

/// A blocking TCP client for the server tests.
package final class TestSocket {
    package let fd: Int32

    /// Connects to 127.0.0.1:`port`; reads time out after `timeout` seconds.
    package init?(port: UInt16, timeout: Double = 10) {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(fd)
            return nil
        }
        var tv = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    /// Sends `text`; `false` if the peer is gone.
    @discardableResult
    package func send(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }

    /// Reads until the peer closes (or the read times out): everything received.
    package func readToEnd() -> String {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            data += buffer[..<n]
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// Reads what arrives until `marker` was seen (or the peer closes / the read times out).
    package func read(until marker: String) -> String {
        var text = ""
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !text.contains(marker) {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            text += String(decoding: buffer[..<n], as: UTF8.self)
        }
        return text
    }

    /// Whether the server has closed the connection (a read gives end of file or an error).
    package func isClosedByPeer() -> Bool {
        var byte: UInt8 = 0
        let n = recv(fd, &byte, 1, 0)
        return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
    }

    /// One request on a fresh connection with `Connection: close`: the whole response.
    package static func request(port: UInt16, _ head: String, body: String = "") -> String {
        guard let socket = TestSocket(port: port) else { return "" }
        socket.send(head + body)
        return socket.readToEnd()
    }
}
