import Logging

/// The logger of the request that a source call is made for.
///
/// A source shared by many requests — a server has one ``XAPIClient`` — was
/// made with one logger. ``TweetService`` binds its own logger here around
/// each source call, and ``XAPIClient`` logs with it (its retries and
/// AsyncHTTPClient's lines too), so upstream lines carry the request's
/// metadata, such as the server's `request_id`.
///
/// ```swift
/// try await RequestLogger.$current.withValue(requestLogger) {
///     try await source.user(username: "alice")
/// }
/// ```
public enum RequestLogger {
    /// The logger bound for the current task, if any.
    @TaskLocal public static var current: Logger?
}
