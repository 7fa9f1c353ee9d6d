import Foundation
import Sentiment

/// What an archive or dump held: its users and tweets, and the entries that
/// could not be read.
public struct ArchiveContents: Sendable, Hashable {
    /// The users the files named (the archive's account, v1.1 `user` objects,
    /// v2 `includes.users`), without duplicates.
    public var users: [User]
    /// The valid tweets, newest first, without duplicate ids. `authorID` is
    /// empty when the file did not say who wrote a tweet (see ``assigning(owner:)``).
    public var tweets: [Tweet]
    /// The entries that were skipped, in file order.
    public var issues: [ArchiveIssue]
    /// Tweets left out because a tweet with their id came before them (pages
    /// that overlap). A repeat whose text, author or date differs from the
    /// first is also in ``issues``: the first is the one kept.
    public var repeatedTweets: Int

    /// Creates contents; tweets are deduplicated by id (the first of each is
    /// kept) and sorted newest first.
    public init(users: [User] = [], tweets: [Tweet] = [], issues: [ArchiveIssue] = []) {
        self.init(users: users, tweets: tweets, issues: issues, repeatedTweets: 0)
    }

    /// Contents whose `tweets` may still repeat ids; `repeatedTweets` were
    /// already left out (by ``ArchiveParser``, which names where each was).
    init(users: [User], tweets: [Tweet], issues: [ArchiveIssue], repeatedTweets: Int) {
        var seenUsers = Set<String>()
        let users = users.filter { seenUsers.insert($0.id).inserted }
        // A user known by name alone (`local:name`, a v1.1 `user` without an
        // id) is the user of that name with an id, when the input has one.
        var idOfName: [String: String] = [:]
        for user in users where !user.id.hasPrefix(User.localIDPrefix) {
            idOfName[user.usernameKey] = idOfName[user.usernameKey] ?? user.id
        }
        var realID: [String: String] = [:]
        for user in users where user.id.hasPrefix(User.localIDPrefix) {
            if let id = idOfName[user.usernameKey] { realID[user.id] = id }
        }
        self.users = users.filter { realID[$0.id] == nil }
        var firstOfID: [String: Tweet] = [:]
        var kept: [Tweet] = []
        var issues = issues
        var repeated = repeatedTweets
        for var tweet in tweets {
            if let id = realID[tweet.authorID] { tweet.authorID = id }
            guard let first = firstOfID[tweet.id] else {
                firstOfID[tweet.id] = tweet
                kept.append(tweet)
                continue
            }
            repeated += 1
            if first.text != tweet.text || first.authorID != tweet.authorID || first.createdAt != tweet.createdAt {
                issues.append(ArchiveIssue(file: "input", position: "tweet \(tweet.id)",
                                           reason: "repeated with another text, author or date; the first is kept"))
            }
        }
        self.tweets = kept.sorted(by: Tweet.newestFirst)
        self.issues = issues
        self.repeatedTweets = repeated
    }

    /// The user whose username matches (case-insensitively), if the archive named one.
    public func user(username: String) -> User? {
        let key = User.key(for: username)
        return users.first { $0.usernameKey == key }
    }

    /// These contents with `owner` added to ``users`` and given every tweet whose
    /// author is unknown: no author id, or an id no user of the archive has
    /// when the tweets name one such id alone. When they name several (a v2
    /// dump without `includes.users`), which of them is the owner's cannot be
    /// told, so their tweets keep their ids and stay without a known author.
    public func assigning(owner: User) -> ArchiveContents {
        let known = Set(users.map(\.id)).subtracting([owner.id])
        let unnamed = unnamedAuthorIDs.subtracting([owner.id])
        var copy = self
        if !copy.users.contains(where: { $0.id == owner.id }) { copy.users.append(owner) }
        copy.tweets = tweets.map { tweet in
            var tweet = tweet
            if !known.contains(tweet.authorID), tweet.authorID.isEmpty || unnamed.count <= 1 {
                tweet.authorID = owner.id
            }
            return tweet
        }
        return copy
    }

    /// The author ids of tweets that no user of the contents has.
    public var unnamedAuthorIDs: Set<String> {
        Set(tweets.map(\.authorID)).subtracting(users.map(\.id)).subtracting([""])
    }

    /// The user to show for `username` when the archive may not name its owner:
    /// the archive's user of that name; else, when some tweets lack a known
    /// author, a user made from the name, with the tweets' common author id
    /// (or `local:<name>`) as id. `nil` when every tweet has a known author
    /// (another user), when there is no tweet (a user made up for none would
    /// be stored with an empty timeline), or when the tweets name several
    /// authors by id alone (which of them is this user cannot be told).
    public func owner(username: String) -> User? {
        if let user = user(username: username) { return user }
        let known = Set(users.map(\.id))
        let orphans = tweets.filter { !known.contains($0.authorID) }
        guard !orphans.isEmpty else { return nil }
        let ids = unnamedAuthorIDs
        guard ids.count <= 1 else { return nil }
        var name = Substring(username.trimmingCharacters(in: .whitespacesAndNewlines))
        if name.hasPrefix("@") { name = name.dropFirst() }
        let id = ids.count == 1 ? ids.first! : User.localIDPrefix + User.key(for: username)
        return User(id: id, username: String(name), displayName: String(name))
    }
}

/// One skipped entry: where it was and why.
public struct ArchiveIssue: Sendable, Hashable, CustomStringConvertible {
    /// The file, as given (e.g. `data/tweets-part1.js`).
    public var file: String
    /// Where in the file: `entry 3` (array element, 1-based), `line 12` (JSON
    /// Lines), possibly followed by `data[4]` inside a v2 page.
    public var position: String
    /// What was wrong.
    public var reason: String

    /// Creates an issue.
    public init(file: String, position: String, reason: String) {
        self.file = file
        self.position = position
        self.reason = reason
    }

    /// `data/tweets.js, entry 3: missing created_at`.
    public var description: String { "\(file), \(position): \(reason)" }
}

/// Why an archive could not be read at all.
public enum ArchiveError: Sendable, Hashable, DescribedError {
    /// Nothing exists at the path.
    case notFound(String)
    /// The folder holds no `tweets.js`, `tweet.js` or parts.
    case noTweetFiles(String)
    /// The file could not be read.
    case unreadable(String, reason: String)

    /// A one-line reason.
    public var description: String {
        switch self {
        case .notFound(let path): "no such file or directory: \(path)"
        case .noTweetFiles(let path): "no tweets.js, tweet.js or tweets-partN.js in \(path) or \(path)/data"
        case .unreadable(let path, let reason): "cannot read \(path): \(reason)"
        }
    }
}
