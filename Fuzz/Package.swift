// swift-tools-version:6.0
// Coverage-guided fuzz targets (libFuzzer) for the parsers that read untrusted bytes: dates,
// durations, feeds, OPML, and the HTML sanitiser: all of them in the PodcastFeeds library, the only
// product it links. A separate package so that the main build needs no sanitizer flags; it
// depends on the repository root by path. Build and run them with
// `make fuzz` (60 s each) or `make fuzz-smoke` (a few seconds each, part of `make test`):
//   swift build -c debug -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library
import PackageDescription

let fuzzTargets = ["fuzz-date", "fuzz-duration", "fuzz-feed", "fuzz-opml", "fuzz-html"]

let package = Package(
    name: "LoopMVVMFuzz",
    dependencies: [.package(name: "LoopMVVM", path: "..")],
    targets: [
        .target(name: "FuzzSupport")
    ]
        + fuzzTargets.map { name in
            .executableTarget(
                name: name,
                dependencies: ["FuzzSupport", .product(name: "PodcastFeeds", package: "LoopMVVM")])
        },
    swiftLanguageModes: [.v6]
)
