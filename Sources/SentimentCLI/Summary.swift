#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Counts of what the records were.
struct Tally: Equatable, Sendable {
    /// Output records, errors included.
    var records = 0
    var positive = 0
    var neutral = 0
    var negative = 0
    /// Classified but in a language the model does not support (no label).
    var unsupported = 0
    /// Error records.
    var errors = 0

    /// Counts one record.
    mutating func count(_ outcome: RecordOutcome) {
        records += 1
        switch outcome {
        case .positive: positive += 1
        case .neutral: neutral += 1
        case .negative: negative += 1
        case .unsupported: unsupported += 1
        case .error: errors += 1
        }
    }

    static func += (lhs: inout Tally, rhs: Tally) {
        lhs.records += rhs.records
        lhs.positive += rhs.positive
        lhs.neutral += rhs.neutral
        lhs.negative += rhs.negative
        lhs.unsupported += rhs.unsupported
        lhs.errors += rhs.errors
    }
}

/// What one output record was.
enum RecordOutcome: UInt8, Sendable {
    case positive, neutral, negative
    /// Classified, in a language the model does not support (no label).
    case unsupported
    /// An error record.
    case error
}

/// The run's report on standard error: a live progress line while stderr is a
/// terminal, and the summary at the end.
///
///     classified 1000 records (positive 410, neutral 420, negative 160, errors 10) in 0.42 s, 2381 tweets/s
enum Summary {
    /// The final line: records, counts per label (plus unsupported, when any),
    /// errors, wall time and throughput; when the output's reader went away
    /// (`| head`), a note that the run stopped there; when a signal
    /// (`interruptedBy`) stopped it, which, and the last input line whose
    /// records were written (`afterLine`; 0: none was), after which nothing
    /// was classified, or that it came while the model was loading
    /// (`whileLoadingModel`), before any input was read.
    ///
    ///     classified 4096 records (…) in 1.20 s, 3413 tweets/s; interrupted by SIGINT after input line 4096: the lines after it were not classified
    ///     classified 0 records (…) in 0.00 s, 0 tweets/s; interrupted by SIGTERM while the model was loading: nothing was classified
    static func line(_ tally: Tally, seconds: Double, outputClosed: Bool = false,
                     interruptedBy signal: Int32? = nil, afterLine lastLine: Int = 0, whileLoadingModel: Bool = false) -> String {
        var counts = "positive \(tally.positive), neutral \(tally.neutral), negative \(tally.negative)"
        if tally.unsupported > 0 { counts += ", unsupported \(tally.unsupported)" }
        counts += ", errors \(tally.errors)"
        let noun = tally.records == 1 ? "record" : "records"
        let line = "classified \(tally.records) \(noun) (\(counts)) in \(fixed2(seconds)) s, \(rate(tally.records, seconds)) tweets/s"
        if let signal {
            let name = signalName(signal)
            if whileLoadingModel { return line + "; interrupted by \(name) while the model was loading: nothing was classified" }
            return lastLine > 0
                ? line + "; interrupted by \(name) after input line \(lastLine): the lines after it were not classified"
                : line + "; interrupted by \(name) before any record was written: the input was not classified"
        }
        return outputClosed ? line + "; stopped early: the output was closed" : line
    }

    /// "SIGINT", "SIGTERM", else "signal N", as the summary and `serve` name a signal.
    static func signalName(_ number: Int32) -> String {
        number == SIGINT ? "SIGINT" : number == SIGTERM ? "SIGTERM" : "signal \(number)"
    }

    /// The progress line, without its leading carriage return.
    static func progress(_ tally: Tally, seconds: Double) -> String {
        "classifying: \(tally.records) records, \(tally.errors) errors, \(rate(tally.records, seconds)) tweets/s"
    }

    /// Records per second, rounded; 0 for an empty or instant run.
    static func rate(_ records: Int, _ seconds: Double) -> Int {
        guard records > 0, seconds > 0 else { return 0 }
        return Int((Double(records) / seconds).rounded())
    }

    static func fixed2(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}

/// Monotonic seconds, for timings.
func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

/// Writes `bytes` completely to `fd`, retrying short writes and EINTR, and
/// waiting for room when `fd` is non-blocking (EAGAIN: a parent process such
/// as a Node.js script or a CI log collector may leave its pipe so).
///
/// - Returns: 0, or the `errno` of a failed write (EPIPE when the reader went away).
@discardableResult
func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
    var sent = 0
    return writeAll(fd, bytes, sent: &sent)
}

/// `writeAll(_:_:)`, telling in `sent` how many bytes were written, all of
/// them or those before a failed write.
func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, sent: inout Int) -> Int32 {
    sent = 0
    while sent < bytes.count {
        let written = write(fd, bytes.baseAddress! + sent, bytes.count - sent)
        if written < 0 {
            let error = errno
            if error == EINTR { continue }
            if error == EAGAIN || error == EWOULDBLOCK {
                var room = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                // POLLERR or POLLHUP (the reader went away) come back too: the next write says which.
                if poll(&room, 1, -1) >= 0 || errno == EINTR { continue }
                return errno
            }
            return error
        }
        sent += written
    }
    return 0
}

/// Writes a string to standard error.
func writeToStandardError(_ text: String) {
    var text = text
    _ = text.withUTF8 { writeAll(2, UnsafeRawBufferPointer($0)) }
}
