import Foundation
import PodcastFeeds

/// Turns an episode into a safe relative file path under the download directory, from a
/// template such as `{podcast}/{date} {title}.{ext}` (the default).
///
/// Tokens: `{podcast}` (the podcast's title, else its host), `{title}` (the episode's title, else
/// its guid, else "episode"), `{date}` (publication date as `YYYY-MM-DD` in UTC, else the day it
/// was first seen), `{ext}` (see `fileExtension`), `{guid}`, `{id}` (the store's episode number).
/// A `/` in the template separates folders; a `/` inside a value never does.
///
/// Every path component is made safe whatever the feed says (podget, castget and gPodder all had
/// bugs here): control and invisible format characters (NUL, ESC, U+202E...) are dropped, `/`,
/// `\` and the characters FAT/SMB refuse (`<>:"|?*`) become `_`, leading and trailing dots and
/// blanks go (so no `..`, no hidden files), reserved device names (`CON`, `NUL`, `COM1`...) get
/// a `_` prefix, an empty component becomes `_`, and each is cut to `maxComponentBytes` UTF-8
/// bytes on a character boundary, keeping the extension. The result is always relative and
/// never leaves the directory.
///
/// Pure and `Sendable`: any thread.
public struct DownloadNaming: Sendable, Equatable {
    /// `{podcast}/{date} {title}.{ext}`.
    public static let defaultTemplate = "{podcast}/{date} {title}.{ext}"
    /// The tokens a template may use.
    public static let tokens: Set<String> = ["podcast", "title", "date", "ext", "guid", "id"]
    /// Longest component in UTF-8 bytes: `NAME_MAX` (255) less room for ` (999)` and `.part`.
    public static let maxComponentBytes = 200

    /// The template, as given.
    public let template: String

    /// The naming of `defaultTemplate`, built without the checks it passes (see
    /// `DownloadNamingTests`), so the default needs no `try`.
    public static let standard = DownloadNaming(checked: defaultTemplate)

    /// A naming from a template known to pass `init(template:)`'s checks.
    private init(checked template: String) {
        self.template = template
    }

    /// A naming from `template`; throws `OptionValueError` (for `--download-name`) on an unknown
    /// token, an unclosed `{`, or a template without `{ext}` or a title-like token.
    public init(template: String = DownloadNaming.defaultTemplate) throws(OptionValueError) {
        var rest = Substring(template)
        var used: Set<String> = []
        while let open = rest.firstIndex(of: "{") {
            guard let close = rest[open...].firstIndex(of: "}") else {
                throw OptionValueError("the name template '\(TerminalText.line(template))' has an unclosed '{'")
            }
            let name = String(rest[rest.index(after: open)..<close])
            guard DownloadNaming.tokens.contains(name) else {
                throw OptionValueError(
                    "the name template has an unknown token '{\(TerminalText.line(name))}' (known: {podcast}, {title}, {date}, {ext}, {guid}, {id})"
                )
            }
            used.insert(name)
            rest = rest[rest.index(after: close)...]
        }
        guard used.contains("title") || used.contains("guid") || used.contains("id") else {
            throw OptionValueError("the name template needs {title}, {guid} or {id}, so episodes get different names")
        }
        self.template = template
    }

    /// What a template is filled with.
    public struct Fields: Sendable, Equatable {
        /// The podcast's title (or `nil`).
        public var podcast: String?
        /// The episode's title (or `nil`).
        public var title: String?
        /// The episode's guid (or `nil`).
        public var guid: String?
        /// The store's episode id.
        public var episodeID: Int64
        /// Publication date, else first seen.
        public var date: Date
        /// The enclosure URL.
        public var url: String
        /// The enclosure's MIME type (or `nil`).
        public var mimeType: String?

        /// Fields for one episode.
        public init(
            podcast: String?, title: String?, guid: String?, episodeID: Int64, date: Date, url: String,
            mimeType: String?
        ) {
            self.podcast = podcast
            self.title = title
            self.guid = guid
            self.episodeID = episodeID
            self.date = date
            self.url = url
            self.mimeType = mimeType
        }
    }

