import Foundation
import PodcastFeeds

#if canImport(Glibc)
import Glibc
#endif

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
/// With `outputFD` (`run --hook-log`), the child's stdout and stderr both go to that file
/// instead, after a header line naming the episode, so hooks never scramble the live table.
///
/// Each hook runs in a process group of its own, so a `Policy.timeout` kills the shell and
/// whatever it started (SIGKILL to the group). A hook that exits non-zero, is killed or times
/// out is retried `Policy.retries` times, `Policy.delay(beforeRetry:)` apart (15 s, 30 s, 60 s
/// for the daemon's default); `onOutcome` reports each retry and the final result once (or
/// `.interrupted`, see below).
///
/// Shutdown (`shutDown(grace:completion:)`): nothing new starts; a hook still running gets
/// `shutdownGrace` seconds (5 s in `run`) to finish, then its process group is killed and it is
/// reported as `.interrupted`, to be run again (the same attempt) at the next start. The
/// daemon persists every retry still owed (`.retrying`, `.interrupted`) in the store, so none
/// is lost to a stop or a crash.
///
/// Threading: not thread-safe; use it from one thread (the loop's). Children are collected by
/// `reap()`, which never blocks: call it when `SIGCHLD` arrives (`EventLoop.onSignal`) and/or
/// from a periodic timer. It only waits for its own pids, so other children are left alone.
/// Retry delays and timeouts run through `after`, on the same thread.
public final class HookRunner {
    /// How a hook ended.
    public enum Termination: Equatable, Sendable {
        /// It exited with this status.
        case exited(Int32)
        /// A signal killed it.
        case signalled(Int32)
        /// It could not be started (`posix_spawn` errno).
        case spawnFailed(Int32)
        /// It ran past `Policy.timeout` (seconds) and was killed.
        case timedOut(Double)

        /// Whether this counts as success (exit status 0).
        public var succeeded: Bool { self == .exited(0) }

        /// For messages: "exited with status 3", "killed by signal 9", "timed out after 600 s".
        public var description: String {
            switch self {
            case .exited(let code): return "exited with status \(code)"
            case .signalled(let sig): return "killed by signal \(sig)"
            case .spawnFailed(let err): return "could not be started: \(String(cString: strerror(err)))"
            case .timedOut(let seconds): return "timed out after \(HookRunner.Policy.format(seconds)) s and was killed"
            }
        }
    }

    /// Retries and timeout. The daemon uses `daemonDefault`; a bare runner retries nothing and
    /// lets hooks run as long as they like.
    public struct Policy: Equatable, Sendable {
        /// Further attempts after a failed one (0: none).
        public var retries: Int
        /// Seconds before the first retry; each later one waits twice as long as the one before.
        public var firstRetryDelay: Double
        /// Seconds a hook may run before it is killed; `nil`: no limit.
        public var timeout: Double?

        /// A policy; `retries` is clamped to 0...10, delays to at least 0.
        public init(retries: Int = 0, firstRetryDelay: Double = 15, timeout: Double? = nil) {
            self.retries = min(max(0, retries), 10)
            self.firstRetryDelay = max(0, firstRetryDelay)
            self.timeout = timeout
        }

        /// `run`'s default: 3 retries 15 s, 30 s and 60 s after the failures, 10 minutes per run.
        public static let daemonDefault = Policy(retries: 3, firstRetryDelay: 15, timeout: 600)

        /// Seconds to wait before retry `n` (1-based): `firstRetryDelay × 2^(n-1)`.
        public func delay(beforeRetry n: Int) -> Double {
            firstRetryDelay * Double(1 << min(max(0, n - 1), 20))
        }

        package static func format(_ seconds: Double) -> String {
            seconds == seconds.rounded() && abs(seconds) < 1e15 ? String(Int64(seconds)) : String(seconds)
        }
    }

