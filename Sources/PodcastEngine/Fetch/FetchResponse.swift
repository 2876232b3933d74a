import Foundation
import PodcastStore

/// A completed fetch: a 2xx response with its body, or a `304 Not Modified`.
public struct FetchResponse: Sendable, Equatable {
    /// The final HTTP status: 2xx, or 304. Files report 200 (or 304 when `If-Modified-Since`
    /// matched their modification time).
    public var status: Int
    /// The final response's headers, names lower-cased; a repeated header's values are joined
    /// with `", "`.
    public var headers: [String: String]
    /// The body, content-decoded (gzip/deflate). Empty for a 304.
    public var body: Data
    /// The URL the request was made for.
    public var requestedURL: String
    /// The URL the body came from, after every redirect.
    public var effectiveURL: String
    /// Where the feed now lives if it was permanently moved: the end of the leading run of
    /// 301/308 hops; `nil` without one (a 302/307 is never permanent).
    public var permanentRedirect: PermanentRedirect?

    /// True for `304 Not Modified`.
    public var isNotModified: Bool { status == 304 }
    /// The `ETag` header.
    public var etag: String? { headers["etag"] }
    /// The `Last-Modified` header.
    public var lastModified: String? { headers["last-modified"] }
    /// The `Content-Type` header (with parameters such as `charset`).
    public var contentType: String? { headers["content-type"] }
    /// The `Content-Language` header (RFC 9110 §8.5): the feed's language when it names none.
    public var contentLanguage: String? { headers["content-language"] }

    /// A response; used by the fetcher and by tests.
    public init(
        status: Int, headers: [String: String] = [:], body: Data = Data(), requestedURL: String,
        effectiveURL: String, permanentRedirect: PermanentRedirect? = nil
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.requestedURL = requestedURL
        self.effectiveURL = effectiveURL
        self.permanentRedirect = permanentRedirect
    }
}

/// How a fetch ends: a `FetchResponse` (2xx or 304) or a `FetchError`.
public typealias FetchResult = Result<FetchResponse, FetchError>
