import Foundation

/// Where `podcast-watch` keeps its state (the SQLite database).
public enum StateLocation {
    /// The database file name inside the state directory.
    public static let databaseName = "podcast-watch.sqlite"

    /// The default state directory, per the XDG Base Directory spec:
    /// `$XDG_STATE_HOME/podcast-watch` when that variable is set to an absolute path (relative
    /// values are ignored, as the spec says), else `$HOME/.local/state/podcast-watch`. `nil` when
    /// neither is usable.
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String?
    {
        if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") {
            return trimSlash(xdg) + "/podcast-watch"
        }
        if let home = environment["HOME"], home.hasPrefix("/") {
            return trimSlash(home) + "/.local/state/podcast-watch"
        }
        return nil
    }

    /// Where feeds set `add --download` save their episodes when `run` has no `--download DIR`
    /// (XDG data, not state: the files are the user's): `$XDG_DATA_HOME/podcast-watch/downloads`
    /// (absolute values only), else `$HOME/.local/share/podcast-watch/downloads`; `nil` when
    /// neither is usable.
    public static func downloadDirectory(environment: [String: String]) -> String? {
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            return trimSlash(xdg) + "/podcast-watch/downloads"
        }
        if let home = environment["HOME"], home.hasPrefix("/") {
            return trimSlash(home) + "/.local/share/podcast-watch/downloads"
        }
        return nil
    }

    /// Resolves `--state DIR` (relative to `currentDirectory`) or the default directory.
    public static func resolve(
        _ option: String?, environment: [String: String] = ProcessInfo.processInfo.environment,
        currentDirectory: String = FileManager.default.currentDirectoryPath
    ) -> String? {
        guard let option else { return defaultDirectory(environment: environment) }
        return option.hasPrefix("/") ? option : currentDirectory + "/" + option
    }

    private static func trimSlash(_ s: String) -> String {
        var s = s
        while s.count > 1 && s.hasSuffix("/") { s.removeLast() }
        return s
    }
}
