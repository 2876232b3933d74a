import Foundation

/// A tolerant, hand-written parser for the dates found in feeds, accepting what feedparser's date
/// handlers accept where real feeds use it: RFC 822 / RFC 2822 (`pubDate`) with its variants
/// (two- and three-digit years, long month names, missing seconds or time, extra commas, a weekday
/// in another language, `GMT-0400`, a parenthesised comment, the military zones feedparser reads,
/// asctime, `yyyy/mm/dd`, a 12-hour clock with `AM`/`PM`); ISO 8601 / W3C-DTF / RFC 3339
/// (`dc:date`, Atom `updated`) with and without separators, ordinal dates, a space before the time
/// or the zone, and a zone name; Greek and Hungarian month names; the two Korean shapes (KST).
///
/// Rules: no zone means UTC; fractional seconds are dropped; an out-of-range field (hour 34, day
/// 99, minute `xx`, a 10-digit year) or trailing junk makes the whole date invalid (no roll-over);
/// invalid is `nil`, never "now" and never a guess. Dates before 1970 are valid. No
/// `DateFormatter`, no locale, no global state; no input traps (every number is range-checked
/// before arithmetic).
public enum DateParser {
    /// The instant `text` denotes, or `nil` when it is empty or not a date. Any thread.
    public static func parse(_ text: String) -> Date? {
        guard let seconds = parseSeconds(text) else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// The instant as whole seconds since 1970-01-01T00:00:00Z (negative before 1970), or `nil`.
    public static func parseSeconds(_ text: String) -> Int64? {
        var copy = text
        if let fast = copy.withUTF8({ fastRFC822($0) }) { return fast }
        var bytes = Array(text.utf8)
        stripComments(&bytes)
        DurationParser.trimASCIIWhitespace(&bytes)
        guard !bytes.isEmpty else { return nil }
        if bytes.contains(where: { $0 >= 0x80 }), let korean = parseKorean(bytes) { return korean }
        if looksISO(bytes) { return parseISO(bytes) }
        return parseRFC(bytes)
    }

    // MARK: - Fast path

    /// The canonical RSS shape only, `[Www, ]D[D] Mon YYYY HH:MM:SS ±HHMM|GMT|UT|UTC|Z`, without
    /// allocating; anything else returns `nil` and takes the general path.
    static func fastRFC822(_ b: UnsafeBufferPointer<UInt8>) -> Int64? {
        var i = 0
        let n = b.count
        if n > 5, isLetter(b[0]), isLetter(b[1]), isLetter(b[2]), b[3] == UInt8(ascii: ","), b[4] == 0x20 {
            guard weekdayPacked.contains(packed(b[0], b[1], b[2])) else { return nil }
            i = 5
        }
        func digits(_ count: Int) -> Int? {
            guard i + count <= n else { return nil }
            var value = 0
            for k in 0..<count {
                let d = b[i + k]
                guard isDigit(d) else { return nil }
                value = value * 10 + Int(d - 48)
            }
            i += count
            return value
        }
        func expect(_ byte: UInt8) -> Bool {
            guard i < n, b[i] == byte else { return false }
            i += 1
            return true
        }
        let dayDigits = i + 1 < n && isDigit(b[i + 1]) ? 2 : 1
        guard let day = digits(dayDigits), expect(0x20), i + 3 <= n else { return nil }
        guard let monthIndex = monthPacked.firstIndex(of: packed(b[i], b[i + 1], b[i + 2])) else { return nil }
        i += 3
        guard expect(0x20), let year = digits(4), expect(0x20), let hour = digits(2), expect(UInt8(ascii: ":")),
            let minute = digits(2), expect(UInt8(ascii: ":")), let second = digits(2), expect(0x20), i < n
        else { return nil }
        var offset = 0
        if b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") {
            let negative = b[i] == UInt8(ascii: "-")
            i += 1
            guard let hh = digits(2), let mm = digits(2), i == n, hh <= 23, mm <= 59 else { return nil }
            offset = (hh * 3600 + mm * 60) * (negative ? -1 : 1)
        } else {
            let rest = UnsafeBufferPointer(rebasing: b[i...])
            guard
                rest.elementsEqual("GMT".utf8) || rest.elementsEqual("UT".utf8) || rest.elementsEqual("UTC".utf8)
                    || rest.elementsEqual("Z".utf8)
            else { return nil }
        }
        return assemble(
            year: year, month: monthIndex + 1, day: day, hour: hour, minute: minute, second: second, offset: offset)
    }

