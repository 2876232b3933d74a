import Foundation
import PodcastEngine

/// One parsed HTTP request as the web layer sees it: what `HTTPServer` read with libevent's
/// `evhttp`, copied out of C memory so routing and rendering are plain Swift (and testable
/// without a socket).
public struct HTTPRequest: Sendable, Equatable {
    /// The request method, upper case (`GET`, `POST`, `DELETE`, `HEAD`).
    public var method: String
    /// The path, percent-decoded, without the query (`/api/feeds/3`).
    public var path: String
    /// The query parameters, percent-decoded (`+` as space, as in HTML forms); the first of a
    /// repeated name wins.
    public var query: [String: String]
    /// The headers, names lower-cased; a repeated header keeps its first value.
    public var headers: [String: String]
    /// The body bytes (at most `HTTPLimits.maxBodyBytes`; evhttp refuses longer ones).
    public var body: [UInt8]

    /// A request; `target` is the path with an optional `?query`.
    public init(method: String, target: String, headers: [String: String] = [:], body: [UInt8] = []) {
        self.method = method.uppercased()
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let rawPath = parts.first.map(String.init) ?? "/"
        self.path = rawPath.removingPercentEncoding ?? rawPath
        self.query = parts.count > 1 ? HTTPRequest.formFields(String(parts[1])) : [:]
        var lowered: [String: String] = [:]
        for (name, value) in headers where lowered[name.lowercased()] == nil { lowered[name.lowercased()] = value }
        self.headers = lowered
        self.body = body
    }

    /// The header `name` (any case).
    public func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// The media type of the body without parameters, lower case (`application/json`).
    public var contentType: String? {
        header("content-type").map {
            String($0.split(separator: ";", maxSplits: 1).first ?? "").trimmingCharacters(in: .whitespaces)
                .lowercased()
        }
    }

    /// The cookie `name` from the `Cookie` header, if sent.
    public func cookie(_ name: String) -> String? {
        guard let header = header("cookie") else { return nil }
        for part in header.split(separator: ";") {
            let pair = part.split(separator: "=", maxSplits: 1)
            if pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces) == name {
                return pair[1].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }

    /// The body as `application/x-www-form-urlencoded` fields (empty for another content type).
    public var formFields: [String: String] {
        guard contentType == "application/x-www-form-urlencoded" else { return [:] }
        return HTTPRequest.formFields(String(decoding: body, as: UTF8.self))
    }

    /// Parses `a=1&b=two+words` (HTML's form encoding: `+` is a space); the first of a repeated
    /// name wins; a field that does not decode is dropped.
    public static func formFields(_ text: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = decodeFormComponent(kv[0]), fields[name] == nil else { continue }
            fields[name] = kv.count > 1 ? decodeFormComponent(kv[1]) : ""
        }
        return fields
    }

    private static func decodeFormComponent(_ raw: Substring) -> String? {
        raw.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
}

/// One HTTP response: status, headers in order, body. The security headers every response
/// carries are added by `HTTPServer` (see `WebSecurityHeaders`), not here.
public struct HTTPResponse: Sendable, Equatable {
    /// The status code (200, 404...).
    public var status: Int
    /// Headers in the order they are sent; names as written.
    public var headers: [(String, String)]
    /// The body bytes.
    public var body: [UInt8]
    /// A file range sent after `body` instead of bytes in memory (media files), if any.
    public var file: HTTPFileBody?

    /// A response.
    public init(status: Int, headers: [(String, String)] = [], body: [UInt8] = [], file: HTTPFileBody? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.file = file
    }

    /// Equality with headers compared in order (and the same file body, if any).
    public static func == (lhs: HTTPResponse, rhs: HTTPResponse) -> Bool {
        lhs.status == rhs.status && lhs.body == rhs.body && lhs.file === rhs.file
            && lhs.headers.count == rhs.headers.count
            && zip(lhs.headers, rhs.headers).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
    }

    /// The first value of header `name` (any case).
    public func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    /// The body as UTF-8 text.
    public var text: String { String(decoding: body, as: UTF8.self) }

    /// A JSON body (`application/json; charset=utf-8`).
    public static func json(_ value: OrderedJSON, status: Int = 200) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: [("Content-Type", "application/json; charset=utf-8")],
            body: value.utf8Bytes + [UInt8(ascii: "\n")])
    }

    /// A JSON error: `{"error":{"status":404,"message":"..."}}` with that status.
    public static func jsonError(_ status: Int, _ message: String) -> HTTPResponse {
        json(
            .object([("error", .object([("status", .int(Int64(status))), ("message", .string(message))]))]),
            status: status)
    }

    /// An HTML page (`text/html; charset=utf-8`).
    public static func html(_ text: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "text/html; charset=utf-8")], body: Array(text.utf8))
    }

    /// Plain text (`text/plain; charset=utf-8`, or the given type).
    public static func text(_ text: String, status: Int = 200, type: String = "text/plain; charset=utf-8")
        -> HTTPResponse
    {
        HTTPResponse(status: status, headers: [("Content-Type", type)], body: Array(text.utf8))
    }

    /// `303 See Other` to `location` (after a form post: the browser then GETs the page).
    public static func seeOther(_ location: String) -> HTTPResponse {
        HTTPResponse(
            status: 303, headers: [("Location", location), ("Content-Type", "text/plain; charset=utf-8")],
            body: Array("See \(location)\n".utf8))
    }

    /// The reason phrase for `status` (RFC 9110), "Unknown" for others.
    public static func reason(_ status: Int) -> String {
        switch status {
        case 200: return "OK"
        case 201: return "Created"
        case 202: return "Accepted"
        case 204: return "No Content"
        case 206: return "Partial Content"
        case 303: return "See Other"
        case 304: return "Not Modified"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 406: return "Not Acceptable"
        case 408: return "Request Timeout"
        case 409: return "Conflict"
        case 410: return "Gone"
        case 411: return "Length Required"
        case 413: return "Content Too Large"
        case 414: return "URI Too Long"
        case 415: return "Unsupported Media Type"
        case 416: return "Range Not Satisfiable"
        case 421: return "Misdirected Request"
        case 422: return "Unprocessable Content"
        case 429: return "Too Many Requests"
        case 431: return "Request Header Fields Too Large"
        case 500: return "Internal Server Error"
        case 501: return "Not Implemented"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        case 504: return "Gateway Timeout"
        default: return "Unknown"
        }
    }
}
