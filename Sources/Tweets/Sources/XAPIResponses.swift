import Foundation
import Sentiment

// The JSON bodies of the X API v2 endpoints the client calls.

/// `GET /2/users/by/username/:username`.
struct XUserResponse: Decodable {
    var data: XUserObject?
    var errors: [XAPIProblem]?
}

struct XUserObject: Decodable {
    var id: String
    var name: String?
    var username: String
    var description: String?
    var profile_image_url: String?

    var user: User {
        User(
            id: id,
            username: username,
            displayName: name ?? username,
            description: description.flatMap { $0.isEmpty ? nil : $0 },
            avatarURL: profile_image_url.flatMap(URL.init(string:))
        )
    }
}

/// `GET /2/users/:id/tweets`.
struct XTweetsResponse: Decodable {
    var data: [XTweetObject]?
    var errors: [XAPIProblem]?
    var meta: Meta?

    struct Meta: Decodable {
        var result_count: Int?
        var next_token: String?
    }
}

struct XTweetObject: Decodable {
    var id: String
    /// A long post's first 280 characters; the whole text is in ``note_tweet``.
    var text: String
    var created_at: String?
    var lang: String?
    var author_id: String?
    /// A long post's whole text (`tweet.fields=note_tweet`).
    var note_tweet: NoteTweet?

    struct NoteTweet: Decodable {
        var text: String?
    }

    /// The tweet, or `nil` when its text has nothing visible (``BlankText``):
    /// such a tweet is skipped, as an import skips it (`empty text`) and
    /// `classify` refuses it, rather than stored and labelled neutral.
    func tweet(defaultAuthorID: String) throws -> Tweet? {
        let text = HTMLEntities.decode(note_tweet?.text ?? text)
        guard !BlankText.isBlank(text) else { return nil }
        guard let createdAt = created_at.flatMap(TweetDate.parse) ?? Snowflake.date(ofID: id) else {
            throw TweetSourceFailure.malformedResponse("tweet \(id) has no valid created_at")
        }
        return Tweet(id: id, authorID: author_id ?? defaultAuthorID, text: text, createdAt: createdAt, language: lang)
    }
}

/// A problem object body (`{"title", "detail", "type", "status"}`), possibly with `errors`.
struct XProblemBody: Decodable {
    var title: String?
    var type: String?
    var detail: String?
    var status: Int?
    var errors: [XAPIProblem]?

    var problem: XAPIProblem? {
        if title != nil || detail != nil || type != nil {
            return XAPIProblem(title: title, type: type, detail: detail, status: status)
        }
        if let first = errors?.first {
            return XAPIProblem(title: first.title, type: first.type, detail: first.detail ?? errors?.first?.title, status: first.status)
        }
        return nil
    }
}

/// What X ids say about time: a snowflake id holds its creation time in milliseconds.
enum Snowflake {
    /// The snowflake epoch, 2010-11-04T01:42:54.657Z, in Unix milliseconds.
    static let epochMilliseconds: UInt64 = 1_288_834_974_657

    /// The creation time of a snowflake id; `nil` for older sequential ids and non-numbers.
    static func date(ofID id: String) -> Date? {
        guard let value = UInt64(id), value >= (1 << 32) else { return nil }
        return Date(timeIntervalSince1970: Double((value >> 22) + epochMilliseconds) / 1000)
    }
}

/// The three entities X escapes in tweet text (`&amp;`, `&lt;`, `&gt;`).
enum HTMLEntities {
    static func decode(_ text: String) -> String {
        guard text.contains("&") else { return text }
        return text.replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}
