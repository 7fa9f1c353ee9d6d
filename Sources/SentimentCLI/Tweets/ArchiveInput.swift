import ArgumentParser
import Foundation
import Tweets

/// The archive or dump a `import` PATH or `tweets --archive` names, `-`
/// being standard input, read the same way for both commands.
enum ArchiveInput {
    /// How messages name the input `-`.
    static let standardInputName = "standard input"

    /// How messages name `argument`.
    static func name(of argument: String) -> String {
        argument == "-" ? standardInputName : argument
    }

    /// How messages name an author an input gives by id alone whose account
    /// is stored: `author_id 12, stored as @bob`.
    static func storedAuthor(_ user: User) -> String {
        TerminalText.oneLine("author_id \(user.id), stored as @\(user.username)")
    }

    /// Why an input gave no tweet: `it holds no tweets`, or `none of its
    /// tweets could be read` when entries were skipped (`issues`).
    static func noTweetsReason(issues: [ArchiveIssue]) -> String {
        issues.isEmpty ? "it holds no tweets" : "none of its tweets could be read"
    }

    /// Reads `argument`. A failure is said on standard error and thrown as
    /// its exit status: 66 a path that is missing or cannot be read (standard
    /// input closed included), 65 a folder without tweet files.
    static func load(_ argument: String) throws -> ArchiveContents {
        do {
            if argument == "-" { return ArchiveParser.parse(try readStandardInput(), file: standardInputName) }
            return try ArchiveParser.load(from: URL(fileURLWithPath: argument))
        } catch let error as ArchiveError {
            printError(error.description)
            if case .noTweetFiles = error { throw ExitCode.dataError }
            throw ExitCode.noInput
        }
    }

    private static func readStandardInput() throws -> Data {
        do {
            return try StandardStreams.readInput()
        } catch {
            throw ArchiveError.unreadable(standardInputName, reason: error.reason)
        }
    }
}
