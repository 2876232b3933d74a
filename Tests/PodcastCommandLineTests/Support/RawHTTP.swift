import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// One HTTP/1.1 exchange over a plain socket to 127.0.0.1, bytes kept as bytes (media bodies),
/// the connection closed by the request (`Connection: close`), read to the end.
struct RawHTTP {
    let status: Int
    let headers: [String: String]  // names lower-cased
    let body: [UInt8]

    /// `method path` with `headers` to `port`; `nil` when the exchange fails or takes over 20 s.
    static func send(
        port: UInt16, _ path: String, method: String = "GET", headers: [String: String] = [:]
    ) -> RawHTTP? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { return nil }
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        let bytes = Array(head.utf8)
        guard bytes.withUnsafeBytes({ Glibc.send(fd, $0.baseAddress, $0.count, 0) }) == bytes.count else { return nil }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            received += chunk[0..<n]
        }
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = (0..<max(0, received.count - 3)).first(where: { Array(received[$0..<$0 + 4]) == separator })
        else { return nil }
        let lines = String(decoding: received[0..<end], as: UTF8.self).components(separatedBy: "\r\n")
        guard let statusLine = lines.first, statusLine.count >= 12, let status = Int(statusLine.dropFirst(9).prefix(3))
        else { return nil }
        var fields: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return RawHTTP(status: status, headers: fields, body: Array(received[(end + 4)...]))
    }

    /// The body as JSON (a test helper: empty when it is not an object).
    var json: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:]
    }
}
