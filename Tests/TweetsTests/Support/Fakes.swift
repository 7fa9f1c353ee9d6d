import Foundation
import Sentiment
@testable import Tweets

/// A classifier with a keyword rule that counts what it is asked to classify.
final class CountingClassifier: TweetClassifier, @unchecked Sendable {
    let modelID: String
    private let lock = NSLock()
    private var _batches: [[String]] = []

    init(modelID: String = "fake@1.0.0+00000000") {
        self.modelID = modelID
    }

    /// Every batch asked for, in order.
    var batches: [[String]] { lock.withLock { _batches } }
    /// How many texts were classified in all.
    var classifiedCount: Int { batches.reduce(0) { $0 + $1.count } }

    func classify(_ texts: [String]) -> [Prediction] {
        lock.withLock { _batches.append(texts) }
        return texts.map(Self.predict)
    }

    /// "love/great/happy" positive, "sad/hate/awful" negative, "hola" Spanish, else neutral.
    static func predict(_ text: String) -> Prediction {
        let lower = text.lowercased()
        if lower.contains("hola") {
            return Prediction(label: .neutral, probabilities: .init(negative: 0.2, neutral: 0.6, positive: 0.2),
                              language: .unsupported(code: "es"))
        }
        if ["love", "great", "happy"].contains(where: lower.contains) {
            return Prediction(label: .positive, probabilities: .init(negative: 0.05, neutral: 0.15, positive: 0.8),
                              language: .english)
        }
        if ["sad", "hate", "awful"].contains(where: lower.contains) {
            return Prediction(label: .negative, probabilities: .init(negative: 0.85, neutral: 0.1, positive: 0.05),
                              language: .english)
        }
        return Prediction(label: .neutral, probabilities: .init(negative: 0.1, neutral: 0.8, positive: 0.1),
                          language: .english)
    }
}

/// A virtual clock: `sleep` records the duration, advances `now`, and returns at once.
final class VirtualSleeper: Sleeper, @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date
    private var _sleeps: [Duration] = []

    init(now: Date = referenceDate) {
        current = now
    }

    var sleeps: [Duration] { lock.withLock { _sleeps } }

    func now() -> Date { lock.withLock { current } }

    func advance(by seconds: TimeInterval) {
        lock.withLock { current += seconds }
    }

    func sleep(for duration: Duration) async throws {
        try Task.checkCancellation()
        lock.withLock {
            _sleeps.append(duration)
            current += duration.seconds
        }
    }
}

/// A scripted source: a user and their tweets, or a failure for every call.
final class FakeSource: TweetSource, @unchecked Sendable {
    private let lock = NSLock()
    private var _users: [User]
    private var _tweets: [Tweet]
    private var _failure: TweetSourceFailure?
    private var _tweetsFailure: TweetSourceFailure?
    private var _calls = 0
    private var _pageLimit = Int.max
    private var _emptyPages = 0

    init(users: [User] = [], tweets: [Tweet] = []) {
        _users = users
        _tweets = tweets
    }

    var calls: Int { lock.withLock { _calls } }

    func fail(with failure: TweetSourceFailure?) { lock.withLock { _failure = failure } }

    /// Fails the tweets calls alone: the user is found, their tweets are not.
    func failTweets(with failure: TweetSourceFailure?) { lock.withLock { _tweetsFailure = failure } }

    func add(_ tweets: [Tweet]) { lock.withLock { _tweets += tweets } }

    /// Sends at most `count` tweets a page, whatever `maxResults` asks: X may send fewer.
    func limitPages(to count: Int) { lock.withLock { _pageLimit = count } }

    /// Answers the next `count` tweets calls with no tweet and a cursor to the
    /// same place, as X does when it filters a page's replies and retweets out.
    func sendEmptyPages(_ count: Int) { lock.withLock { _emptyPages = count } }

    func user(username: String) async throws -> User {
        try lock.withLock {
            _calls += 1
            if let _failure { throw _failure }
            guard let user = _users.first(where: { $0.usernameKey == User.key(for: username) }) else {
                throw TweetSourceFailure.unknownUser(username)
            }
            return user
        }
    }

    func tweets(of user: User, maxResults: Int, cursor: String?) async throws -> Page<Tweet> {
        try lock.withLock {
            _calls += 1
            if let failure = _failure ?? _tweetsFailure { throw failure }
            let tweets = _tweets.filter { $0.authorID == user.id }.sorted(by: Tweet.newestFirst)
            let start = cursor.flatMap { Int($0) } ?? 0
            if _emptyPages > 0 {
                _emptyPages -= 1
                return Page(items: [], nextCursor: String(start))
            }
            let end = min(tweets.count, start + min(maxResults, _pageLimit))
            return Page(items: start < end ? Array(tweets[start..<end]) : [],
                        nextCursor: end < tweets.count ? String(end) : nil)
        }
    }
}

// MARK: - Sample data

let alice = User(id: "100", username: "Alice", displayName: "Alice Example", description: "Made up.")
let bob = User(id: "200", username: "bob_builder", displayName: "Bob")

/// Makes the database file `path` hold `alice` and three of her tweets
/// (`sampleTweets`), and a search for her when `searched`, and closes it.
func storeAliceTweets(at path: String, searched: Bool = false) async throws {
    let store = try TweetStore(path: path, logger: testLogger)
    try await store.save(users: [alice], tweets: sampleTweets(3, by: alice))
    if searched { try await store.recordSearch(username: "alice", at: referenceDate, limit: 10) }
    try store.close()
}

/// `count` tweets by `author`, one a minute before `referenceDate`, newest first, ids "<author>-<n>".
func sampleTweets(_ count: Int, by author: User, texts: [String] = ["I love this", "so sad today", "just a note"])
    -> [Tweet]
{
    (0..<count).map { index in
        Tweet(id: "\(author.id)\(String(format: "%04d", 9999 - index))", authorID: author.id,
              text: texts[index % texts.count] + " #\(index)",
              createdAt: referenceDate.addingTimeInterval(Double(-60 * (index + 1))), language: "en")
    }
}