    /// The relative path for `fields`: safe components joined by `/`.
    public func relativePath(for fields: Fields) -> String {
        let ext = DownloadNaming.fileExtension(url: fields.url, mimeType: fields.mimeType)
        let host = URLComponents(string: fields.url)?.host
        let values: [String: String] = [
            "podcast": DownloadNaming.nonBlank(fields.podcast) ?? host ?? "podcast",
            "title": DownloadNaming.nonBlank(fields.title) ?? DownloadNaming.nonBlank(fields.guid) ?? "episode",
            "date": DownloadNaming.day(fields.date),
            "ext": ext,
            "guid": DownloadNaming.nonBlank(fields.guid) ?? "no-guid",
            "id": String(fields.episodeID),
        ]
        // Components are split on the template's own slashes, then filled: a value's `/` is data.
        let components = template.split(separator: "/", omittingEmptySubsequences: true).map { part -> String in
            var out = ""
            var rest = Substring(part)
            while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
                out += rest[..<open]
                out += values[String(rest[rest.index(after: open)..<close])] ?? ""
                rest = rest[rest.index(after: close)...]
            }
            out += rest
            return out
        }
        let safe = components.enumerated().map { index, component in
            DownloadNaming.safeComponent(component, keepExtension: index == components.count - 1)
        }
        return safe.isEmpty ? "_" : safe.joined(separator: "/")
    }

    /// `path` with ` (n)` before its extension: the n-th candidate when the name is taken.
    public static func numbered(_ path: String, _ n: Int) -> String {
        guard n > 1 else { return path }
        let slash = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        let name = path[slash...]
        if let dot = name.lastIndex(of: "."), dot > name.startIndex {
            return String(path[..<dot]) + " (\(n))" + String(path[dot...])
        }
        return path + " (\(n))"
    }

    /// The inverse of `numbered`: `path` without a trailing ` (n)` before its extension, and n
    /// (1 when it has none).
    public static func unnumbered(_ path: String) -> (path: String, number: Int) {
        let slash = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        let name = path[slash...]
        let dot = name.lastIndex(of: ".").flatMap { $0 > name.startIndex ? $0 : nil } ?? name.endIndex
        let stem = path[..<dot]
        guard stem.hasSuffix(")"), let open = stem.range(of: " (", options: .backwards) else { return (path, 1) }
        let digits = stem[open.upperBound..<stem.index(before: stem.endIndex)]
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(digits), n >= 2 else {
            return (path, 1)
        }
        return (String(stem[..<open.lowerBound]) + String(path[dot...]), n)
    }

    /// The file extension: the URL path's (1 to 5 letters or digits, lower-cased: `mp3`, `m4a`;
    /// never `part`, the in-progress suffix), else one for the MIME type, else `bin`.
    public static func fileExtension(url: String, mimeType: String?) -> String {
        let path = URLComponents(string: url)?.percentEncodedPath ?? ""
        let last = path.split(separator: "/").last ?? ""
        if let dot = last.lastIndex(of: ".") {
            let ext = last[last.index(after: dot)...].lowercased()
            // `part` is the in-progress suffix: a final name must never look like a part file.
            if (1...5).contains(ext.count), ext != "part",
                ext.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) })
            {
                return ext
            }
        }
        let mime = (mimeType ?? "").split(separator: ";").first.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }
        return mime.flatMap { mimeExtensions[$0] } ?? "bin"
    }

    static let mimeExtensions: [String: String] = [
        "audio/mpeg": "mp3", "audio/mp3": "mp3", "audio/x-mpeg": "mp3", "audio/mp4": "m4a", "audio/x-m4a": "m4a",
        "audio/m4a": "m4a", "audio/aac": "aac", "audio/aacp": "aac", "audio/ogg": "ogg", "audio/opus": "opus",
        "audio/vorbis": "ogg", "audio/flac": "flac", "audio/x-flac": "flac", "audio/wav": "wav",
        "audio/x-wav": "wav", "audio/webm": "weba", "video/mp4": "mp4", "video/x-m4v": "m4v",
        "video/quicktime": "mov", "video/webm": "webm", "video/mpeg": "mpg", "application/pdf": "pdf",
        "application/ogg": "ogg", "image/jpeg": "jpg", "image/png": "png",
    ]

    /// One safe path component (see the type's documentation). `keepExtension`: when cutting to
    /// length, keep the part from the last dot.
    public static func safeComponent(_ raw: String, keepExtension: Bool = false) -> String {
        var scalars = String.UnicodeScalarView()
        var lastWasSpace = false
        for scalar in raw.unicodeScalars {
            // Blanks (newlines and tabs too) become one space; other controls go.
            if scalar.properties.isWhitespace {
                if !lastWasSpace { scalars.append(" ") }
                lastWasSpace = true
                continue
            }
            switch scalar.properties.generalCategory {
            case .control, .format, .unassigned, .surrogate, .privateUse:
                continue
            default: break
            }
            lastWasSpace = false
            scalars.append("/\\<>:\"|?*".unicodeScalars.contains(scalar) ? "_" : scalar)
        }
        var name = String(scalars).trimmingCharacters(in: CharacterSet(charactersIn: " ."))
        if name.isEmpty { return "_" }
        let stem = name.split(separator: ".", maxSplits: 1).first.map(String.init)?.uppercased() ?? ""
        if reservedNames.contains(stem.trimmingCharacters(in: .whitespaces)) { name = "_" + name }
        return cut(name, to: maxComponentBytes, keepExtension: keepExtension)
    }

    static let reservedNames: Set<String> = {
        var names: Set<String> = ["CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$"]
        for n in 0...9 {
            names.insert("COM\(n)")
            names.insert("LPT\(n)")
        }
        return names
    }()

    // Cuts `name` to `limit` UTF-8 bytes on a character boundary, keeping a short extension.
    private static func cut(_ name: String, to limit: Int, keepExtension: Bool) -> String {
        guard name.utf8.count > limit else { return name }
        var ext = ""
        var stem = Substring(name)
        if keepExtension, let dot = name.lastIndex(of: "."), name.distance(from: dot, to: name.endIndex) <= 8 {
            ext = String(name[dot...])
            stem = name[..<dot]
        }
        var kept = ""
        var bytes = 0
        for character in stem {
            let size = character.utf8.count
            if bytes + size > limit - ext.utf8.count { break }
            kept.append(character)
            bytes += size
        }
        let trimmed = kept.trimmingCharacters(in: CharacterSet(charactersIn: " ."))
        return (trimmed.isEmpty ? "_" : trimmed) + ext
    }

    private static func nonBlank(_ text: String?) -> String? {
        guard let text, !text.allSatisfy({ $0.isWhitespace }) else { return nil }
        return text
    }

    private static func day(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        let c = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", c.year ?? 1970, c.month ?? 1, c.day ?? 1)
    }
}
