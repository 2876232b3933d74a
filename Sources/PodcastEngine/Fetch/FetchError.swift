import Foundation
import PodcastFeeds
import PodcastStore

/// Why a fetch failed. `description` names the URL and what went wrong.
public struct FetchError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure.
    public enum Kind: Sendable, Equatable {
        /// The connect or total timeout ran out (libcurl `CURLE_OPERATION_TIMEDOUT`).
        case timeout
        /// The body passed `maxResponseBytes` on the wire, or `maxDecodedBytes` once decoded
        /// (`decoded` tells which).
        case tooLarge(decoded: Bool)
        /// The host name did not resolve.
        case dns
        /// The connection was refused or could not be made.
        case connect
        /// TLS failed: handshake, certificate or host-name verification.
        case tls
        /// A redirect led back to a URL already visited.
        case redirectLoop
        /// More than `maxRedirects` redirects.
        case tooManyRedirects
        /// The server answered with this status: 4xx, 5xx, or a 3xx without a usable `Location`.
        case httpStatus(Int)
        /// The URL is malformed or uses an unsupported scheme (also a redirect to one).
        case invalidURL
        /// A local file could not be read.
        case file
        /// The body's `Content-Encoding` could not be decoded.
        case decoding
        /// Any other transfer error (connection reset, protocol error...).
        case network
    }

    /// The kind of failure.
    public var kind: Kind
    /// The URL being fetched when it failed (after redirects).
    public var url: String
    /// Details: libcurl's message, the OS error or the HTTP reason.
    public var message: String
    /// The HTTP status when there was a response.
    public var status: Int?
    /// A permanent move seen before the failure, if any.
    public var permanentRedirect: PermanentRedirect?
    /// The failing response's headers (names lower-cased) when there was one, else empty.
    public var headers: [String: String]

    /// A fetch error.
    public init(
        kind: Kind, url: String, message: String, status: Int? = nil, permanentRedirect: PermanentRedirect? = nil,
        headers: [String: String] = [:]
    ) {
        self.kind = kind
        self.url = url
        self.message = message
        self.status = status
        self.permanentRedirect = permanentRedirect
        self.headers = headers
    }

    /// The server's `Retry-After` (RFC 9110 §10.2.3) in seconds from `now`, for a 429 or 503:
    /// delta-seconds as given, an HTTP date as the time left until it (0 if past); `nil` when
    /// absent or unreadable.
    public func retryAfter(now: Date = Date()) -> Double? {
        guard let value = headers["retry-after"]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else {
            return nil
        }
        if let seconds = Int(value) { return seconds >= 0 ? Double(seconds) : nil }
        guard let date = DateParser.parse(value) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }

    /// `"<url>: <message>"`.
    public var description: String { "\(url): \(message)" }
}

extension FeedFailure {
    /// The failure a fetch error means for the store: the HTTP status for `.httpStatus` errors,
    /// and the error's description (URL and reason) as the message.
    public init(_ error: FetchError) {
        if case .httpStatus(let status) = error.kind {
            self.init(httpStatus: status, message: error.description)
        } else {
            self.init(httpStatus: nil, message: error.description)
        }
    }
}
