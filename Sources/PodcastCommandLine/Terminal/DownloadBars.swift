import Foundation
import PodcastEngine
import PodcastFeeds

/// The download lines of the live terminal frame: a summary (active, waiting, finished, failed,
/// total rate) and one bar per download in flight, with bytes, rate and time left:
///
///     Downloads: 2 active, 3 waiting, 4 done, total 3.1 MB/s
///       [########--------]  52%  15.2/29.0 MB  1.6 MB/s  0:09  Loopback Radio: First Light
///
/// Titles come from feeds: neutralised (`TerminalText.line`) and cut to the width. Pure:
/// any thread.
public enum DownloadBars {
    /// The lines for `model`'s state, each at most `width` columns; empty when nothing is
    /// active, waiting, done or failed since start.
    public static func lines(
        active: [DownloadProgress], waiting: Int, finished: Int, failed: Int, width: Int
    ) -> [String] {
        guard !active.isEmpty || waiting > 0 || finished > 0 || failed > 0 else { return [] }
        var summary = "Downloads: \(active.count) active"
        if waiting > 0 { summary += ", \(waiting) waiting" }
        if finished > 0 { summary += ", \(finished) done" }
        if failed > 0 { summary += ", \(failed) failed" }
        let rate = active.reduce(0) { $0 + $1.bytesPerSecond }
        if !active.isEmpty { summary += ", total \(speed(rate))" }
        var out = [cut(summary, width)]
        for item in active {
            let fraction = item.total.flatMap { $0 > 0 ? min(1, Double(item.bytes) / Double($0)) : nil }
            let barWidth = 16
            let filled = fraction.map { Int(($0 * Double(barWidth)).rounded(.down)) } ?? 0
            let bar =
                fraction == nil
                ? "[" + String(repeating: "?", count: barWidth) + "]"
                : "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: barWidth - filled) + "]"
            let percent = fraction.map { String(format: "%3d%%", Int(($0 * 100).rounded(.down))) } ?? "  ?%"
            let sizes = item.total.map { "\(mb(item.bytes))/\(mb($0)) MB" } ?? "\(mb(item.bytes)) MB"
            let eta = item.etaSeconds.map(clock) ?? "--:--"
            let name = TerminalText.line(
                [item.podcastTitle, item.episodeTitle].compactMap { $0 }.joined(separator: ": "))
            out.append(cut("  \(bar) \(percent)  \(sizes)  \(speed(item.bytesPerSecond))  \(eta)  \(name)", width))
        }
        return out
    }

    static func mb(_ bytes: Int64) -> String { String(format: "%.1f", Double(bytes) / 1_000_000) }

    static func speed(_ bytesPerSecond: Double) -> String {
        bytesPerSecond >= 1_000_000
            ? String(format: "%.1f MB/s", bytesPerSecond / 1_000_000)
            : String(format: "%.0f kB/s", bytesPerSecond / 1000)
    }

    static func clock(_ seconds: Double) -> String {
        let s = Int(min(seconds, 359_999).rounded(.up))
        return s >= 3600
            ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%d:%02d", s / 60, s % 60)
    }

    private static func cut(_ line: String, _ width: Int) -> String {
        guard DisplayWidth.of(line) > width else { return line }
        var out = ""
        var used = 0
        for character in line {
            let w = DisplayWidth.of(character)
            if used + w > width - 1 { break }
            out.append(character)
            used += w
        }
        return out + "…"
    }
}
