import PodcastEngine

/// A wrong command line. `message` names the problem; `command` says which command's usage to
/// print after it (`nil`: the general usage). Leads to exit status 2 (`ExitCode.usage`).
public struct UsageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// One line saying what is wrong, without the program name (for example
    /// `unknown option '--fast' for 'run'`).
    public var message: String
    /// The command whose usage applies, or `nil` for the top-level usage.
    public var command: String?

    /// A usage error for `command` (or the top level).
    public init(_ message: String, command: String? = nil) {
        self.message = message
        self.command = command
    }

    /// `message`.
    public var description: String { message }
}

extension UsageError {
    /// A lower layer's refusal of an option's value (`OptionValueError`: the web layer's
    /// `--http` address, the engine's download name template) as a usage error of `command`.
    public init(_ error: OptionValueError, command: String?) {
        self.init(error.message, command: command)
    }
}
