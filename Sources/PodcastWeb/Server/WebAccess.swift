import Foundation

/// Who may use the web server and how a state change must be asked for.
///
/// - **Token.** On an address other than loopback a token is required (`--http-token`, else a
///   random one printed once). A request carries it as `Authorization: Bearer TOKEN` or as the
///   `pw_token` cookie; a browser gets the cookie by opening `/?token=TOKEN` once (the answer
///   sets it `HttpOnly; SameSite=Strict`, and `Secure` when the public origin is https, and redirects to `/`, so the token leaves the address
///   bar). Compared in constant time. Without a token (loopback), the `Host` header must name a
///   loopback host, so a DNS-rebinding page cannot reach the API through the user's browser.
/// - **Reverse proxy.** With a public origin (`--http-public-origin`), its host is accepted as
///   `Host` beside the loopback ones, and its exact origin as `Origin` on state changes (a proxy
///   that rewrites `Host` to the upstream address leaves `Origin` naming the public site).
/// - **CSRF.** GET and HEAD change nothing. A state change needs DELETE, or POST with either a
///   JSON body (`Content-Type: application/json`: a cross-site form cannot send it without a
///   CORS preflight, which is never granted) or, for the page's own forms, the `csrf` field
///   equal to this server's CSRF secret (the page embeds it). Any state change whose `Origin`
///   (or `Sec-Fetch-Site`) says it came from another site is refused whatever it carries.
public struct WebAccess: Sendable {
    /// The token required, `nil` when none is (loopback without `--http-token`).
    public let token: String?
    /// The secret the page's forms carry in their `csrf` field.
    public let csrfSecret: String
    /// The origin browsers use through a reverse proxy, if any (`--http-public-origin`).
    public let publicOrigin: HTTPPublicOrigin?
    /// The cookie name carrying the token.
    public static let cookieName = "pw_token"

    /// Access rules; `csrfSecret` defaults to a fresh random one.
    public init(token: String?, csrfSecret: String = WebAccess.randomSecret(), publicOrigin: HTTPPublicOrigin? = nil) {
        self.token = token
        self.csrfSecret = csrfSecret
        self.publicOrigin = publicOrigin
    }

