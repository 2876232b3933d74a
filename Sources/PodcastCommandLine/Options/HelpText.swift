/// A `--help` text of `UsageText` read back into its parts, for `ManualPage`: the usage lines,
/// then blocks of prose (lines at column 0) and of items (a tag at column 2, such as an option or
/// an exit status, its description after two or more spaces, continued on deeper-indented
/// lines). Headed sections of the general usage (`Global options:`) are found by their header.
///
/// A value; safe from any thread.
struct HelpText {
    /// One item: its tag (`--interval SECONDS`, `-h, --help`, `130 / 143`) and description lines.
    struct Item: Equatable {
        var tag: String
        var lines: [String]

        /// The long option the tag names (`--help` for `-h, --help`), if it names one.
        var optionName: String? {
            tag.split(separator: " ").lazy.map { $0.hasSuffix(",") ? $0.dropLast() : $0 }
                .first { $0.hasPrefix("--") }.map(String.init)
        }
    }

    /// Prose or a list of items.
    enum Block: Equatable {
        case paragraph([String])
        case items([Item])
    }

    let lines: [Substring]
    /// Where the usage block ends (its first blank line).
    private let usageEnd: Int

    init(_ text: String) {
        lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        usageEnd = lines.firstIndex { $0.allSatisfy(\.isWhitespace) } ?? lines.endIndex
    }

    /// The usage lines without their `Usage: ` prefix (and as much of the indentation of the
    /// lines after it), so they stay aligned.
    var usage: [String] {
        lines[..<usageEnd].map { line in
            line.hasPrefix("Usage: ") || line.hasPrefix("       ") ? String(line.dropFirst(7)) : String(line)
        }
    }

    /// The commands the usage lines show, each once (`enable` and `disable` share a text).
    var usageCommands: [String] {
        var names: [String] = []
        for line in usage {
            let words = line.split(separator: " ")
            if words.count >= 2, words[0] == "podcast-watch", !names.contains(String(words[1])) {
                names.append(String(words[1]))
            }
        }
        return names
    }

    /// Everything after the usage.
    var body: [Block] { Self.blocks(lines[usageEnd...]) }

    /// Every item of the body.
    var bodyItems: [Item] {
        body.flatMap { block -> [Item] in
            if case .items(let items) = block { return items }
            return []
        }
    }

    /// The blocks after the line `header` (after the usage when `nil`) and before the line
    /// `before`.
    func paragraphs(after header: String?, before: String) -> [Block] {
        let start = header.flatMap { h in lines.firstIndex { $0 == h }.map { $0 + 1 } } ?? usageEnd
        let end = lines[start...].firstIndex { $0 == before } ?? lines.endIndex
        return Self.blocks(lines[start..<end])
    }

    /// The items right under the line `header` (up to the next blank line).
    func items(under header: String) -> [Item] {
        guard let index = lines.firstIndex(where: { $0 == header }) else { return [] }
        let rest = lines[(index + 1)...]
        let end = rest.firstIndex { $0.allSatisfy(\.isWhitespace) } ?? rest.endIndex
        if case .items(let items)? = Self.blocks(rest[..<end]).first { return items }
        return []
    }

    static func blocks(_ lines: ArraySlice<Substring>) -> [Block] {
        var blocks: [Block] = []
        var paragraph: [String] = []
        var items: [Item] = []
        func flush() {
            if !paragraph.isEmpty { blocks.append(.paragraph(paragraph)) }
            if !items.isEmpty { blocks.append(.items(items)) }
            paragraph = []
            items = []
        }
        for line in lines {
            let indent = line.prefix { $0 == " " }.count
            let content = line.dropFirst(indent)
            if content.isEmpty {
                flush()
            } else if indent == 0 {
                if !items.isEmpty { flush() }
                paragraph.append(String(content))
            } else if indent <= 2 {
                if !paragraph.isEmpty { flush() }
                // The tag ends at the first run of two spaces (`--state DIR   where ...`).
                if let gap = content.firstRange(of: "  ") {
                    let description = content[gap.upperBound...].drop { $0 == " " }
                    items.append(Item(tag: String(content[..<gap.lowerBound]), lines: [String(description)]))
                } else {
                    items.append(Item(tag: String(content), lines: []))
                }
            } else if !items.isEmpty {
                items[items.count - 1].lines.append(String(content))
            } else {
                paragraph.append(String(content))
            }
        }
        flush()
        return blocks
    }
}

