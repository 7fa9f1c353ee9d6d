import Foundation
import GRDB
import Sentiment

// Database rows. Internal: the public API speaks `User`, `Tweet`, `ClassifiedTweet`.

struct UserRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "user"

    var id: String
    var username: String
    var usernameKey: String
    var displayName: String
    var description: String?
    var avatarURL: String?
    var updatedAt: Date

    enum CodingKeys: String, CodingKey {
        case id, username, description
        case usernameKey = "username_key"
        case displayName = "display_name"
        case avatarURL = "avatar_url"
        case updatedAt = "updated_at"
    }

    init(_ user: User, updatedAt: Date) {
        id = user.id
        username = user.username
        usernameKey = user.usernameKey
        displayName = user.displayName.storable
        description = user.description?.storable
        avatarURL = user.avatarURL?.absoluteString
        self.updatedAt = updatedAt
    }

    var user: User {
        User(id: id, username: username, displayName: displayName, description: description,
             avatarURL: avatarURL.flatMap(URL.init(string:)))
    }
}

struct TweetRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "tweet"

    var id: String
    var authorID: String
    var text: String
    var createdAt: Date
    var language: String?
    var storedAt: Date

    enum CodingKeys: String, CodingKey {
        case id, text, language
        case authorID = "author_id"
        case createdAt = "created_at"
        case storedAt = "stored_at"
    }

    init(_ tweet: Tweet, storedAt: Date) {
        id = tweet.id
        authorID = tweet.authorID
        text = tweet.text.storable
        createdAt = tweet.createdAt
        language = tweet.language
        self.storedAt = storedAt
    }

    var tweet: Tweet {
        Tweet(id: id, authorID: authorID, text: text, createdAt: createdAt, language: language)
    }
}

struct ClassificationRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "classification"

    var tweetID: String
    var modelID: String
    var label: String
    var pNegative: Double
    var pNeutral: Double
    var pPositive: Double
    var score: Double
    var language: String
    var classifiedAt: Date

    enum CodingKeys: String, CodingKey {
        case label, score, language
        case tweetID = "tweet_id"
        case modelID = "model_id"
        case pNegative = "p_negative"
        case pNeutral = "p_neutral"
        case pPositive = "p_positive"
        case classifiedAt = "classified_at"
    }

    init(tweetID: String, modelID: String, prediction: Prediction, classifiedAt: Date) {
        self.tweetID = tweetID
        self.modelID = modelID
        label = prediction.label.rawValue
        pNegative = prediction.probabilities.negative
        pNeutral = prediction.probabilities.neutral
        pPositive = prediction.probabilities.positive
        score = prediction.score
        language = prediction.language.tag
        self.classifiedAt = classifiedAt
    }

    var prediction: Prediction? {
        guard let label = SentimentLabel(rawValue: label) else { return nil }
        return Prediction(
            label: label,
            probabilities: ClassProbabilities(negative: pNegative, neutral: pNeutral, positive: pPositive),
            language: Language(tag: language)
        )
    }
}

struct SearchHistoryRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "search_history"

    var usernameKey: String
    var username: String
    var searchedAt: Date

    enum CodingKeys: String, CodingKey {
        case username
        case usernameKey = "username_key"
        case searchedAt = "searched_at"
    }
}