    /// What became of one announcement's hook, reported through `onOutcome`.
    public enum Outcome: Equatable, Sendable {
        /// Attempt `attempt` (1-based) failed; the next starts after `delay` seconds.
        case retrying(Termination, attempt: Int, delay: Double)
        /// The hook succeeded on attempt `attempts`.
        case succeeded(attempts: Int)
        /// Every attempt failed; the last one ended this way.
        case failed(Termination, attempts: Int)
        /// Attempt `attempt` was still running at shutdown and was killed (its process group):
        /// not the hook's failure, so the same attempt is owed at the next start. `grace`: the
        /// seconds it was given first; `nil` when it was killed without waiting (a second
        /// SIGTERM, or a shutdown with no grace).
        case interrupted(Termination, attempt: Int, grace: Double? = HookRunner.shutdownGrace)
        /// An owed attempt beyond a lowered `policy.retries` (a reload, or a start with a lower
        /// limit than the run that owed it) was given up without running: `attempts` were made,
        /// the last one ended as `lastError` says. Final, like `.failed`.
        case gaveUp(lastError: String, attempts: Int)
    }

    /// Seconds a hook still running at shutdown is given to finish before its process group is
    /// killed: `run`'s default, well inside a service manager's stop timeout (30 s in our units).
    public static let shutdownGrace: Double = 5

    /// The shell command line, as given to `--hook`. A reload may change it: attempts started
    /// afterwards (new episodes, and retries still owed) run the new one; running ones go on.
    public var command: String
    /// How many hooks may run at the same time.
    public let maxConcurrent: Int
    /// Called on the reaping thread when a hook ends (including spawn failures), with the
    /// announcement it ran for. Once per attempt.
    public var onTermination: ((EpisodeAnnouncement, Termination) -> Void)?
    /// Called after every attempt with what follows: a retry, the final result (once per
    /// announcement), or `.interrupted` for a hook killed at shutdown. Runs after
    /// `onTermination`.
    public var onOutcome: ((EpisodeAnnouncement, Outcome) -> Void)?
    /// Retries and timeout. A reload may change it: a retry is decided, and a timeout armed,
    /// with the policy in force when the attempt ends or starts; a retry waiting whose attempt
    /// is beyond the new limit is given up at once (`.gaveUp` through `onOutcome`).
    public var policy: Policy {
        didSet { giveUpBeyondLimit() }
    }
    /// Runs an action after a delay in seconds, on this runner's thread: the loop's timer in the
    /// daemon, a virtual clock in tests. Without it, no retry and no timeout happens.
    public var after: ((Double, @escaping () -> Void) -> Void)?
    /// When true (`run --once`), a failed attempt with retries left is reported as `.retrying`
    /// (for the caller to keep, as at shutdown) but not waited for in this process: the retry is
    /// owed to the next start. So a pass ends when every first attempt has, whatever the backoff
    /// and whichever of a hook's end and the last poll comes first.
    public var defersRetries = false
    /// Where the hooks' stdout and stderr go instead of our stderr (`--hook-log`); the runner
    /// does not own it (the caller closes it after the last hook).
    public var outputFD: Int32?
    /// Without `outputFD`: reads the hooks' stdout and stderr through pipes and writes them
    /// neutralised, line by line (journal level prefixes under systemd); `nil`: the hooks
    /// write to our stderr directly (tests).
    public var outputRelay: HookOutputRelay?

    /// False forces the `/proc/self/fd` fallback (tests of the older-libc path).
    var usesCloseFrom = true
    private struct Running {
        var episode: EpisodeAnnouncement
        var attempt: Int
        var serial: Int
        var timedOut = false
        var killedAtShutdown = false
        var timeout: Double?  // the policy's when it started (a reload may change the policy)
    }
    private var running: [pid_t: Running] = [:]
    private var queue: [(episode: EpisodeAnnouncement, issued: (() -> Void)?, attempt: Int)] = []
    private var serials = 0
    // Retries waiting out their delay, by token: the attempt owed and how the last one ended.
    private var waiting: [Int: (episode: EpisodeAnnouncement, attempt: Int, lastError: String)] = [:]
    private var waitingTokens = 0
    private var stopped = false
    private var shutdownCompletion: (() -> Void)?
    private var killedAtShutdown = false
    // The grace the killed hooks were given (nil: killed without waiting).
    private var killGrace: Double?
    private let shell: String

