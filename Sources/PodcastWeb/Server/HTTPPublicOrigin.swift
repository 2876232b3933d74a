import PodcastEngine
import PodcastFeeds

#if canImport(Glibc)
import Glibc
#endif

/// `run --http-public-origin URL`: the origin browsers use when the dashboard is reached
/// through a reverse proxy (`https://pods.example.net`), as RFC 6454 defines an origin:
/// scheme, host and port, nothing else. `WebAccess` then accepts that `Host` beside the
/// loopback ones and that `Origin` on state changes, and `WebDashboard` requires a token unless
/// the origin is itself loopback (the proxy's clients are not this machine's users).
///
/// Pure; any thread.
public struct HTTPPublicOrigin: Equatable, Sendable, CustomStringConvertible {
    /// `http` or `https`, lower case.
    public var scheme: String
    /// The host, lower case: a DNS name (ASCII; an internationalised name in its `xn--` form),
    /// a dotted IPv4 address, or an IPv6 address in brackets (`[2001:db8::1]`).
    public var host: String
    /// The port given, `nil` for the scheme's default.
    public var port: UInt16?

    /// The port browsers connect to: the one given, else 443 for `https` and 80 for `http`.
    public var effectivePort: UInt16 { port ?? (scheme == "https" ? 443 : 80) }

    /// `https://pods.example.net` or `http://[::1]:9000` (the default port left out).
    public var description: String {
        let shownPort = port.flatMap { $0 == (scheme == "https" ? 443 : 80) ? nil : $0 }
        return "\(scheme)://\(host)" + (shownPort.map { ":\($0)" } ?? "")
    }

    /// Whether the host is loopback (`localhost`, `127.0.0.0/8`, `[::1]`): a proxy on this
    /// machine for this machine's users, so no token is required for it.
    public var isLoopback: Bool { WebAccess.isLoopbackHost(host) }

