// RFC 822 / RFC 2822 dates and their variants: tokens, named and numeric zones, month names.
extension DateParser {
    // MARK: - RFC 822 and relatives

    static func parseRFC(_ b: [UInt8]) -> Int64? {
        var fields = RFCFields()
        for (position, token) in rfcTokens(b).enumerated() {
            guard fields.take(token, position: position) else { return nil }
        }
        guard let (year, month, day) = fields.date() else { return nil }
        var (hour, minute, second) = fields.time ?? (0, 0, 0)
        if let pm = fields.pm {
            guard let h = twelveHour(hour, pm: pm) else { return nil }
            hour = h
        }
        return assemble(
            year: year, month: month, day: day, hour: hour, minute: minute, second: second, offset: fields.offset ?? 0)
    }

    // The words of an RFC 822-like date: split at spaces, tabs, line breaks and commas.
    static func rfcTokens(_ b: [UInt8]) -> [ArraySlice<UInt8>] {
        var tokens: [ArraySlice<UInt8>] = []
        var start: Int? = nil
        for (index, byte) in b.enumerated() {
            if byte == 0x20 || byte == 0x09 || byte == UInt8(ascii: ",") || byte == 0x0A || byte == 0x0D {
                if let s = start {
                    tokens.append(b[s..<index])
                    start = nil
                }
            } else if start == nil {
                start = index
            }
        }
        if let s = start { tokens.append(b[s..<b.count]) }
        return tokens
    }

    // What the tokens of an RFC 822-like date said, each part at most once.
    struct RFCFields {
        var month: Int? = nil
        var numbers: [ArraySlice<UInt8>] = []
        var slashDate: (Int, Int, Int)? = nil
        var time: (Int, Int, Int)? = nil
        var pm: Bool? = nil
        var offset: Int? = nil

