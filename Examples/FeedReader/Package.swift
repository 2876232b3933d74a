// swift-tools-version:6.0
// A program that only reads podcast feeds: it depends on the PodcastFeeds product and nothing
// else of LoopMVVM (no loop, no store, no network), which `make examples` checks by building
// it on its own and running it on a sample feed.
import PackageDescription

let package = Package(
    name: "FeedReader",
    dependencies: [
        .package(name: "LoopMVVM", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "feed-reader",
            dependencies: [
                .product(name: "PodcastFeeds", package: "LoopMVVM")
            ])
    ]
)
