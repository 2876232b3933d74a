// swift-tools-version:6.0
// The MVVM runtime (LoopScheduler, ViewModelKit) and the podcast-watch daemon built on it.
// Only toolchain modules and Debian C libraries: no outside Swift packages.
import PackageDescription

// Opt-in release tuning for ViewModelKit (`make bench` sets LOOPMVVM_CMO=1): cross-module
// optimisation lets clients specialise the generic publisher chain, which makes it several times
// faster. It is opt-in because SwiftPM refuses unsafe flags in a package used as a versioned
// dependency; the default build needs no flag at all.
let viewModelKitTuning: [SwiftSetting] =
    Context.environment["LOOPMVVM_CMO"] == "1"
    ? [.unsafeFlags(["-cross-module-optimization"], .when(configuration: .release))]
    : []

let package = Package(
    name: "LoopMVVM",
    products: [
        .library(name: "LoopScheduler", targets: ["LoopScheduler"]),
        .library(name: "ViewModelKit", targets: ["ViewModelKit"]),
        // GLib integration (issue 18): only programs that import it need libglib2.0.
        .library(name: "GLibLoop", targets: ["GLibLoop"]),
        .library(name: "LoopSchedulerFoundation", targets: ["LoopSchedulerFoundation"]),
        .library(name: "ViewModelKitFoundation", targets: ["ViewModelKitFoundation"]),
        .executable(name: "podcast-watch", targets: ["podcast-watch"]),
        // Not API: what the benchmark runner needs beyond the two libraries, so that
        // `Benchmarks/` (its own package, depending on this one by path) builds it the way a
        // user's package would build us: release, no flags.
        .library(name: "LoopBenchSupport", targets: ["PodcastKit", "CLibeventBaseline"]),
        .library(name: "CLibevent", targets: ["CLibevent"]),
        // The daemon's library (feed and OPML parsing, store, fetcher); the fuzz package under
        // Fuzz/ links it.
        .library(name: "PodcastKit", targets: ["PodcastKit"]),
    ],
    targets: [
        // System libraries, found with pkg-config; `make deps` installs the apt providers.
        .systemLibrary(
            name: "CLibevent", pkgConfig: "libevent_pthreads",
            providers: [.apt(["libevent-dev"])]),
        .systemLibrary(
            name: "CCurl", pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(
            name: "CLibxml2", pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(
            name: "CSQLite3", pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(
            name: "CGLib", pkgConfig: "glib-2.0",
            providers: [.apt(["libglib2.0-dev"])]),
        // sd_notify for `run` under systemd (Type=notify, the watchdog).
        .systemLibrary(
            name: "CSystemd", pkgConfig: "libsystemd",
            providers: [.apt(["libsystemd-dev"])]),
        // Declarations libdispatch exports for run loops (the main-queue eventfd).
        .target(name: "CLoopSupport"),

        .target(name: "LoopScheduler", dependencies: ["CLibevent", "CLoopSupport"]),
        .target(name: "ViewModelKit", dependencies: ["LoopScheduler"], swiftSettings: viewModelKitTuning),
        // A GSource driving an EventLoop, and the loop run inside g_main_loop_run.
        .target(name: "GLibLoop", dependencies: ["LoopScheduler", "CGLib"]),
        // Foundation's RunLoop as a Scheduler and EventSourceScheduler (CombineViewModel parity,
        // issue 11); kept apart so LoopScheduler and ViewModelKit do not link Foundation.
        .target(name: "LoopSchedulerFoundation", dependencies: ["LoopScheduler"]),
        // Foundation's Combine extensions (Timer.publish, NotificationCenter/URLSession publishers,
        // RunLoop/OperationQueue schedulers), apart so that ViewModelKit needs no Foundation.
        .target(name: "ViewModelKitFoundation", dependencies: ["ViewModelKit", "LoopSchedulerFoundation"]),
        .target(
            name: "PodcastKit",
            dependencies: ["LoopScheduler", "ViewModelKit", "CLibevent", "CCurl", "CLibxml2", "CSQLite3", "CSystemd"]),
        .executableTarget(name: "podcast-watch", dependencies: ["PodcastKit"], exclude: ["SampleFeeds"]),
        // Writes podcast-watch's man pages and shell completions from its command table (`make manual`).
        .executableTarget(name: "podcast-watch-manual", dependencies: ["PodcastKit"]),
        .executableTarget(name: "counter-example", dependencies: ["ViewModelKit"], path: "Examples/Counter"),
        .executableTarget(name: "task-list", dependencies: ["ViewModelKit"], path: "Examples/TaskList"),
        // Benchmarks (issue 6): the C baselines (raw libevent, libxml2 SAX floor, loopback server)
        // and the release-built runner, `make bench`.
        .target(name: "CLibeventBaseline", dependencies: ["CLibevent", "CLibxml2"]),
        .executableTarget(
            name: "loop-bench",
            dependencies: ["LoopScheduler", "ViewModelKit", "PodcastKit", "CLibevent", "CLibeventBaseline"]),
        // Documentation (issue 16): the programs of the DocC articles, run by `make examples`, which
        // compares their output with Examples/*/expected-output.txt. The "Getting started" article:
        .executableTarget(
            name: "getting-started-example", dependencies: ["ViewModelKit"], path: "Examples/GettingStarted",
            exclude: ["expected-output.txt"]),
        // "Plugging into other loops": a C program that owns and runs a libevent base hosting Swift
        // view models, and a poll(2) loop driving EventLoop.main one iteration at a time.
        .executableTarget(
            name: "c-hosted-loop", dependencies: ["CHostedViewModels", "CLibevent"], path: "Examples/CHostedLoop/Host"),
        .target(name: "CHostedViewModels", dependencies: ["ViewModelKit"], path: "Examples/CHostedLoop/ViewModels"),
        .executableTarget(
            name: "poll-host-example", dependencies: ["ViewModelKit"], path: "Examples/PollHost",
            exclude: ["expected-output.txt"]),

        // Helpers the loop and reactive test targets share (a locked value, a joinable thread, a pipe).
        .target(name: "LoopTestSupport", path: "Tests/LoopTestSupport"),
        .testTarget(name: "LoopSchedulerTests", dependencies: ["LoopScheduler", "CLibevent", "LoopTestSupport"]),
        .testTarget(name: "GLibLoopTests", dependencies: ["GLibLoop", "ViewModelKit", "CGLib", "LoopTestSupport"]),
        // thoughtbot/CombineViewModel's own tests, ported with only mechanical changes (issue 11).
        .testTarget(name: "CombineViewModelTests", dependencies: ["ViewModelKit", "LoopSchedulerFoundation"]),
        // The Swift 6 @MainActor idiom as users write it (issue 11): Swift 6 mode, complete
        // strict concurrency, no @testable import; must build without a warning.
        .testTarget(
            name: "MainActorIdiomTests", dependencies: ["ViewModelKit"], swiftSettings: [.swiftLanguageMode(.v6)]),
        .testTarget(
            name: "ViewModelKitTests",
            dependencies: ["ViewModelKit", "ViewModelKitFoundation", "LoopSchedulerFoundation", "LoopTestSupport"]),
        .testTarget(name: "PodcastKitTests", dependencies: ["PodcastKit", "CLibevent"], exclude: ["Fixtures"]),
    ],
    swiftLanguageModes: [.v6]
)