    /// A runner for `command`. `shell` is the interpreter given `-c command` (tests may point it
    /// elsewhere); `maxConcurrent` is clamped to at least 1.
    public init(command: String, maxConcurrent: Int = 4, shell: String = "/bin/sh", policy: Policy = Policy()) {
        self.command = command
        self.maxConcurrent = max(1, maxConcurrent)
        self.shell = shell
        self.policy = policy
    }

    /// Hooks started and not yet reaped.
    public var runningCount: Int { running.count }
    /// Hooks waiting for a free slot.
    public var queuedCount: Int { queue.count }
    /// Failed hooks waiting out their retry delay.
    public var retryingCount: Int { waiting.count }

    /// Starts the hook for `episode`, or queues it when `maxConcurrent` are running. `issued`
    /// runs once the hook was handed to the system: spawned, or reported as `.spawnFailed` (it
    /// never runs for a hook dropped by `dropQueued()`). It may run before `run` returns.
    public func run(for episode: EpisodeAnnouncement, issued: (() -> Void)? = nil) {
        queue.append((episode, issued, 1))
        startQueued()
    }

    /// Collects every finished child without blocking, reports it through `onTermination`, and
    /// starts queued hooks in the freed slots. Returns how many were collected.
    @discardableResult
    public func reap() -> Int {
        var finished: [(Running, Termination)] = []
        for (pid, entry) in running {
            var status: Int32 = 0
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid {
                running[pid] = nil
                let how = entry.timedOut ? Termination.timedOut(entry.timeout ?? 0) : HookRunner.termination(status)
                finished.append((entry, how))
            } else if r < 0 && errno == ECHILD {
                running[pid] = nil  // someone else reaped it; nothing to report but the slot
                finished.append((entry, .exited(-1)))
            }
        }
        startQueued()
        for (entry, how) in finished {
            if entry.killedAtShutdown {
                onTermination?(entry.episode, how)
                onOutcome?(entry.episode, .interrupted(how, attempt: entry.attempt, grace: killGrace))
            } else {
                ended(entry.episode, attempt: entry.attempt, how)
            }
        }
        finishShutdownIfIdle()
        return finished.count
    }

    /// Begins the shutdown: drops what waits for a slot or a retry (as `dropQueued()`), and
    /// gives the running hooks `grace` seconds (through `after`) before killing their process
    /// groups with SIGKILL; they are reported as `.interrupted` when reaped. `completion` runs
    /// once no hook is running (at once when none is). Calling it again kills at once (a second
    /// SIGTERM: the operator does not want to wait). Without `after`, the kill is immediate.
    public func shutDown(grace: Double = HookRunner.shutdownGrace, completion: @escaping () -> Void) {
        let again = stopped && shutdownCompletion != nil
        dropQueued()
        if shutdownCompletion == nil { shutdownCompletion = completion }
        if running.isEmpty {
            finishShutdownIfIdle()
            return
        }
        if again || after == nil || grace <= 0 {
            killRunning(grace: nil)
        } else {
            after?(grace) { [weak self] in self?.killRunning(grace: grace) }
        }
    }

    // SIGKILL to every running hook's group; they are reported when reaped, with `grace`.
    private func killRunning(grace: Double?) {
        guard !killedAtShutdown else { return }
        killedAtShutdown = true
        killGrace = grace
        for pid in running.keys {
            running[pid]!.killedAtShutdown = true
            kill(-pid, SIGKILL)
            kill(pid, SIGKILL)
        }
    }

    private func finishShutdownIfIdle() {
        guard running.isEmpty, let completion = shutdownCompletion else { return }
        shutdownCompletion = {}  // once; a later call to shutDown stays a shutdown
        completion()
    }

