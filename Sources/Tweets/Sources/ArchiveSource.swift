import Foundation

/// A ``TweetSource`` over an account archive or dump read into memory.
///
/// It never fails once loaded; an unknown username throws
/// ``TweetSourceFailure/unknownUser(_:)``. Pages are slices of the archive's
/// tweets, newest first; cursors are offsets.
///
/// ```swift
/// let source = try ArchiveSource(contentsOf: URL(fileURLWithPath: "Examples/archive/sunnydays"))
/// ```
public struct ArchiveSource: TweetSource {
    /// The archive's users and tweets.
    public let contents: ArchiveContents
    /// The username the archive belongs to when it does not say (a bare
    /// `tweets.js` or JSON Lines file): it gets every tweet without a known author.
    public let owner: String?
    /// The stored accounts of the authors the contents name by id alone
    /// (a v2 dump without `includes.users`), among ``contents``' users:
    /// those tweets are theirs, under their stored names, whatever the
    /// ``owner``. Empty unless read with a store.
    public private(set) var storedAuthors: [User] = []

    /// A source over contents already read.
    public init(contents: ArchiveContents, owner: String? = nil) {
        self.contents = contents
        self.owner = owner
    }

    /// A source over `contents` for `owner`'s timeline, where a stored
    /// account of that name owns the tweets the contents would give a made-up
    /// user: when they do not name `owner` but could be theirs
    /// (``ArchiveContents/owner(username:)``), as
    /// ``TweetService/importArchive(_:owner:progress:)`` reuses it. A user the
    /// contents know by a screen name alone is the stored account of that
    /// name, as imports read it; an author they name by id alone whose
    /// account is stored is that account (``storedAuthors``), as in imports.
    ///
    /// - Throws: the store's `DatabaseError` when it cannot be read.
    public init(contents: ArchiveContents, owner: String, store: TweetStore) async throws {
        var contents = try await contents.resolvingMadeUpUsers(from: store)
        let storedAuthors = try await contents.storedAuthors(in: store)
        contents = contents.adding(users: storedAuthors)
        if contents.user(username: owner) == nil, contents.owner(username: owner) != nil,
            let assigned = try await contents.assigningStoredOwner(owner, from: store)
        {
            contents = assigned
        }
        self.init(contents: contents, owner: owner)
        self.storedAuthors = storedAuthors
    }

    /// Reads an archive folder or file (see ``ArchiveParser``).
    ///
    /// - Throws: ``ArchiveError`` when it cannot be read at all.
    public init(contentsOf url: URL, owner: String? = nil) throws {
        self.init(contents: try ArchiveParser.load(from: url), owner: owner)
    }

    /// The archive's user of that name, or the ``owner`` when the name is the owner's.
    public func user(username: String) async throws -> User {
        if let user = contents.user(username: username) { return user }
        if let owner, User.key(for: owner) == User.key(for: username), let user = contents.owner(username: owner) {
            return user
        }
        throw TweetSourceFailure.unknownUser(User.key(for: username))
    }

    /// The user's tweets from offset `cursor` (default 0), `maxResults` (at least 1) at a time.
    public func tweets(of user: User, maxResults: Int, cursor: String?) async throws -> Page<Tweet> {
        let assigned = contents.users.contains(where: { $0.id == user.id }) ? contents : contents.assigning(owner: user)
        let tweets = assigned.tweets.filter { $0.authorID == user.id }
        guard let start = cursor.map({ Int($0) }) ?? 0, start >= 0 else {
            throw TweetSourceFailure.malformedResponse("invalid archive cursor")
        }
        guard start < tweets.count else { return Page(items: [], nextCursor: nil) }
        let end = start + min(max(1, maxResults), tweets.count - start)
        let items = Array(tweets[start..<end])
        return Page(items: items, nextCursor: end < tweets.count ? String(end) : nil)
    }
}