    /// Parses `scheme://host[:port]` (one trailing `/` allowed). Throws `OptionValueError` naming
    /// `--http-public-origin` and what is wrong: another scheme, a user or password, a path,
    /// query or fragment, an empty or malformed host, a non-ASCII host, a port outside 1...65535.
    public static func parse(_ text: String) throws(OptionValueError) -> HTTPPublicOrigin {
        func bad(_ why: String) -> OptionValueError {
            OptionValueError(
                "option '--http-public-origin' needs scheme://host[:port] such as https://pods.example.net (\(why)), not '\(TerminalText.line(text))'"
            )
        }
        guard let separator = text.range(of: "://") else { throw bad("no scheme") }
        let scheme = text[..<separator.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else { throw bad("the scheme must be http or https") }
        var authority = text[separator.upperBound...]
        if authority.hasSuffix("/") { authority = authority.dropLast() }
        guard !authority.contains("@") else { throw bad("no user or password: the token does that") }
        guard !authority.contains("/") else { throw bad("no path: the dashboard is served at the root") }
        guard !authority.contains("?"), !authority.contains("#") else { throw bad("no query or fragment") }
        guard authority.allSatisfy({ $0.isASCII }) else {
            throw bad("write an internationalised name in its xn-- form")
        }
        var host: Substring
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw bad("an IPv6 address needs its closing ]") }
            let inner = authority[authority.index(after: authority.startIndex)..<close]
            guard let canonical = canonicalIPv6(inner) else { throw bad("not an IPv6 address in brackets") }
            guard canonical != "::" else { throw bad("the unspecified address :: is not an origin") }
            // As a browser serializes it in `Origin`: lower case, zeros compressed.
            host = Substring("[" + canonical + "]")
            let rest = authority[authority.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { throw bad("only :port may follow the address") }
                portText = rest.dropFirst()
            }
        } else {
            if let colon = authority.firstIndex(of: ":") {
                host = authority[..<colon]
                portText = authority[authority.index(after: colon)...]
            } else {
                host = authority
            }
            guard isHostName(host) else {
                throw bad("the host must be a DNS name or an IPv4 address, without a trailing dot")
            }
            // A browser's URL parser (WHATWG) reads a host whose last label is a number (decimal,
            // 0x hex, octal) as an IPv4 address: 0x7f.0.0.1 is 127.0.0.1 to it, so only the
            // canonical dotted quad is accepted for such a host.
            if let last = host.split(separator: ".").last, let first = last.first, first.isNumber {
                guard isDottedQuad(host) else {
                    throw bad("a host ending in a number must be an IPv4 address written a.b.c.d in decimal")
                }
                guard host != "0.0.0.0" else { throw bad("the unspecified address 0.0.0.0 is not an origin") }
            }
        }
        var port: UInt16?
        if let portText {
            guard !portText.isEmpty, portText.count <= 5, portText.allSatisfy({ $0.isASCII && $0.isNumber }),
                let number = UInt16(portText), number > 0
            else { throw bad("the port must be a number from 1 to 65535") }
            port = number
        }
        return HTTPPublicOrigin(scheme: scheme, host: host.lowercased(), port: port)
    }

    /// Whether `header` (a `Host` header) names this origin: the same host (any case) and
    /// either no port (proxies often forward the bare name: `$host` in nginx) or this origin's
    /// effective port.
    public func matchesHost(_ header: String) -> Bool {
        guard let (name, port) = HTTPPublicOrigin.splitHost(header) else { return false }
        return name == host && (port == nil || port == effectivePort)
    }

    /// Whether `origin` (an `Origin` header) is this origin: same scheme, host and effective port.
    public func matchesOrigin(_ origin: String) -> Bool {
        guard let parsed = try? HTTPPublicOrigin.parse(origin), !origin.hasSuffix("/") else {
            return false
        }
        return parsed.scheme == scheme && parsed.host == host && parsed.effectivePort == effectivePort
    }

    /// `host[:port]` split, the name lower-cased (IPv6 kept in brackets); `nil` when malformed.
    static func splitHost(_ header: String) -> (String, UInt16?)? {
        let text = header.lowercased()
        var name = Substring(text)
        var portText: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            name = text[...close]
            let rest = text[text.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { return nil }
                portText = rest.dropFirst()
            }
        } else if let colon = text.firstIndex(of: ":") {
            name = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        guard !name.isEmpty else { return nil }
        guard let portText else { return (String(name), nil) }
        guard !portText.isEmpty, portText.count <= 5, portText.allSatisfy({ $0.isASCII && $0.isNumber }),
            let port = UInt16(portText)
        else { return nil }
        return (String(name), port)
    }

    /// `text` as inet_ntop writes an IPv6 address (RFC 5952 form), `nil` unless inet_pton
    /// reads it as one.
    static func canonicalIPv6(_ text: Substring) -> String? {
        var address = in6_addr()
        guard inet_pton(AF_INET6, String(text), &address) == 1 else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(AF_INET6, &address, &buffer, socklen_t(buffer.count)) != nil else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Four decimal labels 0–255 without leading zeros (`127.0.0.1`, not `127.0.0.01`).
    static func isDottedQuad(_ name: Substring) -> Bool {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4
            && parts.allSatisfy { part in
                (1...3).contains(part.count) && part.allSatisfy { $0.isASCII && $0.isNumber }
                    && (part == "0" || part.first != "0") && UInt8(part) != nil
            }
    }

    /// RFC 1123 host name: dot-separated labels of 1–63 letters, digits or hyphens, not
    /// starting or ending with a hyphen, 253 characters at most, no trailing dot; an all-digit
    /// name must be a dotted IPv4 address.
    private static func isHostName(_ name: Substring) -> Bool {
        guard !name.isEmpty, name.count <= 253 else { return false }
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        for label in labels {
            guard (1...63).contains(label.count), label.first != "-", label.last != "-",
                label.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") })
            else { return false }
        }
        if labels.allSatisfy({ $0.allSatisfy(\.isNumber) }) {
            return labels.count == 4 && labels.allSatisfy { UInt8($0) != nil }
        }
        return true
    }
}
