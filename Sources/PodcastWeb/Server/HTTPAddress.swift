import PodcastEngine
import PodcastFeeds

/// Where `run --http [ADDR:]PORT` listens: a numeric IPv4 or IPv6 address (default
/// `127.0.0.1`) and a port (0 picks a free one, printed at start).
public struct HTTPAddress: Equatable, Sendable, CustomStringConvertible {
    /// The numeric address (`127.0.0.1`, `0.0.0.0`, `::1`, `::`), without brackets.
    public var host: String
    /// The port, 0...65535.
    public var port: UInt16

    /// An address.
    public init(host: String = "127.0.0.1", port: UInt16) {
        self.host = host
        self.port = port
    }

    /// Parses `PORT`, `ADDR:PORT` or `[IPV6]:PORT`. Throws `OptionValueError` naming `--http`.
    public static func parse(_ text: String) throws(OptionValueError) -> HTTPAddress {
        func bad(_ why: String) -> OptionValueError {
            OptionValueError("option '--http' needs [ADDR:]PORT (\(why)), not '\(TerminalText.line(text))'")
        }
        var host = "127.0.0.1"
        var portText = Substring(text)
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                throw bad("an IPv6 address goes in brackets: [::1]:8080")
            }
            host = String(text[text.index(after: text.startIndex)..<close])
            portText = text[text.index(close, offsetBy: 2)...]
            guard host.contains(":"), host.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else {
                throw bad("not a numeric IPv6 address")
            }
        } else if let colon = text.lastIndex(of: ":") {
            host = String(text[..<colon])
            portText = text[text.index(after: colon)...]
            let parts = host.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 4, parts.allSatisfy({ !$0.isEmpty && $0.count <= 3 && UInt8($0) != nil }) else {
                throw bad("the address must be a numeric IPv4 address, or an IPv6 one in brackets")
            }
        }
        guard !portText.isEmpty, portText.allSatisfy(\.isASCII), let port = UInt16(portText) else {
            throw bad("the port must be a number from 0 to 65535")
        }
        return HTTPAddress(host: host, port: port)
    }

    /// Whether the address is loopback only (`127.0.0.0/8` or `::1`): no token needed there.
    public var isLoopback: Bool { host == "::1" || host.hasPrefix("127.") }

    /// `127.0.0.1:8080` or `[::1]:8080`.
    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
