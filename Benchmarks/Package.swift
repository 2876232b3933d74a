// swift-tools-version:6.0
// The benchmark runner built as a user's package builds LoopMVVM: a separate package that depends
// on the root by path, release, with no LOOPMVVM_CMO and no unsafe flag (issue 13). `make bench`
// runs it. The sources are the root's `Sources/loop-bench` (a symlink), so the root package keeps
// building the same runner for `make bench-quick` and for the opt-in cross-module figure.
import PackageDescription

let package = Package(
    name: "LoopMVVMBenchmarks",
    dependencies: [
        .package(name: "LoopMVVM", path: ".."),
    ],
    targets: [
        .executableTarget(
            name: "loop-bench-user",
            dependencies: [
                .product(name: "LoopScheduler", package: "LoopMVVM"),
                .product(name: "ViewModelKit", package: "LoopMVVM"),
                .product(name: "LoopBenchSupport", package: "LoopMVVM"),
                .product(name: "CLibevent", package: "LoopMVVM"),
            ],
            path: "Sources/loop-bench"),
    ],
    swiftLanguageModes: [.v6]
)