/// A man(7) page being written, for `ManualPage`: macros on their own lines, text escaped
/// (backslashes, hyphens as minus signs, a leading `.` or `'`), no blank lines.
struct Roff {
    /// How an item's tag is set.
    enum TagStyle {
        /// Options bold, their values italic; other tags bold.
        case automatic
        /// `key = VALUE`: the key bold, the value italic.
        case configKey
    }

    private(set) var text = ""
    private var atSectionStart = false

    static func escape(_ line: some StringProtocol) -> String {
        var out = String(line).replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
        while out.last == " " { out.removeLast() }
        if out.hasPrefix(".") || out.hasPrefix("'") { out = "\\&" + out }
        return out
    }

    private mutating func line(_ raw: String) {
        text += raw + "\n"
        atSectionStart = false
    }

    // A text line, broken at spaces into lines of at most 80 bytes (mandoc's style limit); a
    // piece that would start with `.` or `'` (a request) is protected.
    private mutating func textLine(_ raw: String) {
        var current = ""
        for word in raw.split(separator: " ", omittingEmptySubsequences: false) {
            if !current.isEmpty, current.utf8.count + 1 + word.utf8.count > 80 {
                line(Self.protect(current))
                current = String(word)
            } else {
                current += current.isEmpty ? String(word) : " " + word
            }
        }
        line(Self.protect(current))
    }

    private static func protect(_ line: String) -> String {
        line.hasPrefix(".") || line.hasPrefix("'") ? "\\&" + line : line
    }

    mutating func header(title: String, section: Int, date: String) {
        let manual = section == 1 ? "User Commands" : "File Formats"
        line(
            ".TH \"\(Self.escape(title))\" \"\(section)\" \"\(date)\" \"podcast\\-watch \(UsageText.version)\" \"\(manual)\""
        )
    }

    mutating func section(_ name: String) {
        line(".SH \(name)")
        atSectionStart = true
    }

    mutating func subsection(_ name: String) {
        line(".SS \"\(Self.escape(name))\"")
        atSectionStart = true
    }

    /// One line of roff, already escaped.
    mutating func text(_ raw: String) { textLine(raw) }

    /// A new paragraph of roff, already escaped.
    mutating func paragraph(_ raw: String) {
        if !atSectionStart { line(".PP") }
        textLine(raw)
    }

    mutating func paragraphs(_ blocks: [HelpText.Block], skipItems: Bool = false) {
        for block in blocks {
            switch block {
            case .paragraph(let lines):
                if !atSectionStart { line(".PP") }
                for text in lines { textLine(Self.escape(text)) }
            case .items(let items):
                if !skipItems { self.items(items) }
            }
        }
    }

    mutating func items(_ items: [HelpText.Item], tagStyle: TagStyle = .automatic) {
        for item in items {
            line(".TP")
            line(Self.tag(item.tag, style: tagStyle))
            for text in item.lines { textLine(Self.escape(text)) }
        }
    }

    mutating func noFill(_ rawLines: [String]) {
        line(".nf")
        for raw in rawLines { line(raw) }
        line(".fi")
    }

    mutating func indentedNoFill(_ rawLines: [String]) {
        line(".RS 4")
        noFill(rawLines)
        line(".RE")
    }

    static func tag(_ tag: String, style: TagStyle) -> String {
        switch style {
        case .configKey:
            let parts = tag.components(separatedBy: " = ")
            return "\\fB\(escape(parts[0]))\\fR = \\fI\(escape(parts.dropFirst().joined(separator: " = ")))\\fR"
        case .automatic where tag.hasPrefix("-"):
            return tag.split(separator: " ").map { word -> String in
                let comma = word.hasSuffix(",") ? "," : ""
                let bare = comma.isEmpty ? word : word.dropLast()
                return (bare.hasPrefix("-") ? "\\fB\(escape(bare))\\fR" : "\\fI\(escape(bare))\\fR") + comma
            }.joined(separator: " ")
        case .automatic:
            return "\\fB\(escape(tag))\\fR"
        }
    }
}
