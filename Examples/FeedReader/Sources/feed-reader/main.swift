// feed-reader FILE: parses one feed file with PodcastFeeds and prints its episodes, newest as the
// feed lists them. The program of PodcastFeeds' "Getting started" article.
import Foundation
import PodcastFeeds

guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: feed-reader FILE\n".utf8))
    exit(2)
}
let path = CommandLine.arguments[1]
guard let data = FileManager.default.contents(atPath: path) else {
    FileHandle.standardError.write(Data("feed-reader: cannot read \(path)\n".utf8))
    exit(1)
}

let feed: ParsedFeed
do {
    feed = try FeedParser.parse(data: data, url: URL(fileURLWithPath: path))
} catch {
    FileHandle.standardError.write(Data("feed-reader: \(path): \(error)\n".utf8))
    exit(1)
}

// Text from the feed is neutralised before it reaches the terminal: no escape sequences, no
// line breaks, no bidi overrides.
print(TerminalText.line(feed.channel.title ?? "(untitled feed)"), "-", feed.episodes.count, "episodes")
for episode in feed.episodes {
    let title = TerminalText.line(episode.title ?? "(untitled)")
    let day = episode.published.map { String(ISO8601DateFormatter().string(from: $0).prefix(10)) } ?? "no date"
    let minutes = episode.duration.map { "\(Int($0 / 60)) min" } ?? "length unknown"
    print("\(day)  \(title)  (\(minutes))")
    if let enclosure = episode.primaryEnclosure {
        print("    \(TerminalText.line(enclosure.url))")
    }
}
if !feed.isWellFormed {
    print("warnings:", feed.warnings.map(TerminalText.line).joined(separator: "; "))
}
