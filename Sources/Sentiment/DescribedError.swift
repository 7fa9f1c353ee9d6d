import Foundation

/// An error whose `description` is its one-line reason, which
/// `localizedDescription` then says too, instead of Foundation's "The
/// operation could not be completed. (… error N.)": so an application that
/// catches `any Error` and logs it generically shows the reason.
public protocol DescribedError: LocalizedError, CustomStringConvertible {}

extension DescribedError {
    /// The `description`.
    public var errorDescription: String? { description }
}