    @inline(__always)
    private static func packed(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt32 {
        UInt32(a | 0x20) << 16 | UInt32(b | 0x20) << 8 | UInt32(c | 0x20)
    }

    private static let monthPacked: [UInt32] = months.map { name in
        let u = Array(name.utf8)
        return packed(u[0], u[1], u[2])
    }

    private static let weekdayPacked: [UInt32] = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"].map { name in
        let u = Array(name.utf8)
        return packed(u[0], u[1], u[2])
    }

    // MARK: - ISO 8601 / W3C-DTF

    /// True when `b` starts like an ISO 8601 date: `YYYY`, `YYYY-…`, or the basic forms
    /// `YYYYMMDD` / `YYYYDDD` (alone or followed by a time).
    private static func looksISO(_ b: [UInt8]) -> Bool {
        guard b.count >= 4, b[0..<4].allSatisfy(isDigit) else { return false }
        if b.count == 4 || b[4] == UInt8(ascii: "-") { return true }
        var run = 4
        while run < b.count, isDigit(b[run]) { run += 1 }
        return (run == 7 || run == 8) && (run == b.count || isTimeSeparator(b[run]))
    }

    private static func isTimeSeparator(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "T") || byte == UInt8(ascii: "t") || byte == 0x20
    }

    /// ISO 8601 as feeds write it: W3C-DTF (`YYYY`, `YYYY-MM`, `YYYY-MM-DD`), ordinal dates
    /// (`YYYY-DDD`), the basic forms (`YYYYMMDD`, `YYYYDDD`, `THHMMSS`), a three-digit month
    /// (`2003-012-31`), a month name (`2004-July-13`, also Hungarian), `T`, `t` or spaces before
    /// the time, and a zone written directly or after spaces (`Z`, `±hh[:mm]`, `±hhmm`, a zone
    /// name such as `GMT`, `GMT+01:00`), optionally preceded by `AM`/`PM`.
    private static func parseISO(_ b: [UInt8]) -> Int64? {
        var i = 0
        let n = b.count
        func run(_ from: Int) -> Int {
            var end = from
            while end < n, isDigit(b[end]) { end += 1 }
            return end - from
        }
        func number(_ count: Int) -> Int? {
            guard count >= 1, count <= 9, i + count <= n, let value = integer(b[i..<(i + count)]) else { return nil }
            i += count
            return value
        }
        guard let year = number(4) else { return nil }
        var month = 1
        var day = 1
        var ordinal: Int? = nil
        if i < n && b[i] == UInt8(ascii: "-") {
            i += 1
            let digits = run(i)
            if digits == 3 && (i + 3 == n || b[i + 3] != UInt8(ascii: "-")) {
                ordinal = number(3)
            } else if digits == 0 {
                // A month name: `2004-July-13`, `2004-július-13`.
                var end = i
                while end < n, b[end] != UInt8(ascii: "-"), !isTimeSeparator(b[end]) { end += 1 }
                guard let m = monthNumber(b[i..<end]) else { return nil }
                month = m
                i = end
                guard i < n, b[i] == UInt8(ascii: "-") else { return nil }
                i += 1
                let dayDigits = run(i)
                guard dayDigits <= 2, let d = number(dayDigits) else { return nil }
                day = d
            } else {
                guard digits <= 3, let m = number(digits) else { return nil }
                month = m
                if i < n && b[i] == UInt8(ascii: "-") {
                    i += 1
                    let dayDigits = run(i)
                    guard dayDigits <= 2, let d = number(dayDigits) else { return nil }
                    day = d
                }
            }
        } else if i < n {
            switch run(i) {
            case 3: ordinal = number(3)
            case 4:
                guard let m = number(2), let d = number(2) else { return nil }
                month = m
                day = d
            default: return nil
            }
        }
        if let ordinal {
            guard ordinal >= 1, ordinal <= (daysInMonth(year, 2) == 29 ? 366 : 365) else { return nil }
            // Day `ordinal` of the year: assemble from 1 January and add the days.
            guard let start = assemble(year: year, month: 1, day: 1, hour: 0, minute: 0, second: 0, offset: 0) else {
                return nil
            }
            let rest = Array(b[i...])
            var timeOnly = Array("2000-01-01".utf8)
            timeOnly.append(contentsOf: rest)
            guard let base = parseISO(timeOnly) else { return nil }
            let midnight2000 = daysFromCivil(2000, 1, 1) * 86_400
            let seconds = start + Int64(ordinal - 1) * 86_400 + (base - midnight2000)
            guard seconds >= daysFromCivil(1, 1, 1) * 86_400, seconds < daysFromCivil(10000, 1, 1) * 86_400 else {
                return nil
            }
            return seconds
        }
        var hour = 0
        var minute = 0
        var second = 0
        var offset = 0
        if i < n {
            guard isTimeSeparator(b[i]) else { return nil }
            while i < n, isTimeSeparator(b[i]) { i += 1 }
            let digits = run(i)
            if i + digits < n, b[i + digits] == UInt8(ascii: ":") {
                guard (1...2).contains(digits), let h = number(digits) else { return nil }
                i += 1
                guard run(i) == 2, let mi = number(2) else { return nil }
                hour = h
                minute = mi
                if i < n, b[i] == UInt8(ascii: ":") {
                    i += 1
                    guard run(i) == 2, let s = number(2) else { return nil }
                    second = s
                }
            } else {
                // Basic format: HHMM or HHMMSS.
                guard digits == 4 || digits == 6, let h = number(2), let mi = number(2) else { return nil }
                hour = h
                minute = mi
                if digits == 6, let s = number(2) { second = s }
            }
            if i < n, b[i] == UInt8(ascii: ".") || b[i] == UInt8(ascii: ",") {
                i += 1
                guard i < n, isDigit(b[i]) else { return nil }
                while i < n, isDigit(b[i]) { i += 1 }
            }
            // Whatever follows the time: spaces, an AM/PM marker, a zone. Nothing, or a lone `Z`
            // (most Atom dates), needs no token arrays.
            if i == n || (i == n - 1 && b[i] | 0x20 == UInt8(ascii: "z")) {
                return assemble(
                    year: year, month: month, day: day, hour: hour, minute: minute, second: second, offset: 0)
            }
            var tokens = Array(b[i...]).split(separator: 0x20)[...]
            if let first = tokens.first, let meridiem = meridiem(first) {
                guard let h = twelveHour(hour, pm: meridiem) else { return nil }
                hour = h
                tokens = tokens.dropFirst()
            }
            if let zoneToken = tokens.first {
                guard tokens.count == 1, let zone = zone(zoneToken) else { return nil }
                offset = zone
            }
        }
        return assemble(year: year, month: month, day: day, hour: hour, minute: minute, second: second, offset: offset)
    }

    /// A zone written as one token: `Z`, `±hh[:mm]`, `±hhmm`, a name (`GMT`, `EST`, `Etc/GMT`, a
    /// military letter) or a name with an offset (`GMT-0400`, `UTC+01:00`). Seconds east of UTC.
    private static func zone(_ token: ArraySlice<UInt8>) -> Int? {
        guard let first = token.first else { return nil }
        if first == UInt8(ascii: "+") || first == UInt8(ascii: "-") { return numericOffset(token) }
        if let named = namedZone(token) { return named }
        if let signIndex = token.firstIndex(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") }),
            namedZone(token[token.startIndex..<signIndex]) == 0
        {
            return numericOffset(token[signIndex...])
        }
        return nil
    }

    /// `true` for PM, `false` for AM (`am`, `pm`, `a.m.`, `p.m.`, any case), else `nil`.
    private static func meridiem(_ token: ArraySlice<UInt8>) -> Bool? {
        let letters = token.filter { $0 != UInt8(ascii: ".") }.map { $0 | 0x20 }
        guard letters.count == 2, letters[1] == UInt8(ascii: "m") else { return nil }
        if letters[0] == UInt8(ascii: "a") { return false }
        if letters[0] == UInt8(ascii: "p") { return true }
        return nil
    }

    /// A 12-hour clock hour (1...12) on the 24-hour clock; `nil` when out of range.
    private static func twelveHour(_ hour: Int, pm: Bool) -> Int? {
        guard (1...12).contains(hour) else { return nil }
        return hour % 12 + (pm ? 12 : 0)
    }

    // MARK: - RFC 822 and relatives

    private static func parseRFC(_ b: [UInt8]) -> Int64? {
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

        var month: Int? = nil
        var numbers: [ArraySlice<UInt8>] = []
        var slashDate: (Int, Int, Int)? = nil
        var time: (Int, Int, Int)? = nil
        var pm: Bool? = nil
        var offset: Int? = nil
        for (position, token) in tokens.enumerated() {
            let first = token[token.startIndex]
            if let marker = meridiem(token) {
                guard pm == nil, time != nil else { return nil }
                pm = marker
                continue
            }
            // A word: ASCII letters (perhaps ending in `.`), or any text with non-ASCII letters
            // (a Greek or Hungarian month, a weekday in another language).
            let isWord =
                token.allSatisfy(isLetter) || (token.last == UInt8(ascii: ".") && token.dropLast().allSatisfy(isLetter))
                || (token.contains(where: { $0 >= 0x80 }) && !token.contains(where: isDigit))
            if isWord {
                let word = token.last == UInt8(ascii: ".") ? token.dropLast() : token
                if let m = monthNumber(word) {
                    guard month == nil else { return nil }
                    month = m
                } else if let zone = namedZone(word) {
                    guard offset == nil else { return nil }
                    offset = zone
                } else if position == 0 {
                    continue  // the weekday, in whatever language: redundant, skipped
                } else {
                    return nil
                }
            } else if isDigit(first) && token.contains(UInt8(ascii: ":")) {
                guard time == nil, let parsed = timeOfDay(token, zone: &offset) else { return nil }
                time = parsed
            } else if isDigit(first) && token.contains(UInt8(ascii: "/")) {
                let parts = token.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
                guard slashDate == nil, parts.count == 3, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(isDigit) }),
                    parts[0].count == 4, let y = integer(parts[0]), let m = integer(parts[1]), let d = integer(parts[2])
                else { return nil }
                slashDate = (y, m, d)
            } else if token.allSatisfy(isDigit) {
                numbers.append(token)
            } else if first == UInt8(ascii: "+") || first == UInt8(ascii: "-") {
                guard offset == nil, let zone = numericOffset(token) else { return nil }
                offset = zone
            } else if let zone = zone(token) {
                // `GMT-0400`, `UTC+01:00`, `Etc/GMT`
                guard offset == nil else { return nil }
                offset = zone
            } else {
                return nil
            }
        }

        let year: Int
        let day: Int
        let monthNumber: Int
        if let (y, m, d) = slashDate {
            guard month == nil, numbers.isEmpty else { return nil }
            year = y
            monthNumber = m
            day = d
        } else {
            guard let month, numbers.count == 2 else { return nil }
            monthNumber = month
            let (first, second) = (numbers[0], numbers[1])
            // Digit counts decide which number is the day; `integer` refuses more than 9 digits
            // (a 10-digit year is simply not a date).
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
            year = y
            day = d
        }
        var (hour, minute, second) = time ?? (0, 0, 0)
        if let pm {
            guard let h = twelveHour(hour, pm: pm) else { return nil }
            hour = h
        }
        return assemble(
            year: year, month: monthNumber, day: day, hour: hour, minute: minute, second: second, offset: offset ?? 0)
    }

    /// `h:mm`, `hh:mm:ss`, `hh:mm:ss.fff`, optionally followed directly by `Z` or a numeric zone.
    private static func timeOfDay(_ token: ArraySlice<UInt8>, zone: inout Int?) -> (Int, Int, Int)? {
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
    private static func numericOffset(_ token: ArraySlice<UInt8>) -> Int? {
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

    private static func namedZone(_ token: ArraySlice<UInt8>) -> Int? {
        guard token.count <= 8 else { return nil }
        let name = String(decoding: token.map { $0 | 0x20 }, as: UTF8.self)
        return zones[name].map { $0 * 3600 }
    }

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
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
    private static func monthNumber(_ token: ArraySlice<UInt8>) -> Int? {
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

    // MARK: - Korean

    /// The two Korean shapes feedparser reads, both in Korea Standard Time (+09:00):
    /// `2004년 05월 28일 01:31:15` and `2004-05-25 오후 11:23:17` (오전 = AM, 오후 = PM).
    private static func parseKorean(_ b: [UInt8]) -> Int64? {
        let tokens = String(decoding: b, as: UTF8.self).split(whereSeparator: { $0 == " " || $0 == "\t" })
        func digits(_ text: Substring, _ counts: ClosedRange<Int>) -> Bool {
            counts.contains(text.utf8.count) && text.utf8.allSatisfy(isDigit)
        }
        var date: String
        var pm: Bool? = nil
        if tokens.count == 4, tokens[0].hasSuffix("년"), tokens[1].hasSuffix("월"), tokens[2].hasSuffix("일") {
            let (y, m, d) = (tokens[0].dropLast(), tokens[1].dropLast(), tokens[2].dropLast())
            guard digits(y, 4...4), digits(m, 1...2), digits(d, 1...2) else { return nil }
            date = "\(y)-\(m)-\(d)"
        } else if tokens.count == 3, tokens[1] == "오전" || tokens[1] == "오후", tokens[0].utf8.allSatisfy({ $0 < 0x80 }) {
            date = String(tokens[0])
            pm = tokens[1] == "오후"
        } else {
            return nil
        }
        let clock = tokens[tokens.count - 1].split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 2 || clock.count == 3, digits(clock[0], 1...2),
            clock.dropFirst().allSatisfy({ digits($0, 2...2) }),
            var hour = Int(clock[0])
        else { return nil }
        if let pm {
            guard let h = twelveHour(hour, pm: pm) else { return nil }
            hour = h
        }
        date += "T\(hour):" + clock.dropFirst().joined(separator: ":") + "+09:00"
        return parseISO(Array(date.utf8))
    }

    // MARK: - Helpers

    private static func assemble(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, offset: Int)
        -> Int64?
    {
        guard (1...9999).contains(year), (1...12).contains(month), day >= 1, day <= daysInMonth(year, month),
            hour <= 23, minute <= 59, second <= 60
        else { return nil }
        let days = daysFromCivil(year, month, day)
        let seconds = days * 86_400 + Int64(hour * 3600 + minute * 60 + second) - Int64(offset)
        // The instant itself must stay within years 1...9999 in UTC.
        guard seconds >= daysFromCivil(1, 1, 1) * 86_400, seconds < daysFromCivil(10000, 1, 1) * 86_400 else {
            return nil
        }
        return seconds
    }

    /// Days since 1970-01-01 in the proleptic Gregorian calendar (H. Hinnant's civil algorithm).
    static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let m = Int64(month)
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    private static func daysInMonth(_ year: Int, _ month: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    private static func stripComments(_ bytes: inout [UInt8]) {
        guard bytes.contains(UInt8(ascii: "(")) else { return }
        var depth = 0
        bytes = bytes.filter { byte in
            if byte == UInt8(ascii: "(") {
                depth += 1
                return false
            }
            if byte == UInt8(ascii: ")") {
                depth = max(0, depth - 1)
                return false
            }
            return depth == 0
        }
    }

    private static func integer(_ digits: ArraySlice<UInt8>) -> Int? {
        guard !digits.isEmpty, digits.count <= 9 else { return nil }
        var value = 0
        for d in digits {
            guard isDigit(d) else { return nil }
            value = value * 10 + Int(d - 48)
        }
        return value
    }

    private static func isDigit(_ b: UInt8) -> Bool { b >= 48 && b <= 57 }
    private static func isLetter(_ b: UInt8) -> Bool { (b | 0x20) >= 97 && (b | 0x20) <= 122 }
}
