import Foundation
import PodcastEngine
import PodcastFeeds
import PodcastStore

/// Draws the terminal screen as a string: a table of feeds (title, last check, status, new
/// count, with the error under a failing feed) and the newest episodes. Pure: same input, same
/// output; `TerminalView` writes it.
///
/// Widths are display columns (`wcwidth`: East Asian wide characters 2, combining marks 0).
/// With a `height`, a frame never has more lines than the screen: the feed list ends with
/// "… N more" and the newest episodes are cut to what fits.
public struct TerminalRenderer: Sendable {
    /// ANSI "cursor home", sent before a frame on a TTY. Each line of the frame then erases its
    /// row (`ESC [2K`) before it is written and a frame shorter than the screen ends with "erase
    /// below" (`ESC [J`), so a redraw overwrites the screen in place: nothing scrolls, the
    /// scrollback does not grow.
    public static let clearScreen = "\u{1B}[H"

    /// Columns available. The table is laid out for at least 40 columns; on a narrower
    /// terminal every line is cut to `width` (with "…") so that nothing wraps.
    public var width: Int
    /// Rows available (the terminal's height), or nil for no limit.
    public var height: Int?
    /// Prefix each frame with `clearScreen` (only when stdout is a terminal).
    public var ansi: Bool
    /// The time zone for times shown.
    public var timeZone: TimeZone
    /// How many of the newest episodes to list (fewer when `height` leaves less room).
    public var newestLimit: Int

    /// A renderer; defaults fit an 80-column terminal of any height in the local time zone.
    public init(
        width: Int = 80, height: Int? = nil, ansi: Bool = false, timeZone: TimeZone = .current, newestLimit: Int = 10
    ) {
        self.width = max(1, width)
        self.height = height.map { max(1, $0) }
        self.ansi = ansi
        self.timeZone = timeZone
        self.newestLimit = newestLimit
    }

    /// One frame. `podcasts` in display order; `newest` newest first (only the first
    /// `newestLimit` are shown); `totalNew` the number of new episodes since start.
    public func render(
        podcasts: [Podcast], newest: [EpisodeAnnouncement], totalNew: Int, downloads: [String] = []
    ) -> String {
        var lines = layout(podcasts: podcasts, newest: newest, totalNew: totalNew, width: max(40, width))
        // Download bars (`DownloadBars`) go under the header, above the feed table.
        if !downloads.isEmpty { lines.insert(contentsOf: downloads + [""], at: min(2, lines.count)) }
        if width < 40 { lines = lines.map { fit($0, width) } }
        if let height, lines.count > height { lines.removeLast(lines.count - height) }
        guard ansi else { return lines.map { $0 + "\n" }.joined() }
        var frame = TerminalRenderer.clearScreen + lines.map { "\u{1B}[2K" + $0 }.joined(separator: "\n")
        // A newline after the screen's last row would scroll it: only when rows are left.
        if height.map({ lines.count < $0 }) ?? true { frame += "\n\u{1B}[J" }
        return frame
    }

    /// "hook retry 2/4 at 22:14:20: exited with status 3 (3 episodes owe one)": the soonest
    /// hook attempt feed `p` owes, as `list` says it (its time as the CHECKED column's).
    func owedHookText(_ retry: PendingHookRetry, _ p: Podcast) -> String {
        let of = retry.attempts.map { "/\($0)" } ?? ""
        let time = clock(retry.due)
        var text = "hook retry \(retry.attempt)\(of) at \(time)"
        if let error = retry.lastError { text += ": " + error }
        if p.hookRetriesOwed > 1 { text += " (\(p.hookRetriesOwed) episodes owe one)" }
        return text
    }

