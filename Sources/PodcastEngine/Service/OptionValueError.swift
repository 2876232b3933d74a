/// A value the daemon or the web layer cannot take for one of `run`'s options (a flag or a
/// config-file key): `message` names the option and says what is wrong, without the program
/// name. The layer that owns an option checks it and throws this; the command line turns it into
/// its usage error (exit status 2), so these layers need nothing of the command line.
///
/// Pure value; any thread.
public struct OptionValueError: Error, Equatable, Sendable, CustomStringConvertible {
    /// One line saying what is wrong (for example `the name template has an unclosed '{'`).
    public var message: String

    /// An error saying `message`.
    public init(_ message: String) {
        self.message = message
    }

    /// `message`.
    public var description: String { message }
}
