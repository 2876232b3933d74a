// ISO 8601 / W3C-DTF / RFC 3339 dates, and the time-of-day and zone pieces they share with the
// other shapes.
extension DateParser {
    // MARK: - ISO 8601 / W3C-DTF

    /// True when `b` starts like an ISO 8601 date: `YYYY`, `YYYY-…`, or the basic forms
    /// `YYYYMMDD` / `YYYYDDD` (alone or followed by a time).
    static func looksISO(_ b: [UInt8]) -> Bool {
        guard b.count >= 4, b[0..<4].allSatisfy(isDigit) else { return false }
        if b.count == 4 || b[4] == UInt8(ascii: "-") { return true }
        var run = 4
        while run < b.count, isDigit(b[run]) { run += 1 }
        return (run == 7 || run == 8) && (run == b.count || isTimeSeparator(b[run]))
    }

    static func isTimeSeparator(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "T") || byte == UInt8(ascii: "t") || byte == 0x20
    }

    /// ISO 8601 as feeds write it: W3C-DTF (`YYYY`, `YYYY-MM`, `YYYY-MM-DD`), ordinal dates
    /// (`YYYY-DDD`), the basic forms (`YYYYMMDD`, `YYYYDDD`, `THHMMSS`), a three-digit month
    /// (`2003-012-31`), a month name (`2004-July-13`, also Hungarian), `T`, `t` or spaces before
    /// the time, and a zone written directly or after spaces (`Z`, `±hh[:mm]`, `±hhmm`, a zone
    /// name such as `GMT`, `GMT+01:00`), optionally preceded by `AM`/`PM`.
    static func parseISO(_ b: [UInt8]) -> Int64? {
        var c = ISOCursor(b)
        guard let date = isoDate(&c) else { return nil }
        if let ordinal = date.ordinal { return ordinalDate(year: date.year, ordinal: ordinal, rest: Array(b[c.i...])) }
        guard let time = isoTime(&c) else { return nil }
        return assemble(
            year: date.year, month: date.month, day: date.day, hour: time.hour, minute: time.minute,
            second: time.second, offset: time.offset)
    }

    // A position in an ISO 8601 string and its digit runs.
    struct ISOCursor {
        let b: [UInt8]
        var i = 0
        var n: Int { b.count }

        init(_ b: [UInt8]) { self.b = b }

        // Digits from `from` on.
        func run(_ from: Int) -> Int {
            var end = from
            while end < n, isDigit(b[end]) { end += 1 }
            return end - from
        }

        mutating func number(_ count: Int) -> Int? {
            guard count >= 1, count <= 9, i + count <= n, let value = integer(b[i..<(i + count)]) else { return nil }
            i += count
            return value
        }
    }

    // The date: `YYYY[-MM[-DD]]`, `YYYY-DDD`, `YYYYMMDD`, `YYYYDDD`, a three-digit or named month.
    static func isoDate(_ c: inout ISOCursor) -> (year: Int, month: Int, day: Int, ordinal: Int?)? {
        guard let year = c.number(4) else { return nil }
        var month = 1
        var day = 1
        var ordinal: Int? = nil
        let b = c.b
        let n = c.n
        if c.i < n && b[c.i] == UInt8(ascii: "-") {
            c.i += 1
            let digits = c.run(c.i)
            if digits == 3 && (c.i + 3 == n || b[c.i + 3] != UInt8(ascii: "-")) {
                ordinal = c.number(3)
            } else if digits == 0 {
                // A month name: `2004-July-13`, `2004-július-13`.
                var end = c.i
                while end < n, b[end] != UInt8(ascii: "-"), !isTimeSeparator(b[end]) { end += 1 }
                guard let m = monthNumber(b[c.i..<end]) else { return nil }
                month = m
                c.i = end
                guard c.i < n, b[c.i] == UInt8(ascii: "-") else { return nil }
                c.i += 1
                let dayDigits = c.run(c.i)
                guard dayDigits <= 2, let d = c.number(dayDigits) else { return nil }
                day = d
            } else {
                guard digits <= 3, let m = c.number(digits) else { return nil }
                month = m
                if c.i < n && b[c.i] == UInt8(ascii: "-") {
                    c.i += 1
                    let dayDigits = c.run(c.i)
                    guard dayDigits <= 2, let d = c.number(dayDigits) else { return nil }
                    day = d
                }
            }
        } else if c.i < n {
            switch c.run(c.i) {
            case 3: ordinal = c.number(3)
            case 4:
                guard let m = c.number(2), let d = c.number(2) else { return nil }
                month = m
                day = d
            default: return nil
            }
        }
        return (year, month, day, ordinal)
    }

    // Day `ordinal` of `year`, with the time in `rest`: assembled from 1 January plus the days.
    static func ordinalDate(year: Int, ordinal: Int, rest: [UInt8]) -> Int64? {
        guard ordinal >= 1, ordinal <= (daysInMonth(year, 2) == 29 ? 366 : 365) else { return nil }
        guard let start = assemble(year: year, month: 1, day: 1, hour: 0, minute: 0, second: 0, offset: 0) else {
            return nil
        }
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

    // The time after the date, if any: `hh:mm[:ss]` or `hhmm[ss]`, a fraction, then spaces, an
    // AM/PM marker and a zone. Midnight UTC when there is none.
    static func isoTime(_ c: inout ISOCursor) -> (hour: Int, minute: Int, second: Int, offset: Int)? {
        let b = c.b
        let n = c.n
        guard c.i < n else { return (0, 0, 0, 0) }
        guard isTimeSeparator(b[c.i]) else { return nil }
        while c.i < n, isTimeSeparator(b[c.i]) { c.i += 1 }
        var hour = 0
        var minute = 0
        var second = 0
        let digits = c.run(c.i)
        if c.i + digits < n, b[c.i + digits] == UInt8(ascii: ":") {
            guard (1...2).contains(digits), let h = c.number(digits) else { return nil }
            c.i += 1
            guard c.run(c.i) == 2, let mi = c.number(2) else { return nil }
            hour = h
            minute = mi
            if c.i < n, b[c.i] == UInt8(ascii: ":") {
                c.i += 1
                guard c.run(c.i) == 2, let s = c.number(2) else { return nil }
                second = s
            }
        } else {
            // Basic format: HHMM or HHMMSS.
            guard digits == 4 || digits == 6, let h = c.number(2), let mi = c.number(2) else { return nil }
            hour = h
            minute = mi
            if digits == 6, let s = c.number(2) { second = s }
        }
        if c.i < n, b[c.i] == UInt8(ascii: ".") || b[c.i] == UInt8(ascii: ",") {
            c.i += 1
            guard c.i < n, isDigit(b[c.i]) else { return nil }
            while c.i < n, isDigit(b[c.i]) { c.i += 1 }
        }
        // Whatever follows the time: spaces, an AM/PM marker, a zone. Nothing, or a lone `Z`
        // (most Atom dates), needs no token arrays.
        if c.i == n || (c.i == n - 1 && b[c.i] | 0x20 == UInt8(ascii: "z")) { return (hour, minute, second, 0) }
        var offset = 0
        var tokens = Array(b[c.i...]).split(separator: 0x20)[...]
        if let first = tokens.first, let meridiem = meridiem(first) {
            guard let h = twelveHour(hour, pm: meridiem) else { return nil }
            hour = h
            tokens = tokens.dropFirst()
        }
        if let zoneToken = tokens.first {
            guard tokens.count == 1, let zone = zone(zoneToken) else { return nil }
            offset = zone
        }
        return (hour, minute, second, offset)
    }

    /// A zone written as one token: `Z`, `±hh[:mm]`, `±hhmm`, a name (`GMT`, `EST`, `Etc/GMT`, a
    /// military letter) or a name with an offset (`GMT-0400`, `UTC+01:00`). Seconds east of UTC.
    static func zone(_ token: ArraySlice<UInt8>) -> Int? {
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
    static func meridiem(_ token: ArraySlice<UInt8>) -> Bool? {
        let letters = token.filter { $0 != UInt8(ascii: ".") }.map { $0 | 0x20 }
        guard letters.count == 2, letters[1] == UInt8(ascii: "m") else { return nil }
        if letters[0] == UInt8(ascii: "a") { return false }
        if letters[0] == UInt8(ascii: "p") { return true }
        return nil
    }

    /// A 12-hour clock hour (1...12) on the 24-hour clock; `nil` when out of range.
    static func twelveHour(_ hour: Int, pm: Bool) -> Int? {
        guard (1...12).contains(hour) else { return nil }
        return hour % 12 + (pm ? 12 : 0)
    }
}
