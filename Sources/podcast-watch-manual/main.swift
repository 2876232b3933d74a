import Foundation
import PodcastCommandLine

// podcast-watch-manual DIR [DATE]: writes podcast-watch's man pages and shell completions, all
// generated from the CLI's own command table and help texts (ManualPage, ShellCompletion), into
// DIR. DATE (YYYY-MM-DD) dates the man pages; `make manual` passes the last commit's.
let arguments = CommandLine.arguments.dropFirst()
guard let directory = arguments.first, arguments.count <= 2 else {
    FileHandle.standardError.write(Data("usage: podcast-watch-manual DIR [YYYY-MM-DD]\n".utf8))
    exit(2)
}
let date =
    arguments.dropFirst().first
    ?? ISO8601DateFormatter.string(
        from: Date(), timeZone: TimeZone(identifier: "UTC")!, formatOptions: [.withFullDate])
let files = [
    "podcast-watch.1": ManualPage.podcastWatch(date: date),
    "podcast-watch.conf.5": ManualPage.config(date: date),
    "podcast-watch.bash": ShellCompletion.bash,
    "_podcast-watch": ShellCompletion.zsh,
    "podcast-watch.fish": ShellCompletion.fish,
]
do {
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    for (name, text) in files.sorted(by: { $0.key < $1.key }) {
        try text.write(toFile: directory + "/" + name, atomically: true, encoding: .utf8)
        print("manual: \(directory)/\(name)")
    }
} catch {
    FileHandle.standardError.write(Data("podcast-watch-manual: \(error)\n".utf8))
    exit(1)
}
