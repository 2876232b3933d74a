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
    static func packed(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt32 {
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

    // MARK: - Korean

    /// The two Korean shapes feedparser reads, both in Korea Standard Time (+09:00):
    /// `2004년 05월 28일 01:31:15` and `2004-05-25 오후 11:23:17` (오전 = AM, 오후 = PM).
    static func parseKorean(_ b: [UInt8]) -> Int64? {
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

    static func assemble(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, offset: Int)
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

    static func daysInMonth(_ year: Int, _ month: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    static func stripComments(_ bytes: inout [UInt8]) {
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

    static func integer(_ digits: ArraySlice<UInt8>) -> Int? {
        guard !digits.isEmpty, digits.count <= 9 else { return nil }
        var value = 0
        for d in digits {
            guard isDigit(d) else { return nil }
            value = value * 10 + Int(d - 48)
        }
        return value
    }

    static func isDigit(_ b: UInt8) -> Bool { b >= 48 && b <= 57 }
    static func isLetter(_ b: UInt8) -> Bool { (b | 0x20) >= 97 && (b | 0x20) <= 122 }
}