    /// Schedules attempt `attempt` of `episode`'s hook after `delay` seconds (0: now): a retry
    /// owed from an earlier run, read back from the store at start. It counts as waiting for a
    /// retry (`retryingCount`) until it is queued; `issued` is not involved (the announcement
    /// was delivered then). Ignored after shutdown began. An attempt beyond `policy.retries + 1`
    /// (the limit was lowered since) is given up at once: `.gaveUp` with `lastError`.
    public func resume(_ episode: EpisodeAnnouncement, attempt: Int, after delay: Double, lastError: String? = nil) {
        guard !stopped else { return }
        let attempt = max(1, attempt)
        let lastError = lastError ?? "failed"
        if attempt > policy.retries + 1 {
            onOutcome?(episode, .gaveUp(lastError: lastError, attempts: attempt - 1))
            return
        }
        guard delay > 0, let after else {
            queue.append((episode, nil, attempt))
            startQueued()
            return
        }
        wait(episode, attempt: attempt, lastError: lastError, delay: delay, after: after)
    }

    // Holds attempt `attempt` until `delay` has passed, then queues it (unless given up or
    // stopped meanwhile).
    private func wait(
        _ episode: EpisodeAnnouncement, attempt: Int, lastError: String, delay: Double,
        after: (Double, @escaping () -> Void) -> Void
    ) {
        waitingTokens += 1
        let token = waitingTokens
        waiting[token] = (episode, attempt, lastError)
        after(delay) { [weak self] in
            guard let self, self.waiting.removeValue(forKey: token) != nil else { return }
            guard !self.stopped else { return }
            self.queue.append((episode, nil, attempt))
            self.startQueued()
        }
    }

    // The retries waiting for an attempt the policy no longer allows: given up now, in the
    // order they were scheduled.
    private func giveUpBeyondLimit() {
        guard !stopped else { return }  // owed to the next start, which applies its own limit
        let limit = policy.retries + 1
        for token in waiting.keys.sorted() {
            guard let owed = waiting[token], owed.attempt > limit else { continue }
            waiting[token] = nil
            onOutcome?(owed.episode, .gaveUp(lastError: owed.lastError, attempts: owed.attempt - 1))
        }
    }

    /// Drops the hooks still waiting for a slot or a retry (at shutdown) and returns how many
    /// there were. Running hooks are left to finish on their own (`shutDown` limits that);
    /// none is retried in this process any more: a failure still reports `.retrying`, for the
    /// caller to persist, but no retry is scheduled.
    @discardableResult
    public func dropQueued() -> Int {
        stopped = true
        defer { queue.removeAll() }
        return queue.count + waiting.count
    }

    // Reports one attempt's end and decides what follows it.
    private func ended(_ episode: EpisodeAnnouncement, attempt: Int, _ how: Termination) {
        onTermination?(episode, how)
        if how.succeeded {
            onOutcome?(episode, .succeeded(attempts: attempt))
        } else if attempt <= policy.retries, let after {
            let delay = policy.delay(beforeRetry: attempt)
            // After shutdown began, or in a pass that waits for no backoff, the retry is owed to
            // the next start (the caller persists it).
            guard !stopped && !defersRetries else {
                onOutcome?(episode, .retrying(how, attempt: attempt, delay: delay))
                return
            }
            onOutcome?(episode, .retrying(how, attempt: attempt, delay: delay))
            wait(episode, attempt: attempt + 1, lastError: how.description, delay: delay, after: after)
        } else {
            onOutcome?(episode, .failed(how, attempts: attempt))
        }
    }

