#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Runs the user's `--hook CMD` once per new episode, without blocking the loop.
///
/// `CMD` is the user's own command line: it runs as `/bin/sh -c CMD` exactly as typed. The
/// episode's details are **never** pasted into it; they travel only in environment variables
/// (`HookRunner.environment(for:)`), so a title like `$(rm -rf ~)` stays inert data. Refer to
/// them in CMD as `"$EPISODE_TITLE"`.
///
/// The child gets stdin from `/dev/null`, its stdout joined to our stderr (stdout may carry JSON
/// lines), our stderr, default signal dispositions and an empty signal mask, and no other
/// descriptor: every fd from 3 up is closed in the child (glibc 2.34's
/// `posix_spawn_file_actions_addclosefrom_np`; on an older libc, a close action per fd listed in
/// `/proc/self/fd`), so the hook cannot hold or touch curl's sockets, the SQLite files or the
/// loop's descriptors. At most `maxConcurrent` hooks run at once; the rest wait in order.
///
/// Threading: not thread-safe; use it from one thread (the loop's). Children are collected by
/// `reap()`, which never blocks: call it when `SIGCHLD` arrives (`EventLoop.onSignal`) and/or
/// from a periodic timer. It only waits for its own pids, so other children are left alone.
public final class HookRunner {
    /// How a hook ended.
    public enum Termination: Equatable, Sendable {
        /// It exited with this status.
        case exited(Int32)
        /// A signal killed it.
        case signalled(Int32)
        /// It could not be started (`posix_spawn` errno).
        case spawnFailed(Int32)
    }

    /// The shell command line, as given to `--hook`.
    public let command: String
    /// How many hooks may run at the same time.
    public let maxConcurrent: Int
    /// Called on the reaping thread when a hook ends (including spawn failures), with the
    /// announcement it ran for.
    public var onTermination: ((EpisodeAnnouncement, Termination) -> Void)?

    /// False forces the `/proc/self/fd` fallback (tests of the older-libc path).
    var usesCloseFrom = true
    private var running: [pid_t: EpisodeAnnouncement] = [:]
    private var queue: [(episode: EpisodeAnnouncement, issued: (() -> Void)?)] = []
    private let shell: String

    /// A runner for `command`. `shell` is the interpreter given `-c command` (tests may point it
    /// elsewhere); `maxConcurrent` is clamped to at least 1.
    public init(command: String, maxConcurrent: Int = 4, shell: String = "/bin/sh") {
        self.command = command
        self.maxConcurrent = max(1, maxConcurrent)
        self.shell = shell
    }

    /// Hooks started and not yet reaped.
    public var runningCount: Int { running.count }
    /// Hooks waiting for a free slot.
    public var queuedCount: Int { queue.count }

    /// Starts the hook for `episode`, or queues it when `maxConcurrent` are running. `issued`
    /// runs once the hook was handed to the system: spawned, or reported as `.spawnFailed` (it
    /// never runs for a hook dropped by `dropQueued()`). It may run before `run` returns.
    public func run(for episode: EpisodeAnnouncement, issued: (() -> Void)? = nil) {
        queue.append((episode, issued))
        startQueued()
    }

    /// Collects every finished child without blocking, reports it through `onTermination`, and
    /// starts queued hooks in the freed slots. Returns how many were collected.
    @discardableResult
    public func reap() -> Int {
        var finished: [(EpisodeAnnouncement, Termination)] = []
        for (pid, episode) in running {
            var status: Int32 = 0
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid {
                running[pid] = nil
                finished.append((episode, HookRunner.termination(status)))
            } else if r < 0 && errno == ECHILD {
                running[pid] = nil  // someone else reaped it; nothing to report but the slot
                finished.append((episode, .exited(-1)))
            }
        }
        startQueued()
        for (episode, how) in finished { onTermination?(episode, how) }
        return finished.count
    }

    /// Drops the hooks still waiting for a slot (at shutdown) and returns how many there were.
    /// Running hooks are left to finish on their own.
    @discardableResult
    public func dropQueued() -> Int {
        defer { queue.removeAll() }
        return queue.count
    }

