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

// Products only the repository's own tools link: the benchmark runner built as a separate
// package (Benchmarks/, which needs our C baselines and libevent's API beside the libraries).
// They are declared only when LOOPMVVM_TOOLS=1 (the Makefile sets it for those builds), so a
// package that depends on LoopMVVM sees the libraries above and nothing else.
let toolProducts: [Product] =
    Context.environment["LOOPMVVM_TOOLS"] == "1"
    ? [
        .library(name: "LoopBenchSupport", targets: ["CLibeventBaseline"]),
        .library(name: "CLibevent", targets: ["CLibevent"]),
    ]
    : []

let package = Package(
    name: "LoopMVVM",
    products: [
        .library(name: "LoopScheduler", targets: ["LoopScheduler"]),
        .library(name: "ViewModelKit", targets: ["ViewModelKit"]),
        // What Combine does not have and add-on libraries commonly define (combine-schedulers'
        // AnyScheduler, TestScheduler, Publishers.Timer, …): imported on purpose, never through
        // ViewModelKit, so code that brings its own add-ons sees no second declaration.
        .library(name: "ViewModelKitSchedulers", targets: ["ViewModelKitSchedulers"]),
        // GLib integration: only programs that import it need libglib2.0.
        .library(name: "GLibLoop", targets: ["GLibLoop"]),
        .library(name: "LoopSchedulerFoundation", targets: ["LoopSchedulerFoundation"]),
        .library(name: "ViewModelKitFoundation", targets: ["ViewModelKitFoundation"]),
        // The podcast side, one library per layer (docs/ARCHITECTURE.md). PodcastFeeds stands
        // alone: a program that only reads feeds links libxml2 and nothing else of ours.
        .library(name: "PodcastFeeds", targets: ["PodcastFeeds"]),
        .library(name: "PodcastStore", targets: ["PodcastStore"]),
        .library(name: "PodcastEngine", targets: ["PodcastEngine"]),
        .library(name: "PodcastWeb", targets: ["PodcastWeb"]),
        .executable(name: "podcast-watch", targets: ["podcast-watch"]),
    ] + toolProducts,
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
        .target(name: "ViewModelKitSchedulers", dependencies: ["LoopScheduler", "ViewModelKit"]),
        // A GSource driving an EventLoop, and the loop run inside g_main_loop_run.
        .target(name: "GLibLoop", dependencies: ["LoopScheduler", "CGLib"]),
        // Foundation's RunLoop as a Scheduler and EventSourceScheduler (what CombineViewModel
        // offers on Apple platforms); kept apart so LoopScheduler and ViewModelKit do not link
        // Foundation.
        .target(name: "LoopSchedulerFoundation", dependencies: ["LoopScheduler"]),
        // Foundation's Combine extensions (Timer.publish, NotificationCenter/URLSession publishers,
        // RunLoop/OperationQueue schedulers), apart so that ViewModelKit needs no Foundation.
        .target(name: "ViewModelKitFoundation", dependencies: ["ViewModelKit", "LoopSchedulerFoundation"]),
        // The podcast side, bottom to top; each layer depends only on layers below it.
        // Feeds: model, parser, dates, OPML, HTML and text hygiene. No loop, no store, no network.
        .target(name: "PodcastFeeds", dependencies: ["CLibxml2"]),
        // The store: the FeedStoring protocol the engine uses, and its SQLite implementation.
        .target(name: "PodcastStore", dependencies: ["PodcastFeeds", "CSQLite3"]),
        // The daemon's engine: fetching, poll scheduling, downloads, hooks, workers, the view
        // models, service-manager integration.
        .target(
            name: "PodcastEngine",
            dependencies: [
                "PodcastStore", "PodcastFeeds", "LoopScheduler", "ViewModelKit", "CLibevent", "CCurl", "CSystemd",
            ]),
        // The web layer: the evhttp server, JSON API, dashboard and live updates.
        .target(
            name: "PodcastWeb",
            dependencies: [
                "PodcastEngine", "PodcastStore", "PodcastFeeds", "LoopScheduler", "ViewModelKit", "CLibevent",
            ]),
        // The command line: commands, usage text, config file, terminal views, the `run` session.
        .target(
            name: "PodcastCommandLine",
            dependencies: [
                "PodcastWeb", "PodcastEngine", "PodcastStore", "PodcastFeeds", "LoopScheduler", "ViewModelKit",
            ]),
        .executableTarget(name: "podcast-watch", dependencies: ["PodcastCommandLine"], exclude: ["SampleFeeds"]),
        // Writes podcast-watch's man pages and shell completions from its command table (`make manual`).
        .executableTarget(name: "podcast-watch-manual", dependencies: ["PodcastCommandLine"]),
        .executableTarget(name: "counter-example", dependencies: ["ViewModelKit"], path: "Examples/Counter"),
        .executableTarget(name: "task-list", dependencies: ["ViewModelKit"], path: "Examples/TaskList"),
        // Benchmarks: the C baselines (raw libevent, libxml2 SAX floor, loopback servers) and the
        // release-built runner, `make bench` (docs/PERFORMANCE.md).
        .target(name: "CLibeventBaseline", dependencies: ["CLibevent", "CLibxml2"]),
        .executableTarget(
            name: "loop-bench",
            dependencies: [
                "LoopScheduler", "ViewModelKit", "PodcastFeeds", "PodcastStore", "PodcastEngine", "PodcastWeb",
                "CLibevent",
                "CLibeventBaseline",
            ]),
        // Documentation: the programs of the DocC articles, run by `make examples`, which
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
        // The README's "The pattern in 25 lines".
        .executableTarget(
            name: "readme-pattern-example", dependencies: ["ViewModelKit"], path: "Examples/ReadmePattern",
            exclude: ["expected-output.txt"]),
        // A Combine add-on library's names (combine-schedulers': TestScheduler, AnyScheduler,
        // AnySchedulerOf, Publishers.Timer, …) declared by a stand-in library and used beside
        // `import ViewModelKit`: it builds only while ViewModelKit exports none of them.
        .target(name: "AddOnSchedulers", dependencies: ["ViewModelKit"], path: "Examples/AddOnNames/AddOnSchedulers"),
        .executableTarget(
            name: "add-on-names-example", dependencies: ["AddOnSchedulers", "ViewModelKit", "ViewModelKitFoundation"],
            path: "Examples/AddOnNames/Program"),

        // Helpers the loop and reactive test targets share (a locked value, a joinable thread, a pipe).
        .target(name: "LoopTestSupport", path: "Tests/LoopTestSupport"),
        .testTarget(
            name: "LoopSchedulerTests",
            dependencies: ["LoopScheduler", "ViewModelKitSchedulers", "CLibevent", "LoopTestSupport"]),
        .testTarget(name: "GLibLoopTests", dependencies: ["GLibLoop", "ViewModelKit", "CGLib", "LoopTestSupport"]),
        // thoughtbot/CombineViewModel's own tests, ported with only mechanical changes.
        .testTarget(name: "CombineViewModelTests", dependencies: ["ViewModelKit", "LoopSchedulerFoundation"]),
        // The Swift 6 @MainActor idiom as users write it: Swift 6 mode, complete
        // strict concurrency, no @testable import; must build without a warning.
        .testTarget(
            name: "MainActorIdiomTests", dependencies: ["ViewModelKit", "ViewModelKitSchedulers"],
            swiftSettings: [.swiftLanguageMode(.v6)]),
        .testTarget(
            name: "ViewModelKitTests",
            dependencies: [
                "ViewModelKit", "ViewModelKitSchedulers", "ViewModelKitFoundation", "LoopSchedulerFoundation",
                "LoopTestSupport",
            ]),
        // The podcast side's tests: one target per module, in folders that mirror its sources.
        // Helpers they share: plain ones (temporary folders, a loopback HTTP server, fixture
        // paths), and the daemon's and web layer's (scripted fetchers, harnesses).
        .target(name: "PodcastTestSupport", dependencies: ["CLibevent"], path: "Tests/PodcastTestSupport"),
        .target(
            name: "PodcastDaemonTestSupport",
            dependencies: [
                "PodcastWeb", "PodcastEngine", "PodcastStore", "PodcastFeeds", "PodcastTestSupport", "LoopScheduler",
            ],
            path: "Tests/PodcastDaemonTestSupport"),
        .testTarget(
            name: "PodcastFeedsTests", dependencies: ["PodcastFeeds", "PodcastTestSupport"],
            exclude: ["Fixtures", "RuleFixtures"]),
        .testTarget(name: "PodcastStoreTests", dependencies: ["PodcastStore", "PodcastFeeds", "PodcastTestSupport"]),
        .testTarget(
            name: "PodcastEngineTests",
            dependencies: [
                "PodcastEngine", "PodcastStore", "PodcastFeeds", "PodcastTestSupport", "PodcastDaemonTestSupport",
                "LoopScheduler", "ViewModelKit", "ViewModelKitSchedulers",
            ]),
        .testTarget(
            name: "PodcastWebTests",
            dependencies: [
                "PodcastWeb", "PodcastEngine", "PodcastStore", "PodcastFeeds", "PodcastTestSupport",
                "PodcastDaemonTestSupport",
                "LoopScheduler", "ViewModelKit", "ViewModelKitSchedulers", "CLibevent",
            ]),
        .testTarget(
            name: "PodcastCommandLineTests",
            dependencies: [
                "PodcastCommandLine", "PodcastWeb", "PodcastEngine", "PodcastStore", "PodcastFeeds",
                "PodcastTestSupport",
                "PodcastDaemonTestSupport", "LoopScheduler", "ViewModelKit", "ViewModelKitSchedulers",
            ]),
    ],
    swiftLanguageModes: [.v6]
)

// `import Combine` on Linux (Sources/Combine): a module named like Apple's, so code written for
// Combine, module-qualified names included, builds unchanged. Declared only where no Combine
// ships with the system, so it can clash with nothing.
#if os(Linux)
package.products.append(.library(name: "Combine", targets: ["Combine"]))
package.targets.append(.target(name: "Combine", dependencies: ["ViewModelKitFoundation"]))
package.targets.append(.testTarget(name: "CombineShimTests", dependencies: ["Combine"]))
#endif
