import ArgumentParser
import CStandardStreams
import Foundation
import Sentiment

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard input and output as `sentiment` found them at its start.
///
/// A closed one was opened on `/dev/null` before anything else ran
/// (`CStandardStreams`), so that no file the command opens takes its number;
/// the commands report it as closed instead of reading nothing or writing into
/// the void.
enum StandardStreams {
    /// Standard input was closed when the process started (`sentiment classify <&-`).
    static var inputWasClosed: Bool { sst_was_closed(STDIN_FILENO) != 0 }

    /// Standard output was closed when the process started (`sentiment classify >&-`).
    static var outputWasClosed: Bool { sst_was_closed(STDOUT_FILENO) != 0 }

    /// Why standard input could not be read, for each command to say in its own words.
    struct ReadError: Error {
        /// "closed" when standard input was closed at the start, else the
        /// system's text for the failed read ("Is a directory").
        let reason: String
    }

    /// All of standard input, read with `read(2)` (`FileBytes`; FileHandle's
    /// error says only "NSCocoaErrorDomain error 256"), retrying EINTR and
    /// waiting for data when standard input is non-blocking (EAGAIN: a parent
    /// process such as a Node.js script may leave its pipe so), as `classify` waits on it.
    ///
    /// - Parameter limit: stop reading once more than `limit` bytes have come
    ///   (the data returned is then longer than `limit`, and standard input is
    ///   left unread past it), so a caller with a size limit is never fed
    ///   without end (`< /dev/zero`).
    /// - Throws: `ReadError` saying why standard input cannot be read: closed
    ///   at the start, or a folder (`< /tmp`: "Is a directory").
    static func readInput(atMost limit: Int = .max) throws(ReadError) -> Data {
        if inputWasClosed { throw ReadError(reason: "closed") }
        do {
            return try FileBytes.read(descriptor: STDIN_FILENO, atMost: limit)
        } catch {
            throw ReadError(reason: error.reason)
        }
    }

    /// Stops a command whose results go to standard output when it was closed:
    /// exit 74, the output error, before any work is done.
    static func requireOutput() throws {
        if outputWasClosed {
            printError("cannot write the output: standard output is closed")
            throw ExitCode.ioError
        }
    }

    /// Writes `text` whole to standard output, unbuffered (`write(2)`).
    ///
    /// A reader that went away (`| head`: EPIPE, where SIGPIPE is ignored)
    /// ends the command quietly, as it ends `classify`; any other failure (a
    /// full disk) is said on standard error and exits 74, so a script never
    /// takes a lost table or timeline for a written one.
    static func write(_ text: String) throws {
        var text = text
        let error = text.withUTF8 { writeAll(STDOUT_FILENO, UnsafeRawBufferPointer($0)) }
        guard error != 0 else { return }
        if error == EPIPE { throw ExitCode.success }
        throw writeFailed(error)
    }

    /// Says why a write to standard output failed (`errno`) and gives exit 74.
    static func writeFailed(_ error: Int32) -> ExitCode {
        printError("cannot write the output: \(String(cString: strerror(error)))")
        return ExitCode.ioError
    }
}