        // Reads one token; `false` for one that is not part of a date (the whole is none).
        mutating func take(_ token: ArraySlice<UInt8>, position: Int) -> Bool {
            let first = token[token.startIndex]
            if let marker = meridiem(token) {
                guard pm == nil, time != nil else { return false }
                pm = marker
                return true
            }
            // A word: ASCII letters (perhaps ending in `.`), or any text with non-ASCII letters
            // (a Greek or Hungarian month, a weekday in another language).
            let isWord =
                token.allSatisfy(isLetter) || (token.last == UInt8(ascii: ".") && token.dropLast().allSatisfy(isLetter))
                || (token.contains(where: { $0 >= 0x80 }) && !token.contains(where: isDigit))
            if isWord {
                return takeWord(token.last == UInt8(ascii: ".") ? token.dropLast() : token, position: position)
            }
            if isDigit(first) && token.contains(UInt8(ascii: ":")) {
                guard time == nil, let parsed = timeOfDay(token, zone: &offset) else { return false }
                time = parsed
            } else if isDigit(first) && token.contains(UInt8(ascii: "/")) {
                let parts = token.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
                guard slashDate == nil, parts.count == 3, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(isDigit) }),
                    parts[0].count == 4, let y = integer(parts[0]), let m = integer(parts[1]), let d = integer(parts[2])
                else { return false }
                slashDate = (y, m, d)
            } else if token.allSatisfy(isDigit) {
                numbers.append(token)
            } else if first == UInt8(ascii: "+") || first == UInt8(ascii: "-") {
                guard offset == nil, let zone = numericOffset(token) else { return false }
                offset = zone
            } else if let zone = zone(token) {
                // `GMT-0400`, `UTC+01:00`, `Etc/GMT`
                guard offset == nil else { return false }
                offset = zone
            } else {
                return false
            }
            return true
        }

        // A month, a zone name, or (first) the weekday, in whatever language: redundant, skipped.
        private mutating func takeWord(_ word: ArraySlice<UInt8>, position: Int) -> Bool {
            if let m = monthNumber(word) {
                guard month == nil else { return false }
                month = m
            } else if let zone = namedZone(word) {
                guard offset == nil else { return false }
                offset = zone
            } else if position != 0 {
                return false
            }
            return true
        }

        // Year, month and day: from `YYYY/MM/DD`, or a month word with two numbers whose digit
        // counts say which is the day; `integer` refuses more than 9 digits (a 10-digit year is
        // simply not a date).
        func date() -> (Int, Int, Int)? {
            if let (y, m, d) = slashDate {
                guard month == nil, numbers.isEmpty else { return nil }
                return (y, m, d)
            }
            guard let month, numbers.count == 2 else { return nil }
            let (first, second) = (numbers[0], numbers[1])
            let dayDigits: ArraySlice<UInt8>
            let yearDigits: ArraySlice<UInt8>
            if first.count <= 2 && second.count >= 3 {
                (dayDigits, yearDigits) = (first, second)
            } else if second.count <= 2 && first.count == 4 {
                (dayDigits, yearDigits) = (second, first)
            } else if first.count <= 2 && second.count <= 2 {
                (dayDigits, yearDigits) = (first, second)
            } else {
                return nil
            }
            guard let d = integer(dayDigits), var y = integer(yearDigits) else { return nil }
            if yearDigits.count <= 2 {
                y += y < 50 ? 2000 : 1900  // RFC 2822 obsolete two-digit year
            } else if yearDigits.count == 3 {
                y += 1900
            }
            return (y, month, d)
        }
    }

    /// `h:mm`, `hh:mm:ss`, `hh:mm:ss.fff`, optionally followed directly by `Z` or a numeric zone.
    static func timeOfDay(_ token: ArraySlice<UInt8>, zone: inout Int?) -> (Int, Int, Int)? {
        var body = token
        if let last = body.last, last == UInt8(ascii: "Z") || last == UInt8(ascii: "z") {
            guard zone == nil else { return nil }
            zone = 0
            body = body.dropLast()
        } else if let signIndex = body.firstIndex(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") }) {
            guard zone == nil, let parsed = numericOffset(body[signIndex...]) else { return nil }
            zone = parsed
            body = body[body.startIndex..<signIndex]
        }
        if let dot = body.firstIndex(of: UInt8(ascii: ".")) {
            let fraction = body[(dot + 1)...]
            guard !fraction.isEmpty, fraction.allSatisfy(isDigit) else { return nil }
            body = body[body.startIndex..<dot]
        }
        let parts = body.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3,
            parts.allSatisfy({ (1...2).contains($0.count) && $0.allSatisfy(isDigit) })
        else { return nil }
        guard let hour = integer(parts[0]), let minute = integer(parts[1]) else { return nil }
        let second = parts.count == 3 ? integer(parts[2]) : 0
        return second.map { (hour, minute, $0) }
    }

    /// `+hh`, `+hhmm`, `+hh:mm` (also with `-`): the offset east of UTC in seconds.
    static func numericOffset(_ token: ArraySlice<UInt8>) -> Int? {
        guard let sign = token.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return nil }
        let body = token.dropFirst()
        var hours: Int
        var minutes = 0
        if let colon = body.firstIndex(of: UInt8(ascii: ":")) {
            let h = body[body.startIndex..<colon]
            let m = body[(colon + 1)...]
            guard (1...2).contains(h.count), m.count == 2, let hh = integer(h), let mm = integer(m) else { return nil }
            hours = hh
            minutes = mm
        } else {
            switch body.count {
            case 1, 2:
                guard let hh = integer(body) else { return nil }
                hours = hh
            case 4:
                guard let hh = integer(body.prefix(2)), let mm = integer(body.suffix(2)) else { return nil }
                hours = hh
                minutes = mm
            default: return nil
            }
        }
        guard hours <= 23, minutes <= 59 else { return nil }
        let seconds = hours * 3600 + minutes * 60
        return sign == UInt8(ascii: "-") ? -seconds : seconds
    }

    private static let zones: [String: Int] = [
        "ut": 0, "utc": 0, "gmt": 0, "z": 0, "etc/gmt": 0, "etc/utc": 0, "wet": 0,
        "est": -5, "edt": -4, "cst": -6, "cdt": -5, "mst": -7, "mdt": -6, "pst": -8, "pdt": -7,
        "at": -4, "et": -5, "ct": -6, "mt": -7, "pt": -8, "akst": -9, "akdt": -8, "hst": -10,
        "met": 1, "cet": 1, "cest": 2, "mest": 2, "bst": 1, "west": 1, "eet": 2, "eest": 3,
        "ast": -4, "adt": -3,
        // RFC 822 §5.1 military zones with RFC 822's signs, only the four feedparser reads (RFC
        // 2822 warns the signs were often written reversed; the other letters stay unknown).
        "a": -1, "m": -12, "n": 1, "y": 12,
    ]

    static func namedZone(_ token: ArraySlice<UInt8>) -> Int? {
        guard token.count <= 8 else { return nil }
        let name = String(decoding: token.map { $0 | 0x20 }, as: UTF8.self)
        return zones[name].map { $0 * 3600 }
    }

    static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    private static let fullMonths = [
        "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
        "november", "december",
    ]

    /// Hungarian month names and abbreviations, accents folded (feedparser reads Hungarian dates).
    private static let hungarianMonths: [String: Int] = [
        "januar": 1, "februar": 2, "febr": 2, "marcius": 3, "marc": 3, "aprilis": 4, "majus": 5, "maj": 5,
        "junius": 6, "julius": 7, "augusztus": 8, "szeptember": 9, "szept": 9, "oktober": 10, "okt": 10,
    ]

    /// Greek month names (nominative and genitive), accents folded, final sigma as `σ`; a
    /// token of three or more letters that begins one of them names that month (`Ιούλ`, `Μαΐ`).
    private static let greekMonths: [(String, Int)] = [
        "ιανουαριοσ", "φεβρουαριοσ", "μαρτιοσ", "απριλιοσ", "μαιοσ", "ιουνιοσ", "ιουλιοσ", "αυγουστοσ",
        "σεπτεμβριοσ", "οκτωβριοσ", "νοεμβριοσ", "δεκεμβριοσ",
    ].enumerated().flatMap { index, name in [(name, index + 1), (String(name.dropLast()) + "υ", index + 1)] }

    /// The month (1...12) an English, Hungarian or Greek month name or abbreviation denotes.
    static func monthNumber(_ token: ArraySlice<UInt8>) -> Int? {
        guard token.count >= 3, token.count <= 30 else { return nil }
        if token.allSatisfy(isLetter) {
            let word = String(decoding: token.map { $0 | 0x20 }, as: UTF8.self)
            if let index = months.firstIndex(of: word) { return index + 1 }
            if let index = fullMonths.firstIndex(of: word) { return index + 1 }
            if word == "sept" { return 9 }
            return hungarianMonths[word]
        }
        guard token.contains(where: { $0 >= 0x80 }) else { return nil }
        let folded = String(decoding: token, as: UTF8.self)
            .folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        if let hungarian = hungarianMonths[folded] { return hungarian }
        let greek = folded.replacingOccurrences(of: "ς", with: "σ")
        guard greek.count >= 3 else { return nil }
        return greekMonths.first { $0.0.hasPrefix(greek) }?.1
    }
}
