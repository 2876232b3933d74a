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
        .executable(name: "podcast-watch", targets: ["podcast-watch"]),
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
        // sd_notify for `run` under systemd (Type=notify, the watchdog).
        .systemLibrary(
            name: "CSystemd", pkgConfig: "libsystemd",
            providers: [.apt(["libsystemd-dev"])]),
        // Declarations libdispatch exports for run loops (the main-queue eventfd).
        .target(name: "CLoopSupport"),

        .target(name: "LoopScheduler", dependencies: ["CLibevent", "CLoopSupport"]),
        .target(name: "ViewModelKit", dependencies: ["LoopScheduler"], swiftSettings: viewModelKitTuning),
        .target(
            name: "PodcastKit",
            dependencies: ["LoopScheduler", "ViewModelKit", "CLibevent", "CCurl", "CLibxml2", "CSQLite3", "CSystemd"]),
        .executableTarget(name: "podcast-watch", dependencies: ["PodcastKit"], exclude: ["SampleFeeds"]),
        .executableTarget(name: "counter-example", dependencies: ["ViewModelKit"], path: "Examples/Counter"),
        // Benchmarks (issue 6): the C baselines (raw libevent, libxml2 SAX floor, loopback server)
        // and the release-built runner, `make bench`.
        .target(name: "CLibeventBaseline", dependencies: ["CLibevent", "CLibxml2"]),
        .executableTarget(
            name: "loop-bench",
            dependencies: ["LoopScheduler", "ViewModelKit", "PodcastKit", "CLibevent", "CLibeventBaseline"]),

        .testTarget(name: "LoopSchedulerTests", dependencies: ["LoopScheduler", "CLibevent"]),
        .testTarget(name: "ViewModelKitTests", dependencies: ["ViewModelKit"]),
        .testTarget(name: "PodcastKitTests", dependencies: ["PodcastKit", "CLibevent"], exclude: ["Fixtures"]),
    ],
    swiftLanguageModes: [.v6]
)
