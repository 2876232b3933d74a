import Foundation

/// Draws the terminal screen as a string: a table of feeds (title, last check, status, new
/// count, with the error under a failing feed) and the newest episodes. Pure: same input, same
/// output; `TerminalView` writes it.
public struct TerminalRenderer: Sendable {
    /// ANSI "cursor home" followed by "erase display", sent before a frame on a TTY.
    public static let clearScreen = "\u{1B}[H\u{1B}[2J"

    /// Columns available. The table is laid out for at least 40 columns; on a narrower
    /// terminal every line is cut to `width` (with "…") so that nothing wraps.
    public var width: Int
    /// Prefix each frame with `clearScreen` (only when stdout is a terminal).
    public var ansi: Bool
    /// The time zone for times shown.
    public var timeZone: TimeZone
    /// How many of the newest episodes to list.
    public var newestLimit: Int

    /// A renderer; defaults fit an 80-column terminal in the local time zone.
    public init(width: Int = 80, ansi: Bool = false, timeZone: TimeZone = .current, newestLimit: Int = 10) {
        self.width = max(1, width)
        self.ansi = ansi
        self.timeZone = timeZone
        self.newestLimit = newestLimit
    }

    /// One frame. `podcasts` in display order; `newest` newest first (only the first
    /// `newestLimit` are shown); `totalNew` the number of new episodes since start.
    public func render(podcasts: [Podcast], newest: [EpisodeAnnouncement], totalNew: Int) -> String {
        let body = layout(podcasts: podcasts, newest: newest, totalNew: totalNew, width: max(40, width))
        let screen = width >= 40 ? body : body.split(separator: "\n", omittingEmptySubsequences: false)
            .map { fit(String($0), max(1, width)) }.joined(separator: "\n")
        return (ansi ? TerminalRenderer.clearScreen : "") + screen
    }

    private func layout(podcasts: [Podcast], newest: [EpisodeAnnouncement], totalNew: Int, width: Int) -> String {
        var out = ""
        var header = "podcast-watch: \(podcasts.count) \(podcasts.count == 1 ? "feed" : "feeds"), \(totalNew) new"
        // One count per status word, as `list` names them: "2 backing-off, 1 failing, 1 disabled".
        for status in [Podcast.Status.backingOff, .failing, .disabled] {
            let count = podcasts.filter { $0.status == status }.count
            if count > 0 { header += ", \(count) \(status.rawValue)" }
        }
        out += header + "\n\n"

        let titleWidth = width - 30  // 2 + 8 (time) + 2 + 11 (status) + 2 + 5 (new)
        out += row(pad("TITLE", titleWidth), pad("CHECKED", 8), pad("STATUS", 11), leftPad("NEW", 5))
        if podcasts.isEmpty { out += "(no subscriptions: podcast-watch add URL)\n" }
        for p in podcasts {
            let checked = p.lastCheck.map(clock) ?? "never"
            out += row(pad(p.displayTitle, titleWidth), pad(checked, 8), pad(p.status.rawValue, 11), leftPad(String(p.newCount), 5))
            if p.isFailing, let error = p.lastError {
                out += "  ! " + fit(error, width - 4) + "\n"
            }
        }

        out += "\nNewest episodes\n"
        let shown = newest.prefix(newestLimit)
        if shown.isEmpty { out += "  (none yet)\n" }
        for e in shown {
            let date = e.published.map(day) ?? "????-??-??"
            let line = "\(date)  \(e.podcastTitle ?? e.feedURL): \(e.title ?? e.guid ?? e.url ?? "untitled")"
            out += "  " + fit(line, width - 2) + "\n"
        }
        return out
    }

    private func row(_ title: String, _ time: String, _ status: String, _ count: String) -> String {
        title + "  " + time + "  " + status + "  " + count + "\n"
    }

    private func clock(_ date: Date) -> String { format(date, "HH:mm:ss") }
    private func day(_ date: Date) -> String { format(date, "yyyy-MM-dd") }

    private func format(_ date: Date, _ pattern: String) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.calendar = Calendar(identifier: .gregorian)
        f.timeZone = timeZone
        f.dateFormat = pattern
        return f.string(from: date)
    }

    // Cuts `s` to `n` characters (with "…"), control characters made visible-safe.
    private func fit(_ s: String, _ n: Int) -> String {
        let clean = String(s.map { $0.isNewline || $0 == "\t" ? " " : $0 }.filter { !($0.asciiValue.map { $0 < 0x20 || $0 == 0x7f } ?? false) })
        guard clean.count > n else { return clean }
        return String(clean.prefix(max(0, n - 1))) + "…"
    }

    private func pad(_ s: String, _ n: Int) -> String {
        let f = fit(s, n)
        return f + String(repeating: " ", count: max(0, n - f.count))
    }

    private func leftPad(_ s: String, _ n: Int) -> String {
        String(repeating: " ", count: max(0, n - s.count)) + s
    }
}