    /// The variables a hook sees in addition to the daemon's environment. Absent values are
    /// empty strings, so `set -u` scripts work; NUL bytes are removed.
    /// `PODCAST_TITLE, FEED_URL, EPISODE_TITLE, EPISODE_URL` (primary enclosure),
    /// `EPISODE_GUID, EPISODE_LINK, EPISODE_PUBLISHED` (ISO 8601 UTC), `EPISODE_DURATION`
    /// (seconds), `EPISODE_MIME_TYPE, EPISODE_LENGTH` (bytes).
    public static func environment(for e: EpisodeAnnouncement) -> [(String, String)] {
        // Int64(_:) traps past ±9.2e18 (a feed's duration can be anything): whole numbers only below 1e15.
        let duration = e.duration.map { abs($0) < 1e15 && $0 == $0.rounded() ? String(Int64($0)) : String($0) }
        return [
            ("PODCAST_TITLE", e.podcastTitle ?? ""), ("FEED_URL", MaskedURL.string(e.feedURL)),
            ("EPISODE_TITLE", e.title ?? ""), ("EPISODE_URL", e.url ?? ""),
            ("EPISODE_GUID", e.guid ?? ""), ("EPISODE_LINK", e.link ?? ""),
            ("EPISODE_PUBLISHED", e.published.map(OrderedJSON.iso8601) ?? ""),
            ("EPISODE_DURATION", duration ?? ""), ("EPISODE_MIME_TYPE", e.mimeType ?? ""),
            ("EPISODE_LENGTH", e.length.map(String.init) ?? ""),
        ].map { ($0.0, $0.1.replacingOccurrences(of: "\0", with: "")) }
    }

    private func startQueued() {
        while running.count < maxConcurrent, !queue.isEmpty {
            let (episode, issued) = queue.removeFirst()
            switch spawn(episode) {
            case .success(let pid): running[pid] = episode
            case .failure(let err): onTermination?(episode, .spawnFailed(err.code))
            }
            issued?()
        }
    }

    private struct SpawnError: Error { var code: Int32 }

    private func spawn(_ episode: EpisodeAnnouncement) -> Result<pid_t, SpawnError> {
        // Our environment with the episode's variables replacing any of the same name.
        let extra = HookRunner.environment(for: episode)
        let names = Set(extra.map(\.0))
        var env = ProcessInfo.processInfo.environment.filter { !names.contains($0.key) }.map { "\($0.key)=\($0.value)" }
        env += extra.map { "\($0.0)=\($0.1)" }
        let argv = [shell, "-c", command]

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, 2, 1)
        // Whatever the daemon has open (libcurl does not mark its sockets close-on-exec).
        HookRunner.closeInheritedDescriptors(&actions, usingCloseFrom: usesCloseFrom)

        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attr, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for sig in [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGCHLD, SIGPIPE] { sigaddset(&defaults, sig) }
        posix_spawnattr_setsigdefault(&attr, &defaults)
        posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var pid: pid_t = 0
        let rc = withCStrings(argv) { cArgv in
            withCStrings(env) { cEnv in
                posix_spawn(&pid, shell, &actions, &attr, cArgv, cEnv)
            }
        }
        return rc == 0 ? .success(pid) : .failure(SpawnError(code: rc))
    }

    // glibc ≥ 2.34 exports posix_spawn_file_actions_addclosefrom_np, but Swift's Glibc module does
    // not declare it: look it up once at run time.
    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private static let addCloseFrom: AddCloseFrom? = {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: AddCloseFrom.self)
    }()

    static func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t, usingCloseFrom: Bool) {
        if usingCloseFrom, let addCloseFrom = HookRunner.addCloseFrom, addCloseFrom(&actions, 3) == 0 { return }
        // Fallback: close what is open now. glibc's spawn ignores EBADF from a close action, so
        // a descriptor closed meanwhile does not fail the spawn.
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return }
        for fd in names.compactMap({ Int32($0) }).sorted() where fd > 2 {
            posix_spawn_file_actions_addclose(&actions, fd)
        }
    }

    private static func termination(_ status: Int32) -> Termination {
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import as functions.
        let signal = status & 0x7f
        if signal == 0 { return .exited((status >> 8) & 0xff) }
        return .signalled(signal)
    }
}

// A NULL-terminated C array of strdup'ed strings, valid inside `body`.
private func withCStrings<T>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> T) -> T {
    var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
    pointers.append(nil)
    defer { for p in pointers { free(p) } }
    return body(pointers)
}