    /// 32 random bytes as 64 hex digits (`SystemRandomNumberGenerator`: getrandom(2)).
    public static func randomSecret() -> String {
        var rng = SystemRandomNumberGenerator()
        return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &rng)) }.joined()
    }

    /// Whether `host` (a `Host` header) names this machine's loopback, spelled as a browser
    /// spells the URLs we print: exactly `localhost` (any case), a dotted-quad `127.x.y.z` in
    /// canonical form (no leading zeros, each part 0...255) or `[::1]`, each with an optional
    /// `:port` (1–5 digits, at most 65535). Everything else is refused: `localhost.evil`,
    /// `a.localhost`, `localhost.` (a trailing dot: nothing we print has one), `127.1`,
    /// `0x7f.0.0.1`, `127.0.0.01`, `[0:0:0:0:0:0:0:1]`, an empty or non-numeric port. Short or
    /// odd spellings resolve to loopback too, but no browser sends them for the URLs we print,
    /// and a narrow set is one a reader can check.
    public static func isLoopbackHost(_ host: String) -> Bool {
        guard let (name, _) = HTTPPublicOrigin.splitHost(host) else { return false }
        if name == "localhost" || name == "[::1]" { return true }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127"
            && parts.allSatisfy { part in
                (1...3).contains(part.count) && part.allSatisfy { $0.isASCII && $0.isNumber }
                    && (part == "0" || part.first != "0") && UInt8(part) != nil
            }
    }

    /// `nil` when `request` may be served, else the error to answer (401 no or wrong token,
    /// 421 without a token a `Host` that is neither loopback nor the public origin's).
    public func refusal(_ request: HTTPRequest) -> HTTPResponse? {
        guard token != nil else {
            guard let host = request.header("host"),
                WebAccess.isLoopbackHost(host) || publicOrigin?.matchesHost(host) == true
            else {
                let also = publicOrigin.map { " or \($0.host)" } ?? ""
                return .jsonError(
                    421, "this server answers only to a loopback Host (localhost, 127.0.0.1, [::1])\(also)")
            }
            return nil
        }
        if carriesToken(request) { return nil }
        var refusal = HTTPResponse.jsonError(
            401, "a token is required: send 'Authorization: Bearer TOKEN', or open /?token=TOKEN once in the browser")
        refusal.headers.append(("WWW-Authenticate", "Bearer realm=\"podcast-watch\""))
        return refusal
    }

    /// Whether a token is configured and `request` carries it (bearer header or cookie,
    /// compared in constant time). Only such a request gets the stored feed URLs with their
    /// credentials (`/export.opml`); on a server without a token it is always `false`.
    public func carriesToken(_ request: HTTPRequest) -> Bool {
        guard let token else { return false }
        let bearer = request.header("authorization").flatMap { value -> String? in
            let lower = value.lowercased()
            return lower.hasPrefix("bearer ") ? String(value.dropFirst(7)).trimmingCharacters(in: .whitespaces) : nil
        }
        guard let given = bearer ?? request.cookie(WebAccess.cookieName) else { return false }
        return WebAccess.constantTimeEqual(given, token)
    }

    /// For `GET /?token=T`: the redirect that sets the cookie when `T` is the token, else `nil`.
    /// The cookie is `Secure` when the public origin (`--http-public-origin`) is https.
    public func login(_ request: HTTPRequest) -> HTTPResponse? {
        guard let token, let given = request.query["token"], WebAccess.constantTimeEqual(given, token) else {
            return nil
        }
        var response = HTTPResponse.seeOther("/")
        // Behind an https proxy the browser must never send the token over plain http.
        let secure = publicOrigin?.scheme == "https" ? "; Secure" : ""
        response.headers.append(
            ("Set-Cookie", "\(WebAccess.cookieName)=\(token); Path=/; HttpOnly; SameSite=Strict\(secure)"))
        return response
    }

    /// `nil` when the state change `request` is allowed (see the type's doc), else the `403`.
    public func csrfRefusal(_ request: HTTPRequest) -> HTTPResponse? {
        if let site = request.header("sec-fetch-site"), site != "same-origin", site != "none" {
            return .jsonError(403, "cross-site request refused")
        }
        if let origin = request.header("origin"), !originAllowed(origin, host: request.header("host")) {
            return .jsonError(403, "cross-origin request refused (Origin \(origin))")
        }
        // Neither a DELETE nor a JSON body can come from another site without a CORS preflight.
        if request.method == "DELETE" || request.contentType == "application/json" { return nil }
        let given =
            request.formFields["csrf"] ?? request.multipartFields["csrf"].map { String(decoding: $0, as: UTF8.self) }
        if let given, WebAccess.constantTimeEqual(given, csrfSecret) { return nil }
        return .jsonError(403, "missing or wrong CSRF token (send JSON, or the page's form)")
    }

    /// Whether `origin` (an `Origin` header: `scheme://host[:port]`, or "null" from a sandboxed
    /// context, never allowed) is the dashboard's own origin, compared as RFC 6454 does: scheme,
    /// host and effective port. Allowed: the public origin exactly, and the origin this server
    /// itself serves, `http://` + `host` (it speaks plain HTTP), but behind a public origin only
    /// for a loopback `host` (a direct visit), since there a proxy forwards the public name over
    /// plain HTTP and `http://` + that name is not the public origin.
    func originAllowed(_ origin: String, host: String?) -> Bool {
        guard !origin.hasSuffix("/"), let given = try? HTTPPublicOrigin.parse(origin) else {
            return false
        }
        if let publicOrigin, publicOrigin.matchesOrigin(origin) { return true }
        guard let host, let (name, port) = HTTPPublicOrigin.splitHost(host) else { return false }
        if publicOrigin != nil && !WebAccess.isLoopbackHost(host) { return false }
        return given.scheme == "http" && given.host == name && given.effectivePort == (port ?? 80)
    }

    /// Compares without an early exit, so the time taken does not tell how much matched.
    public static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        var difference = UInt8(x.count == y.count ? 0 : 1)
        for i in 0..<max(x.count, y.count) {
            difference |= (i < x.count ? x[i] : 0) ^ (i < y.count ? y[i] : 0)
        }
        return difference == 0
    }
}
