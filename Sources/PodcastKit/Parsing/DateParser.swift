import Foundation

/// A tolerant, hand-written parser for the dates found in feeds: RFC 822 / RFC 2822 (`pubDate`),
/// ISO 8601 / W3C-DTF / RFC 3339 (`dc:date`, Atom `updated`), and the common deviations seen in real
/// podcast feeds (asctime, `yyyy/mm/dd`, long month names, missing seconds or time, extra commas,
/// a weekday in another language, `GMT-0400`, a parenthesised comment).
///
/// Rules: no zone means UTC; fractional seconds are dropped; an out-of-range field (hour 34, day
/// 99, minute `xx`) or trailing junk makes the whole date invalid (no roll-over); invalid is `nil`,
/// never "now". Dates before 1970 are valid. No `DateFormatter`, no locale, no global state.
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
        if bytes.count >= 4, bytes[0..<4].allSatisfy(isDigit), bytes.count == 4 || bytes[4] == UInt8(ascii: "-") {
            return parseISO(bytes)
        }
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
            guard rest.elementsEqual("GMT".utf8) || rest.elementsEqual("UT".utf8) || rest.elementsEqual("UTC".utf8)
                || rest.elementsEqual("Z".utf8)
            else { return nil }
        }
        return assemble(year: year, month: monthIndex + 1, day: day, hour: hour, minute: minute, second: second, offset: offset)
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

    private static func parseISO(_ b: [UInt8]) -> Int64? {
        var i = 0
        func number(min: Int, max: Int) -> Int? {
            var value = 0
            var count = 0
            while i < b.count, isDigit(b[i]), count < max {
                value = value * 10 + Int(b[i] - 48)
                i += 1
                count += 1
            }
            return count >= min ? value : nil
        }
        guard let year = number(min: 4, max: 4) else { return nil }
        var month = 1, day = 1, hour = 0, minute = 0, second = 0, offset = 0
        if i < b.count {
            guard b[i] == UInt8(ascii: "-") else { return nil }
            i += 1
            guard let m = number(min: 1, max: 3) else { return nil }
            month = m
            if i < b.count {
                guard b[i] == UInt8(ascii: "-") else { return nil }
                i += 1
                guard let d = number(min: 1, max: 2) else { return nil }
                day = d
            }
        }
        if i < b.count {
            guard b[i] == UInt8(ascii: "T") || b[i] == UInt8(ascii: "t") || b[i] == UInt8(ascii: " ") else { return nil }
            i += 1
            guard let h = number(min: 1, max: 2), i < b.count, b[i] == UInt8(ascii: ":") else { return nil }
            i += 1
            guard let mi = number(min: 2, max: 2) else { return nil }
            hour = h
            minute = mi
            if i < b.count, b[i] == UInt8(ascii: ":") {
                i += 1
                guard let s = number(min: 2, max: 2) else { return nil }
                second = s
                if i < b.count, b[i] == UInt8(ascii: ".") || b[i] == UInt8(ascii: ",") {
                    i += 1
                    guard i < b.count, isDigit(b[i]) else { return nil }
                    while i < b.count, isDigit(b[i]) { i += 1 }
                }
            }
            if i < b.count {
                if b[i] == UInt8(ascii: "Z") || b[i] == UInt8(ascii: "z") {
                    i += 1
                } else if b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") {
                    guard let zone = numericOffset(b[i...]) else { return nil }
                    offset = zone
                    i = b.count
                } else {
                    return nil
                }
            }
            guard i == b.count else { return nil }
        }
        return assemble(year: year, month: month, day: day, hour: hour, minute: minute, second: second, offset: offset)
    }

    // MARK: - RFC 822 and relatives

    private static func parseRFC(_ b: [UInt8]) -> Int64? {
        var tokens: [ArraySlice<UInt8>] = []
        var start: Int? = nil
        for (index, byte) in b.enumerated() {
            if byte == 0x20 || byte == 0x09 || byte == UInt8(ascii: ",") || byte == 0x0A || byte == 0x0D {
                if let s = start { tokens.append(b[s..<index]); start = nil }
            } else if start == nil {
                start = index
            }
        }
        if let s = start { tokens.append(b[s..<b.count]) }

        var month: Int? = nil
        var numbers: [ArraySlice<UInt8>] = []
        var slashDate: (Int, Int, Int)? = nil
        var time: (Int, Int, Int)? = nil
        var offset: Int? = nil
        for (position, token) in tokens.enumerated() {
            let first = token[token.startIndex]
            if token.allSatisfy(isLetter) || (token.last == UInt8(ascii: ".") && token.dropLast().allSatisfy(isLetter)) {
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
            } else if isLetter(first), let signIndex = token.firstIndex(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") }),
                namedZone(token[token.startIndex..<signIndex]) == 0
            {
                // `GMT-0400`, `UTC+01:00`
                guard offset == nil, let zone = numericOffset(token[signIndex...]) else { return nil }
                offset = zone
            } else if let zone = namedZone(token) {
                // `Etc/GMT` and other names with punctuation
                guard offset == nil else { return nil }
                offset = zone
            } else {
                return nil
            }
        }

        var year: Int
        var day: Int
        if let (y, m, d) = slashDate {
            guard month == nil, numbers.isEmpty else { return nil }
            year = y
            month = m
            day = d
        } else {
            guard month != nil, numbers.count == 2 else { return nil }
            if numbers[0].count <= 2 && numbers[1].count >= 3 {
                day = integer(numbers[0])!
                year = integer(numbers[1])!
            } else if numbers[1].count <= 2 && numbers[0].count == 4 {
                year = integer(numbers[0])!
                day = integer(numbers[1])!
            } else if numbers[0].count <= 2 && numbers[1].count <= 2 {
                day = integer(numbers[0])!
                year = integer(numbers[1])!
            } else {
                return nil
            }
            if numbers[1].count <= 2 && numbers[0].count <= 2 {
                year += year < 50 ? 2000 : 1900  // RFC 2822 obsolete two-digit year
            } else if year < 1000 && (numbers[0].count == 3 || numbers[1].count == 3) {
                year += 1900
            }
        }
        let (hour, minute, second) = time ?? (0, 0, 0)
        return assemble(year: year, month: month!, day: day, hour: hour, minute: minute, second: second, offset: offset ?? 0)
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
        return (integer(parts[0])!, integer(parts[1])!, parts.count == 3 ? integer(parts[2])! : 0)
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
            guard (1...2).contains(h.count), m.count == 2, h.allSatisfy(isDigit), m.allSatisfy(isDigit) else { return nil }
            hours = integer(h)!
            minutes = integer(m)!
        } else {
            guard body.allSatisfy(isDigit) else { return nil }
            switch body.count {
            case 1, 2: hours = integer(body)!
            case 4:
                hours = integer(body.prefix(2))!
                minutes = integer(body.suffix(2))!
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

    private static func monthNumber(_ token: ArraySlice<UInt8>) -> Int? {
        guard token.count >= 3, token.count <= 9 else { return nil }
        let word = String(decoding: token.map { $0 | 0x20 }, as: UTF8.self)
        if let index = months.firstIndex(of: word) { return index + 1 }
        if let index = fullMonths.firstIndex(of: word) { return index + 1 }
        if word == "sept" { return 9 }
        return nil
    }

    // MARK: - Helpers

    private static func assemble(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, offset: Int) -> Int64? {
        guard (1...9999).contains(year), (1...12).contains(month), day >= 1, day <= daysInMonth(year, month),
            hour <= 23, minute <= 59, second <= 60
        else { return nil }
        let days = daysFromCivil(year, month, day)
        let seconds = days * 86_400 + Int64(hour * 3600 + minute * 60 + second) - Int64(offset)
        // The instant itself must stay within years 1...9999 in UTC.
        guard seconds >= daysFromCivil(1, 1, 1) * 86_400, seconds < daysFromCivil(10000, 1, 1) * 86_400 else { return nil }
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
            if byte == UInt8(ascii: "(") { depth += 1; return false }
            if byte == UInt8(ascii: ")") { depth = max(0, depth - 1); return false }
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
