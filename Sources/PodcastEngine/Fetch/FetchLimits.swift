/// Limits on one fetch. Sizes are in **bytes** (values below 1 count as 1), times in
/// **seconds** (values below 1 ms count as 1 ms).
public struct FetchLimits: Sendable, Equatable {
    /// Longest time to establish a connection (DNS, TCP and TLS), per hop, in seconds
    /// (libcurl `CURLOPT_CONNECTTIMEOUT_MS`). Default 15.
    public var connectTimeout: Double
    /// Longest time for the whole fetch, all redirect hops together, in seconds
    /// (libcurl `CURLOPT_TIMEOUT_MS` with the remaining budget per hop). Default 60.
    public var totalTimeout: Double
    /// Most body bytes accepted on the wire (before content decoding), in bytes: a larger
    /// `Content-Length` is refused before the body is read, a body that grows past it is cut off.
    /// Default 10 MiB.
    public var maxResponseBytes: Int
    /// Most body bytes accepted after gzip/deflate decoding, in bytes: the guard against
    /// compression bombs. Default 32 MiB.
    public var maxDecodedBytes: Int
    /// Most redirects followed (each hop is one). Default 5.
    public var maxRedirects: Int

    /// Limits with podcast-friendly defaults: 15 s to connect, 60 s in all, 10 MiB on the wire,
    /// 32 MiB decoded, 5 redirects.
    public init(
        connectTimeout: Double = 15, totalTimeout: Double = 60, maxResponseBytes: Int = 10 << 20,
        maxDecodedBytes: Int = 32 << 20, maxRedirects: Int = 5
    ) {
        self.connectTimeout = connectTimeout
        self.totalTimeout = totalTimeout
        self.maxResponseBytes = maxResponseBytes
        self.maxDecodedBytes = maxDecodedBytes
        self.maxRedirects = maxRedirects
    }
}
