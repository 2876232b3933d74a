import Foundation

/// Locations of test data, found from this file's path (no SwiftPM resources).
package enum TestData {
    /// The package root: this file is `<root>/Tests/PodcastTestSupport/CorpusSupport.swift`.
    package static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Our own fixtures, always present.
    package static let fixtures = packageRoot.appendingPathComponent("Tests/PodcastFeedsTests/Fixtures")

    /// The shared third-party corpus (`../shared/corpus` next to the clone, or the folder named by
    /// `PODCASTKIT_CORPUS`, for a worktree elsewhere); absent in a user's clone, in which case the
    /// corpus tests are disabled with that reason.
    package static let corpus: URL? = {
        let url =
            ProcessInfo.processInfo.environment["PODCASTKIT_CORPUS"].map { URL(fileURLWithPath: $0) }
            ?? packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")
        return FileManager.default.fileExists(atPath: url.appendingPathComponent("README.md").path) ? url : nil
    }()

    package static var hasCorpus: Bool { corpus != nil }

    /// Set (`LOOPMVVM_SKIP_CORPUS=1`) to run without the shared corpus on purpose (a user's
    /// clone). Without it a missing corpus fails `CorpusPresenceTests`, so that CI and `make
    /// test` never pass with the corpus suites switched off by accident.
    package static var corpusSkipIsExplicit: Bool { ProcessInfo.processInfo.environment["LOOPMVVM_SKIP_CORPUS"] == "1" }

    package static func bytes(_ url: URL) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: url))
    }

    package static func fixture(_ name: String) throws -> [UInt8] {
        try bytes(fixtures.appendingPathComponent(name))
    }

    /// Rows of a corpus `.tsv` table (header dropped; split on TAB only, nothing trimmed).
    package static func table(_ name: String) throws -> [[String]] {
        guard let corpus else { return [] }
        let text = try String(contentsOf: corpus.appendingPathComponent(name), encoding: .utf8)
        var lines = text.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        return lines.dropFirst().map { $0.components(separatedBy: "\t") }
    }
}

/// A JSON value for structural comparison (numbers and booleans compare as numbers).
package indirect enum JSONValue: Equatable, CustomStringConvertible {
    case null
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    package init(_ any: Any?) {
        switch any {
        case nil, is NSNull: self = .null
        case let value as String: self = .string(value)
        case let value as Bool: self = .number(value ? 1 : 0)
        case let value as Int: self = .number(Double(value))
        case let value as Int64: self = .number(Double(value))
        case let value as Double: self = .number(value)
        case let value as NSNumber: self = .number(value.doubleValue)
        case let value as [Any]: self = .array(value.map { JSONValue($0) })
        case let value as [Any?]: self = .array(value.map { JSONValue($0) })
        case let value as [String: Any]: self = .object(value.mapValues { JSONValue($0) })
        case let value as [String: Any?]: self = .object(value.mapValues { JSONValue($0) })
        default: self = .string("<unsupported \(type(of: any!))>")
        }
    }

    package var description: String {
        switch self {
        case .null: return "null"
        case .number(let n): return n == n.rounded() ? String(Int64(n)) : String(n)
        case .string(let s): return "\"\(s)\""
        case .array(let a): return "[" + a.map(\.description).joined(separator: ", ") + "]"
        case .object(let o): return "{" + o.keys.sorted().map { "\($0): \(o[$0]!)" }.joined(separator: ", ") + "}"
        }
    }

    /// Differences as `path: ours=… expected=…`, paths like `episodes[0].title`.
    package static func differences(ours: JSONValue?, expected: JSONValue?, path: String = "") -> [(
        path: String, detail: String
    )] {
        switch (ours, expected) {
        case (.object(let a)?, .object(let b)?):
            return Set(a.keys).union(b.keys).sorted().flatMap { key in
                differences(ours: a[key], expected: b[key], path: path.isEmpty ? key : "\(path).\(key)")
            }
        case (.array(let a)?, .array(let b)?) where a.count == b.count:
            return zip(a, b).enumerated().flatMap { index, pair in
                differences(ours: pair.0, expected: pair.1, path: "\(path)[\(index)]")
            }
        default:
            if ours == expected { return [] }
            return [(path, "ours=\(ours?.description ?? "absent") expected=\(expected?.description ?? "absent")")]
        }
    }
}