    /// The variables a hook sees in addition to the daemon's environment. Absent values are
    /// empty strings, so `set -u` scripts work; NUL bytes are removed.
    /// `PODCAST_TITLE, FEED_URL, EPISODE_TITLE, EPISODE_URL` (primary enclosure),
    /// `EPISODE_GUID, EPISODE_LINK, EPISODE_PUBLISHED` (ISO 8601 UTC), `EPISODE_DURATION`
    /// (seconds), `EPISODE_MIME_TYPE, EPISODE_LENGTH` (bytes), `HOOK_EVENT` (`new_episode` or
    /// `downloaded`) and `EPISODE_FILE` (the downloaded file's path; empty for `new_episode`).
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
            ("HOOK_EVENT", e.file == nil ? "new_episode" : "downloaded"), ("EPISODE_FILE", e.file ?? ""),
        ].map { ($0.0, $0.1.replacingOccurrences(of: "\0", with: "")) }
    }

    private func startQueued() {
        while running.count < maxConcurrent, !queue.isEmpty {
            let (episode, issued, attempt) = queue.removeFirst()
            switch spawn(episode, attempt: attempt) {
            case .success(let pid):
                serials += 1
                let serial = serials
                running[pid] = Running(episode: episode, attempt: attempt, serial: serial, timeout: policy.timeout)
                if let timeout = policy.timeout, let after {
                    after(timeout) { [weak self] in self?.expire(pid, serial: serial) }
                }
            case .failure(let err): ended(episode, attempt: attempt, .spawnFailed(err.code))
            }
            issued?()
        }
    }

    // The timeout of the hook started as `serial`: kill its process group if it still runs (the
    // serial guards against a reaped pid reused by a later hook).
    private func expire(_ pid: pid_t, serial: Int) {
        guard running[pid]?.serial == serial else { return }
        running[pid]!.timedOut = true
        kill(-pid, SIGKILL)
        kill(pid, SIGKILL)  // in case the group could not be made
    }

    private struct SpawnError: Error { var code: Int32 }

    // A pipe (read end, write end), both close-on-exec (the child gets the write end by dup2).
    // Hooks are spawned from the loop thread only, so no other fork sees them in between.
    private static func closeOnExecPipe() -> (Int32, Int32)? {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return nil }
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        return (fds[0], fds[1])
    }

    private func spawn(_ episode: EpisodeAnnouncement, attempt: Int) -> Result<pid_t, SpawnError> {
        if let outputFD {
            // A header per run, so the log says which episode each output belongs to (feed
            // text neutralised: the log is read on a terminal).
            let name = TerminalText.line(episode.title ?? episode.url ?? "?")
            let header =
                "--- \(OrderedJSON.iso8601(Date())) hook for \"\(name)\" (\(TerminalText.line(MaskedURL.string(episode.feedURL)))), attempt \(attempt)\n"
            _ = header.utf8CString.withUnsafeBufferPointer { write(outputFD, $0.baseAddress!, $0.count - 1) }
        }
        // Our environment with the episode's variables replacing any of the same name.
        let extra = HookRunner.environment(for: episode)
        let names = Set(extra.map(\.0))
        // The service manager's variables are ours: a hook must not report READY or pet our watchdog.
        let managerOnly: Set<String> = ["NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID"]
        var env = ProcessInfo.processInfo.environment.filter {
            !names.contains($0.key) && !managerOnly.contains($0.key)
        }
        .map { "\($0.key)=\($0.value)" }
        env += extra.map { "\($0.0)=\($0.1)" }
        let argv = [shell, "-c", command]

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        // Pipes for the relay: [stdout read, stdout write, stderr read, stderr write].
        var pipes: [Int32] = [-1, -1, -1, -1]
        if let outputFD {
            posix_spawn_file_actions_adddup2(&actions, outputFD, 1)
            posix_spawn_file_actions_adddup2(&actions, outputFD, 2)
        } else if outputRelay != nil, let out = HookRunner.closeOnExecPipe() {
            if let err = HookRunner.closeOnExecPipe() {
                pipes = [out.0, out.1, err.0, err.1]
                posix_spawn_file_actions_adddup2(&actions, pipes[1], 1)
                posix_spawn_file_actions_adddup2(&actions, pipes[3], 2)
            } else {
                close(out.0)
                close(out.1)
                posix_spawn_file_actions_adddup2(&actions, 2, 1)
            }
        } else {
            posix_spawn_file_actions_adddup2(&actions, 2, 1)
        }
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
        // A group of its own (pgid = its pid), so a timeout kills what the shell started too.
        posix_spawnattr_setpgroup(&attr, 0)
        posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        var pid: pid_t = 0
        let rc = withCStrings(argv) { cArgv in
            withCStrings(env) { cEnv in
                posix_spawn(&pid, shell, &actions, &attr, cArgv, cEnv)
            }
        }
        if pipes[0] >= 0 {
            close(pipes[1])
            close(pipes[3])
            if rc == 0, let outputRelay {
                outputRelay.start(stdoutFD: pipes[0], stderrFD: pipes[2])
            } else {
                close(pipes[0])
                close(pipes[2])
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
