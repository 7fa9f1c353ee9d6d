import ArgumentParser

/// The exit statuses of `sentiment`, from BSD's `sysexits.h`.
///
/// | status | meaning                                                      |
/// |-------:|--------------------------------------------------------------|
/// |      0 | every record was classified                                  |
/// |     64 | usage: unknown option, bad value (argument-parser's default) |
/// |     65 | bad data: some record could not be used, or a malformed model |
/// |     66 | missing input: an input file or the model does not exist     |
/// |     67 | `tweets`: the user is unknown to the source                  |
/// |     69 | `tweets`: the X API failed and nothing is stored; `serve`: the address cannot be listened on |
/// |     73 | an output file or the database cannot be created or opened, or the database written |
/// |     74 | the output could not be written (`classify`: disk full)      |
/// | 130, 143 | `classify`: stopped by SIGINT or SIGTERM, after its summary (the signal is raised again, so a shell sees 128 + its number) |
extension ExitCode {
    /// `EX_USAGE`: the command was used incorrectly.
    static let usage = ExitCode(64)
    /// `EX_DATAERR`: some input records were malformed (the output is still
    /// complete, an error record in each one's place), or the model was (nothing was done).
    static let dataError = ExitCode(65)
    /// `EX_NOINPUT`: an input file or the model directory does not exist or cannot be read.
    static let noInput = ExitCode(66)
    /// `EX_NOUSER`: the user is unknown to the source.
    static let noUser = ExitCode(67)
    /// `EX_UNAVAILABLE`: a service is unavailable: the X API failed and
    /// nothing is stored (`tweets`), or the server's address cannot be listened on (`serve`).
    static let unavailable = ExitCode(69)
    /// `EX_CANTCREAT`: an output file (a report, a model, the tweet database)
    /// cannot be created or opened, or the tweet database read or written
    /// (locked by another process past the busy timeout, a full disk).
    static let cannotCreate = ExitCode(73)
    /// `EX_IOERR`: the output could not be written.
    static let ioError = ExitCode(74)
}
