import Foundation

/// What a timeline cursor holds, encoded as base64url JSON so it is opaque to clients.
struct TimelineCursor: Codable, Hashable, Sendable {
    /// The user's id.
    var u: String
    /// The last tweet shown: the next page starts below it.
    var b: String?
    /// The source's cursor for its next page.
    var t: String?
    /// Whether the source has no more pages.
    var x: Bool
    /// The source's failure that made a page of this walk stale: the pages
    /// that follow are read from the store alone, stale with the same failure,
    /// without asking the source again (which would wait out its retries on
    /// every page). Absent when the source answered.
    var f: TweetSourceFailure?

    var encoded: String {
        // Sorted keys: the same state always gives the same cursor.
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = (try? encoder.encode(self)) ?? Data()
        return data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    init(u: String, b: String?, t: String?, x: Bool, f: TweetSourceFailure? = nil) {
        self.u = u
        self.b = b
        self.t = t
        self.x = x
        self.f = f
    }

    init(encoded: String) throws {
        var base64 = encoded.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64), let cursor = try? JSONDecoder().decode(Self.self, from: data) else {
            throw TweetServiceError.invalidCursor
        }
        self = cursor
    }
}
