// swift-tools-version:6.0
// GTKCounter: a GTK 4 window driven by a ViewModelKit view model, with LoopScheduler's main loop
// running inside GLib's. Its own package so that the root package, and programs that
// use LoopScheduler or ViewModelKit, never need GTK's headers. `make test-gtk` builds and tests it.
import Foundation
import PackageDescription

// A path dependency's identity is the name of its directory, which differs between clones
// (a worktree, CI's checkout): read it instead of spelling it.
let root = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().deletingLastPathComponent()
let rootIdentity = root.lastPathComponent.lowercased()

let package = Package(
    name: "GTKCounter",
    dependencies: [.package(path: root.path)],
    targets: [
        .systemLibrary(name: "CGtk4", pkgConfig: "gtk4", providers: [.apt(["libgtk-4-dev"])]),
        .executableTarget(
            name: "gtk-counter",
            dependencies: [
                "CGtk4",
                .product(name: "ViewModelKit", package: rootIdentity),
                .product(name: "GLibLoop", package: rootIdentity),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
