internal import Glibc
import FramedLayout
import FramedSystem

/// The date a PDF states it was made: the time of framing, as every PDF producer writes it, or
/// `SOURCE_DATE_EPOCH` (the reproducible-builds convention) when that is set.
extension DocumentMetadata {
    /// Now, or `SOURCE_DATE_EPOCH` when it is set to a whole number of seconds since 1970 up to
    /// the end of the year 9999, as `YYYY-MM-DDThh:mm:ss` in UTC. With `SOURCE_DATE_EPOCH` the
    /// same input gives the same bytes; without it two runs differ in their dates (and in
    /// PDF/X-4's ID, a hash that covers them).
    public static func framingDate() -> String {
        date(seconds: sourceDateEpoch() ?? Int(time(nil)))
    }

    /// `seconds` since 1970 as `YYYY-MM-DDThh:mm:ss` in UTC.
    static func date(seconds: Int) -> String {
        var time = time_t(seconds), parts = tm()
        gmtime_r(&time, &parts)
        return String(printf: "%04d-%02d-%02dT%02d:%02d:%02d", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
                      Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
    }

    /// The last second a date can be written in (9999-12-31T23:59:59).
    static let latestSecond = 253_402_300_799

    /// `SOURCE_DATE_EPOCH` as seconds, when it is set and usable.
    static func sourceDateEpoch() -> Int? {
        guard let text = getenv("SOURCE_DATE_EPOCH").map({ String(cString: $0) }),
              let seconds = Int(text), (0...latestSecond).contains(seconds) else { return nil }
        return seconds
    }

    /// Why `SOURCE_DATE_EPOCH` is not used though it is set (not a whole number of seconds from
    /// 1970 to the end of 9999), for a warning; nil when it is unset, empty or used.
    package static func unusableSourceDateEpoch() -> String? {
        guard let text = getenv("SOURCE_DATE_EPOCH").map({ String(cString: $0) }), !text.isEmpty,
              sourceDateEpoch() == nil else { return nil }
        return "SOURCE_DATE_EPOCH \"\(excerpt(text))\" is not a number of seconds from 1970 to 9999; "
            + "the time of framing is used"
    }

    /// The creation date (`YYYY-MM-DDThh:mm:ss`, UTC) as PDF writes dates: `D:YYYYMMDDhhmmss+00'00'`.
    var pdfDate: String { "D:" + (creationDate ?? "").filter(\.isNumber) + "+00'00'" }
}
