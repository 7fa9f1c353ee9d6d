import Foundation

/// The two date formats tweets come in, parsed and printed without `DateFormatter`
/// (which is neither `Sendable` nor cheap to create).
///
/// - ISO 8601, as in X API v2: `2018-10-10T20:19:24.000Z` (fractional seconds and
///   a numeric offset optional).
/// - The v1.1 / archive form: `Wed Oct 10 20:19:24 +0000 2018`.
///
/// Years are 0 to 9999 in both.
public enum TweetDate {
    /// Parses either format; `nil` when the text is neither.
    public static func parse(_ text: String) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        return parseISO8601(trimmed) ?? parseV1(trimmed)
    }

    /// The earliest date either format can write: `0000-01-01T00:00:00.000Z`.
    public static let earliest = Date(timeIntervalSince1970: Double(daysFromCivil(year: 0, month: 1, day: 1) * 86_400))
    /// The latest date either format can write: `9999-12-31T23:59:59.999Z`.
    public static let latest = Date(
        timeIntervalSince1970: Double(daysFromCivil(year: 9999, month: 12, day: 31) * 86_400 + 86_399) + 0.999)

    /// A date as both formats keep it: to the nearest millisecond, and held to
    /// years 0 to 9999 (``earliest`` … ``latest``; not a number is ``earliest``).
    /// Applying it twice changes nothing, and
    /// `parse(iso8601String(d)) == normalized(d)` for every date `d`.
    public static func normalized(_ date: Date) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds(date)) / 1000)
    }

    /// Milliseconds since 1970 of ``normalized(_:)``.
    static func milliseconds(_ date: Date) -> Int64 {
        let lower = earliest.timeIntervalSince1970 * 1000, upper = latest.timeIntervalSince1970 * 1000
        let value = date.timeIntervalSince1970 * 1000
        guard value >= lower else { return Int64(lower) }  // also not a number
        return Int64(min(value, upper).rounded())
    }

    /// Formats a date as ISO 8601 in UTC with milliseconds: `2018-10-10T20:19:24.000Z`.
    ///
    /// The date is ``normalized(_:)`` first: a date before year 0 or after
    /// year 9999 is written as the nearest end of that range, never as a year
    /// that ``parse(_:)`` would refuse.
    public static func iso8601String(_ date: Date) -> String {
        let milliseconds = milliseconds(date)
        let seconds = Int64((Double(milliseconds) / 1000).rounded(.down))
        let millis = Int(milliseconds - seconds * 1000)
        var days = seconds / 86_400
        var rest = seconds - days * 86_400
        if rest < 0 { rest += 86_400; days -= 1 }
        let (year, month, day) = civilDate(fromDays: days)
        let hour = Int(rest / 3600), minute = Int(rest % 3600 / 60), second = Int(rest % 60)
        return pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T" + pad(hour, 2) + ":"
            + pad(minute, 2) + ":" + pad(second, 2) + "." + pad(millis, 3) + "Z"
    }

    // MARK: - ISO 8601

    static func parseISO8601(_ s: String) -> Date? {
        let c = Array(s.utf8)
        guard c.count >= 19, c[4] == UInt8(ascii: "-"), c[7] == UInt8(ascii: "-"),
            c[10] == UInt8(ascii: "T") || c[10] == UInt8(ascii: " "),
            c[13] == UInt8(ascii: ":"), c[16] == UInt8(ascii: ":"),
            let year = number(c, 0, 4), let month = number(c, 5, 2), let day = number(c, 8, 2),
            let hour = number(c, 11, 2), let minute = number(c, 14, 2), let second = number(c, 17, 2)
        else { return nil }
        var index = 19
        var fraction = 0.0
        if index < c.count, c[index] == UInt8(ascii: ".") {
            index += 1
            let digitsStart = index
            var scale = 0.1
            while index < c.count, let digit = digit(c[index]) {
                fraction += Double(digit) * scale
                scale /= 10
                index += 1
            }
            // `20:19:24.Z`: a decimal point with no digit after it is no fraction.
            guard index > digitsStart else { return nil }
        }
        var offset = 0
        if index < c.count {
            switch c[index] {
            case UInt8(ascii: "Z"), UInt8(ascii: "z"):
                index += 1
            case UInt8(ascii: "+"), UInt8(ascii: "-"):
                // `+hh:mm` or `+hhmm`, hours 00–23 and minutes 00–59.
                let sign = c[index] == UInt8(ascii: "-") ? -1 : 1
                let zone = Array(c[(index + 1)...])
                let colon = zone.count == 5 && zone[2] == UInt8(ascii: ":")
                guard zone.count == 4 || colon, let hh = number(zone, 0, 2), let mm = number(zone, colon ? 3 : 2, 2),
                    let seconds = offsetSeconds(hours: hh, minutes: mm)
                else { return nil }
                offset = sign * seconds
                index = c.count
            default:
                return nil
            }
        }
        guard index == c.count else { return nil }
        return date(year: year, month: month, day: day, hour: hour, minute: minute, second: second,
                    fraction: fraction, offsetSeconds: offset)
    }

    // MARK: - v1.1

    static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    static func parseV1(_ s: String) -> Date? {
        let parts = s.split(separator: " ")
        guard parts.count == 6,
            let month = months.firstIndex(of: parts[1].lowercased()).map({ $0 + 1 }),
            let day = Int(parts[2]), let year = Int(parts[5])
        else { return nil }
        let time = parts[3].split(separator: ":")
        guard time.count == 3, let hour = Int(time[0]), let minute = Int(time[1]), let second = Int(time[2])
        else { return nil }
        let zone = Array(parts[4].utf8)
        guard zone.count == 5, zone[0] == UInt8(ascii: "+") || zone[0] == UInt8(ascii: "-"),
            let hh = number(zone, 1, 2), let mm = number(zone, 3, 2), let seconds = offsetSeconds(hours: hh, minutes: mm)
        else { return nil }
        let offset = (zone[0] == UInt8(ascii: "-") ? -1 : 1) * seconds
        return date(year: year, month: month, day: day, hour: hour, minute: minute, second: second,
                    fraction: 0, offsetSeconds: offset)
    }

    /// A UTC offset's seconds; `nil` for hours past 23 or minutes past 59
    /// (`+2400`, `+0560`), which no zone has.
    static func offsetSeconds(hours: Int, minutes: Int) -> Int? {
        guard (0...23).contains(hours), (0...59).contains(minutes) else { return nil }
        return hours * 3600 + minutes * 60
    }

    // MARK: - Arithmetic (proleptic Gregorian, Howard Hinnant's algorithms)

    static func date(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int,
                     fraction: Double, offsetSeconds: Int) -> Date? {
        // Four-digit years, as ISO 8601 writes them: a longer one overflows
        // the arithmetic below, or later the milliseconds of `iso8601String`.
        guard (0...9999).contains(year), (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
            (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return normalized(Date(timeIntervalSince1970: Double(seconds) + fraction))
    }

    /// The days of `month` (1–12) in `year`, February 29 in Gregorian leap years:
    /// a 30 February or 31 April is no date (it would count on into the next month).
    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civilDate(fromDays z0: Int64) -> (Int, Int, Int) {
        let z = Int(z0) + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func digit(_ byte: UInt8) -> Int? {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) ? Int(byte - UInt8(ascii: "0")) : nil
    }

    private static func number(_ c: [UInt8], _ start: Int, _ count: Int) -> Int? {
        guard start + count <= c.count else { return nil }
        var value = 0
        for i in start..<(start + count) {
            guard let d = digit(c[i]) else { return nil }
            value = value * 10 + d
        }
        return value
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let s = String(value)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }
}
