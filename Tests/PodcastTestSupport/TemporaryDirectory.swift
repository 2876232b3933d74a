import Foundation

/// A fresh directory under the system temp dir, removed when the value is released.
package final class TemporaryDirectory {
    package let path: String

    package init(_ label: String = "pw") {
        let base = FileManager.default.temporaryDirectory.path
        path = base + "/\(label)-\(getpid())-\(UUID().uuidString.prefix(8))"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// `path/name`.
    package func file(_ name: String) -> String { path + "/" + name }
}
