import Foundation
import PodcastFeeds

/// The key that says "this is the same episode" across polls of one feed.
///
/// Chosen in this order (the podcast-watch rule): the `guid`; else the primary
/// enclosure URL without its query string and fragment; else the `link`; else a stable FNV-1a
/// 64-bit hash of the title and publication date. `key` carries a kind prefix (`guid:`,
/// `enclosure:`, `link:`, `hash:`) so a guid can never collide with a URL of another item.
public struct EpisodeIdentity: Hashable, Sendable, CustomStringConvertible {
    /// Which field the identity came from.
    public enum Kind: String, Sendable {
        /// RSS `guid` / Atom `id`.
        case guid
        /// The primary enclosure URL, query and fragment removed.
        case enclosure
        /// The item's `link`.
        case link
        /// FNV-1a 64 of title and date.
        case hash
    }

    /// Which field the identity came from.
    public let kind: Kind
    /// The stored key, `"<kind>:<value>"`.
    public let key: String

    /// The identity of `episode`. Blank fields (empty after trimming) count as absent.
    public init(_ episode: Episode) {
        if let guid = EpisodeIdentity.nonBlank(episode.guid) {
            kind = .guid
            key = "guid:" + guid
        } else if let url = EpisodeIdentity.nonBlank(episode.primaryEnclosure?.url) {
            kind = .enclosure
            key = "enclosure:" + EpisodeIdentity.enclosureKey(url)
        } else if let link = EpisodeIdentity.nonBlank(episode.link) {
            kind = .link
            key = "link:" + link
        } else {
            kind = .hash
            let title = episode.title ?? ""
            // Whole seconds, so a date re-parsed with a different fraction keeps the identity.
            // (Int64(_:) traps out of range: a date far outside it keeps its Double spelling.)
            let date =
                episode.published.map { d -> String in
                    let seconds = d.timeIntervalSince1970.rounded(.down)
                    return abs(seconds) < 9e18 ? String(Int64(seconds)) : String(seconds)
                } ?? ""
            let hash = EpisodeIdentity.fnv1a64(Array((title + "\u{1F}" + date).utf8))
            key = "hash:" + String(hash, radix: 16)
        }
    }

    /// True for a guid or enclosure identity: one that survives a truncated (degraded) parse of
    /// the item. A link or hash identity may be the fallback of an item cut short.
    public var isStrong: Bool { kind == .guid || kind == .enclosure }

    /// The key.
    public var description: String { key }

    /// `url` trimmed, with its query (`?...`) and fragment (`#...`) removed: enclosure URLs often
    /// carry tracking parameters that change between polls.
    public static func enclosureKey(_ url: String) -> String {
        let trimmed = url.trimmingCharacters(in: .whitespacesAndNewlines)
        let cut = trimmed.firstIndex { $0 == "?" || $0 == "#" } ?? trimmed.endIndex
        return String(trimmed[..<cut])
    }

    /// FNV-1a, 64-bit (offset basis 0xcbf29ce484222325, prime 0x100000001b3), as specified by
    /// Fowler, Noll and Vo. Stable across runs and platforms, unlike `Hasher`.
    public static func fnv1a64(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    static func nonBlank(_ s: String?) -> String? {
        guard let t = s?.trimmingCharacters(in: .whitespacesAndNewlines), !t.isEmpty else { return nil }
        return t
    }
}
