// swift-tools-version:6.0
// The benchmark runner built as a user's package builds LoopMVVM: a separate package that depends
// on the root by path, release, with no LOOPMVVM_CMO and no unsafe flag, so the figures are those a
// user gets. `make bench` runs it. The sources are the root's `Sources/loop-bench` (a symlink), so
// the root package keeps building the same runner for `make bench-quick` and for the opt-in
// cross-module figure. Build it with LOOPMVVM_TOOLS=1 in the environment (the Makefile does): the
// root declares its benchmark-only products (our C baselines, libevent's API) only then.
import PackageDescription

let package = Package(
    name: "LoopMVVMBenchmarks",
    dependencies: [
        .package(name: "LoopMVVM", path: "..")
    ],
    targets: [
        .executableTarget(
            name: "loop-bench-user",
            dependencies: [
                .product(name: "LoopScheduler", package: "LoopMVVM"),
                .product(name: "ViewModelKit", package: "LoopMVVM"),
                .product(name: "PodcastFeeds", package: "LoopMVVM"),
                .product(name: "PodcastStore", package: "LoopMVVM"),
                .product(name: "PodcastEngine", package: "LoopMVVM"),
                .product(name: "PodcastWeb", package: "LoopMVVM"),
                .product(name: "LoopBenchSupport", package: "LoopMVVM"),
                .product(name: "CLibevent", package: "LoopMVVM"),
            ],
            path: "Sources/loop-bench")
    ],
    swiftLanguageModes: [.v6]
)