    private func layout(podcasts: [Podcast], newest: [EpisodeAnnouncement], totalNew: Int, width: Int) -> [String] {
        var header = "podcast-watch: \(podcasts.count) \(podcasts.count == 1 ? "feed" : "feeds"), \(totalNew) new"
        // One count per status word, as `list` names them: "2 backing-off, 1 failing, 1 disabled".
        for status in [Podcast.Status.backingOff, .failing, .disabled] {
            let count = podcasts.filter { $0.status == status }.count
            if count > 0 { header += ", \(count) \(status.rawValue)" }
        }
        let hooksFailing = podcasts.filter { $0.hookError != nil || $0.hookRetry != nil }.count
        if hooksFailing > 0 { header += ", \(hooksFailing) hook failing" }
        var top = [fit(header, width), ""]
        let titleWidth = width - 30  // 2 + 8 (time) + 2 + 11 (status) + 2 + 5 (new)
        top.append(row(pad("TITLE", titleWidth), pad("CHECKED", 8), pad("STATUS", 11), leftPad("NEW", 5)))

        // Each feed is one line, plus its error under it when it is not healthy.
        let feedBlocks: [[String]] = podcasts.map { p in
            let checked = p.lastCheck.map(clock) ?? "never"
            var block = [
                row(
                    pad(p.displayTitle, titleWidth), pad(checked, 8), pad(p.status.rawValue, 11),
                    leftPad(String(p.newCount), 5))
            ]
            if p.isFailing, let error = p.lastError { block.append("  ! " + fit(error, width - 4)) }
            if let error = p.hookError { block.append("  ! hook " + fit(error, width - 9)) }
            if let retry = p.hookRetry { block.append("  ! " + fit(owedHookText(retry, p), width - 4)) }
            return block
        }
        let newestLines: [String] = newest.prefix(newestLimit).map { e in
            let date = e.published.map(day) ?? "????-??-??"
            return "  "
                + fit(
                    "\(date)  \(e.podcastTitle ?? MaskedURL.string(e.feedURL)): \(e.title ?? (e.guid ?? e.url).map(MaskedURL.string) ?? "untitled")",
                    width - 2)
        }
        let fixed = top.count + 2  // + the blank line and "Newest episodes"
        let newestWanted = max(1, newestLines.count)  // at least "(none yet)"
        let allFeedLines = podcasts.isEmpty ? 1 : feedBlocks.reduce(0) { $0 + $1.count }

        var feedRoom = Int.max
        var newestRoom = newestWanted
        if let height, fixed + allFeedLines + newestWanted > height {
            // Too tall: the newest episodes keep up to a third of what is left (at least one
            // line), the feeds get the rest, cut with "… N more".
            let left = max(0, height - fixed)
            newestRoom = min(newestWanted, max(1, left / 3))
            feedRoom = max(1, left - newestRoom)
            newestRoom = max(0, min(newestWanted, left - min(feedRoom, allFeedLines)))
        }

        var out = top
        if podcasts.isEmpty {
            out.append("(no subscriptions: podcast-watch add URL)")
        } else if allFeedLines <= feedRoom {
            out += feedBlocks.joined()
        } else {
            var used = 0
            var shown = 0
            for block in feedBlocks {
                if used + block.count > feedRoom - 1 { break }  // one line kept for "… N more"
                out += block
                used += block.count
                shown += 1
            }
            out.append(fit("… \(podcasts.count - shown) more", width))
        }
        out += ["", "Newest episodes"]
        if newestLines.isEmpty {
            out.append("  (none yet)")
        } else {
            out += newestLines.prefix(newestRoom)
        }
        return out
    }

    private func row(_ title: String, _ time: String, _ status: String, _ count: String) -> String {
        title + "  " + time + "  " + status + "  " + count
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

    // Cuts `s` to `n` display columns (with "…"), neutralised (`TerminalText.line`: C0, C1 and
    // bidi controls replaced) so that no escape sequence from a feed or server reaches the terminal.
    private func fit(_ s: String, _ n: Int) -> String {
        let clean = TerminalText.line(s)
        guard DisplayWidth.of(clean) > n else { return clean }
        var cut = ""
        var used = 0
        for character in clean {
            let w = DisplayWidth.of(character)
            if used + w > n - 1 { break }
            cut.append(character)
            used += w
        }
        return n >= 1 ? cut + "…" : ""
    }

    private func pad(_ s: String, _ n: Int) -> String {
        let f = fit(s, n)
        return f + String(repeating: " ", count: max(0, n - DisplayWidth.of(f)))
    }

    private func leftPad(_ s: String, _ n: Int) -> String {
        String(repeating: " ", count: max(0, n - DisplayWidth.of(s))) + s
    }
}
