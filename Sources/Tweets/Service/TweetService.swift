import Foundation
import Logging
import Sentiment

/// Users' timelines with a mood for each tweet: offline-first, resilient.
///
/// The store is the source of truth. ``timeline(username:cursor:limit:)``
/// fetches a page from the source, stores it, classifies in one batch only the
/// shown or fetched tweets that the current model has not classified yet, and
/// answers from the store. When the source fails it answers from the store,
/// marked stale with the failure, instead of throwing — unless nothing is
/// stored for the user. A tweet is classified once per model identity
/// (``TweetClassifier/modelID``); a new model reclassifies lazily, as tweets are shown.
///
/// Retries and timeouts belong to the source (``XAPIClient`` with its
/// ``RetryPolicy``). The service is `Sendable`; share one instance.
///
/// ```swift
/// let service = TweetService(store: store, source: xClient, classifier: try SentimentModel.loadDefault(), logger: logger)
/// let timeline = try await service.timeline(username: "XDevelopers")
/// for tweet in timeline.tweets { print(tweet.theme?.emoji ?? "–", tweet.tweet.text) }
/// ```
public final class TweetService: Sendable {
    /// Tunables with documented defaults.
    public struct Options: Sendable, Hashable {
        /// Tweets per timeline page: 20 (one screen; X allows 5–100 per request).
        public var pageSize: Int
        /// Search history entries kept: 50.
        public var historyLimit: Int
        /// Texts per classification batch during imports: 256.
        public var importBatchSize: Int
        /// The score → theme rule.
        public var thresholds: ThemeThresholds

        /// Creates options.
        public init(pageSize: Int = 20, historyLimit: Int = 50, importBatchSize: Int = 256,
                    thresholds: ThemeThresholds = .default) {
            self.pageSize = pageSize
            self.historyLimit = historyLimit
            self.importBatchSize = importBatchSize
            self.thresholds = thresholds
        }
    }

    /// The database.
    public let store: TweetStore
    /// Where tweets come from; `nil` answers from the store alone (offline).
    public let source: (any TweetSource)?
    /// The model.
    public let classifier: any TweetClassifier
    /// The options.
    public let options: Options
    private let sleeper: any Sleeper
    private let logger: Logger

    /// Creates a service.
    ///
    /// - Parameters:
    ///   - store: the database.
    ///   - source: the X API client or an archive; `nil` for offline (store only, no network).
    ///   - classifier: the sentiment model.
    ///   - options: page size, history cap, thresholds.
    ///   - sleeper: the clock for timestamps (inject a virtual one in tests).
    ///   - logger: receives stale answers at `warning` and progress at `debug`; it is
    ///     bound to ``RequestLogger/current`` around source calls, so a shared
    ///     source logs a request's lines with it.
    public init(
        store: TweetStore,
        source: (any TweetSource)?,
        classifier: any TweetClassifier,
        options: Options = Options(),
        sleeper: any Sleeper = SystemSleeper(),
        logger: Logger
    ) {
        self.store = store
        self.source = source
        self.classifier = classifier
        self.options = options
        self.sleeper = sleeper
        self.logger = logger
    }

    // MARK: - Timelines

    /// One page of a user's tweets, newest first, each with its mood.
    ///
    /// Across the pages of a walk every tweet comes once, the source's and the
    /// stored ones (an import's) in one order. While the source has more
    /// pages, a page stops at the oldest tweet the source sent for it, so it
    /// may hold fewer than `limit` tweets when the source sends fewer (X may);
    /// a source page with no tweet that says more follow is followed by the
    /// next, up to three source pages a call.
    ///
    /// A first page (no cursor) that is answered records the username in the
    /// search history (unknown users are not recorded), unless `recordsSearch`
    /// is false or the store is read-only (``TweetStore/isReadOnly``, whose
    /// classifications are made for the page and not stored either). The
    /// record is best-effort: when it cannot be written (the database locked
    /// by another process), a warning is logged and the page is answered all
    /// the same.
    ///
    /// - Parameters:
    ///   - username: with or without `@`, any case.
    ///   - cursor: `nil` for the newest tweets, else a previous page's ``Timeline/nextCursor``.
    ///   - limit: the page size; default ``Options/pageSize``, at most 100.
    ///   - recordsSearch: false for a look that is not a search (an HTTP `HEAD`).
    /// - Returns: the page; ``Timeline/isStale`` when the source failed and the
    ///   store answered. The pages that follow a stale page (its
    ///   ``Timeline/nextCursor``) are read from the store alone, stale with the
    ///   same failure: the source is asked again by a new first page, not on
    ///   every page of a walk. Its ``Timeline/nextCursor`` is `nil` when the page ends
    ///   at the user's last tweet (no empty page follows).
    /// - Throws: ``TweetServiceError/unknownUser(_:)`` when the source does not
    ///   know the user and nothing is stored for the name (when something is,
    ///   the store answers, stale with ``TweetSourceFailure/unknownUser(_:)``);
    ///   ``TweetServiceError/nothingStored(username:failure:)`` when the source
    ///   failed (or is absent) and nothing is stored;
    ///   ``TweetServiceError/invalidUsername(_:)`` (more than one leading `@` included);
    ///   ``TweetServiceError/invalidCursor`` for a cursor that is not this
    ///   server's, or was made for another user's timeline;
    ///   a database error, among them the fetched page's or the
    ///   classifications' write failing while another process holds the
    ///   write lock (``TweetStore/isBusy(_:)``): unlike the search history,
    ///   they are not best-effort, since a page of tweets the store does not
    ///   hold could not be continued (a cursor starts below a stored tweet).
    public func timeline(username: String, cursor: String? = nil, limit: Int? = nil,
                         recordsSearch: Bool = true) async throws -> Timeline {
        guard User.isValidUsername(username) else { throw TweetServiceError.invalidUsername(username) }
        let key = User.key(for: username)
        let limit = min(100, max(1, limit ?? options.pageSize))
        let state = try cursor.map(TimelineCursor.init(encoded:))
        if let state { try await check(state, usernameKey: key) }
        let now = sleeper.now()

        // 1. Fetch and store, unless the source is absent, has no more pages,
        // or failed earlier in this walk: then the store alone answers, and a
        // walk that went stale stays stale with that failure. (A cursor with
        // neither a source token nor the source's end was made by a stale page
        // before cursors kept the failure: it reads the store alone too.)
        var user: User?
        var failure = source == nil ? nil : state?.f
        // The tweets the source sent in this call; nil when it was not asked or failed.
        var fetched: [Tweet]?
        var sourceToken = state?.t
        var sourceExhausted = source == nil || state.map { $0.x || $0.t == nil } ?? false
        if let source, !sourceExhausted, failure == nil {
            do {
                let found: User
                // A later page's user is read back from the store: no news of
                // the account, so saving it with the page keeps its update time
                // (which picks the holder of a name that moved between accounts).
                var unchanged: Set<String> = []
                if let id = state?.u, let stored = try await store.user(id: id) {
                    found = stored
                    unchanged = [stored.id]
                } else {
                    found = try await RequestLogger.$current.withValue(logger) { try await source.user(username: key) }
                }
                // One source page a call; another only while they come back
                // empty but say more follow (X filters replies and retweets
                // after paging), at most `sourcePagesForAPage`.
                var tweets: [Tweet] = []
                var requests = 0
                repeat {
                    let page = try await RequestLogger.$current.withValue(logger) { [sourceToken] in
                        try await source.tweets(of: found, maxResults: limit, cursor: sourceToken)
                    }
                    requests += 1
                    let pageTweets = page.items.map { tweet in
                        var tweet = tweet
                        tweet.authorID = found.id
                        return tweet
                    }
                    _ = try await store.saveTweets(users: [found], tweets: pageTweets, at: now, unchangedUsers: unchanged)
                    tweets += pageTweets
                    sourceToken = page.nextCursor
                    sourceExhausted = page.nextCursor == nil
                } while tweets.isEmpty && !sourceExhausted && requests < Self.sourcePagesForAPage
                // The user is taken only once stored: when their tweets
                // cannot be fetched, the store alone answers (or nothing does).
                // They are answered as stored (a NUL in the name made
                // storable, a description X left out kept), as later answers are.
                user = try await store.user(id: found.id) ?? found
                fetched = tweets
            } catch TweetSourceFailure.unknownUser(let name) where state == nil {
                // An account X does not know (deleted, suspended, renamed, or
                // an archive's that never was on X) is unknown only when
                // nothing is stored for the name; else the store answers, stale.
                guard try await store.user(username: key) != nil else { throw TweetServiceError.unknownUser(key) }
                failure = .unknownUser(name)
                logger.warning("source does not know the user, answering from the store", metadata: ["username": "\(key)"])
            } catch let sourceFailure as TweetSourceFailure {
                failure = sourceFailure
                // A source that cannot be used at all (no token) fails every
                // call alike: its owner says so once, not at every timeline.
                let level: Logger.Level = if case .unavailable = sourceFailure { .debug } else { .warning }
                logger.log(level: level, "source failed, answering from the store", metadata: [
                    "username": "\(key)", "failure": "\(sourceFailure.kind)", "reason": "\(sourceFailure.message)",
                ])
            }
        }

        // 2. Answer from the store.
        if user == nil, let id = state?.u { user = try await store.user(id: id) }
        if user == nil { user = try await store.user(username: key) }
        guard let user else { throw TweetServiceError.nothingStored(username: key, failure: failure) }
        // One row more than shown: whether older stored tweets follow this page.
        var rows = try await store.timeline(authorID: user.id, modelID: classifier.modelID, before: state?.b,
                                            limit: limit + 1)
        let moreStored = rows.count > limit
        rows = Array(rows.prefix(limit))
        // While the source has more pages, the page stops at the oldest tweet
        // it sent in this call: the tweets it has not sent yet come before any
        // older stored ones (an import's), and a cursor past those would skip
        // them. The next page asks the source for them first.
        if let fetched, !sourceExhausted {
            if let oldest = fetched.max(by: Tweet.newestFirst) {
                rows = Array(rows.prefix { !Tweet.newestFirst(oldest, $0.tweet) })
            } else {
                rows = []
            }
        }

        // 3. Classify what this model has not seen, in one batch.
        let shownIDs = Set(rows.map(\.tweet.id))
        let pendingFetched = try await store.unclassifiedTweets(
            modelID: classifier.modelID, ids: (fetched ?? []).map(\.id).filter { !shownIDs.contains($0) })
        let pending = rows.filter { $0.prediction == nil }.map(\.tweet) + pendingFetched
        let predictions = try await classify(pending, at: now)

        let tweets = rows.map { row in
            ClassifiedTweet(tweet: row.tweet, prediction: row.prediction ?? predictions[row.tweet.id]!,
                            modelID: classifier.modelID, thresholds: options.thresholds)
        }

        if state == nil && recordsSearch && !store.isReadOnly {
            await recordSearch(username: username, at: now)
        }

        // 4. Where the next page starts.
        let more = moreStored || (failure == nil && !sourceExhausted)
        let next = more
            ? TimelineCursor(u: user.id, b: rows.last?.tweet.id ?? state?.b, t: sourceToken, x: sourceExhausted,
                             f: failure).encoded
            : nil
        return Timeline(user: user, tweets: tweets, nextCursor: next, failure: failure,
                        newlyClassified: rows.count { $0.prediction == nil })
    }

    /// The most source pages one timeline call asks for: 3. A call asks for
    /// one; the others only follow pages that held no tweet but said more
    /// follow, so that a page is not empty while the source has tweets to send.
    static let sourcePagesForAPage = 3

    /// Throws ``TweetServiceError/invalidCursor`` unless `cursor` was made for
    /// this user's timeline: its user is stored under `usernameKey`, and the
    /// tweet it continues below is one of that user's stored tweets.
    private func check(_ cursor: TimelineCursor, usernameKey: String) async throws {
        guard let owner = try await store.user(id: cursor.u), owner.usernameKey == usernameKey else {
            throw TweetServiceError.invalidCursor
        }
        if let before = cursor.b {
            guard try await store.containsTweet(id: before, authorID: owner.id) else { throw TweetServiceError.invalidCursor }
        }
    }

    /// Records a search in the history, if it can: the history is a side
    /// effect of a timeline, so a write that fails (the database locked by
    /// another process past the busy timeout, a full disk) is logged as a
    /// `warning` and the timeline is answered all the same.
    private func recordSearch(username: String, at date: Date) async {
        do {
            try await store.recordSearch(username: username, at: date, limit: options.historyLimit)
        } catch {
            logger.warning("search not recorded in the history", metadata: [
                "username": "\(User.key(for: username))", "error": "\(error)",
            ])
        }
    }

    /// Classifies tweets in one batch and stores the results.
    private func classify(_ tweets: [Tweet], at date: Date) async throws -> [String: Prediction] {
        guard !tweets.isEmpty else { return [:] }
        let predictions = classifier.classify(tweets.map(\.text))
        precondition(predictions.count == tweets.count, "the classifier must return one prediction per text")
        let pairs = zip(tweets, predictions).map { (tweetID: $0.id, prediction: $1) }
        // A read-only store (a snapshot this user may not write) shows them unstored.
        if !store.isReadOnly { try await store.saveClassifications(pairs, modelID: classifier.modelID, at: date) }
        logger.debug("classified tweets", metadata: ["count": "\(tweets.count)", "model": "\(classifier.modelID)"])
        return Dictionary(pairs.map { ($0.tweetID, $0.prediction) }, uniquingKeysWith: { first, _ in first })
    }

    // MARK: - Users and history

    /// Stored users whose username or display name starts with `prefix`, for
    /// search as you type. Touches no network.
    public func searchUsers(prefix: String, limit: Int = 10) async throws -> [User] {
        try await store.users(prefix: prefix, limit: limit)
    }

    /// The searched usernames, most recent first, without duplicates (at most ``Options/historyLimit``).
    public func searchHistory() async throws -> [SearchHistoryEntry] {
        try await store.searchHistory(limit: options.historyLimit)
    }

    /// Forgets every searched username.
    public func clearSearchHistory() async throws {
        try await store.clearSearchHistory()
    }

    // MARK: - Imports

    /// How far an import has come.
    public struct ImportProgress: Sendable, Hashable {
        /// `storing` then `classifying`.
        public var phase: Phase
        /// Items done in this phase.
        public var completed: Int
        /// Items in this phase.
        public var total: Int

        /// The phases of an import.
        public enum Phase: String, Sendable, Hashable {
            /// Writing users and tweets.
            case storing
            /// Classifying the tweets the model has not seen.
            case classifying
        }
    }

    /// What an import did.
    public struct ImportSummary: Sendable, Hashable {
        /// The users written (the owner and any the input named).
        public var users: [User]
        /// Valid tweets read, repeats included.
        public var tweetsRead: Int
        /// Of those, how many repeated an id read before them in the same
        /// input (``ArchiveContents/repeatedTweets``); the first of each id is
        /// the one stored.
        public var tweetsRepeated: Int = 0
        /// Of those, how many were not stored before.
        public var tweetsAdded: Int
        /// Tweets classified (the new ones, and older ones this model had not seen).
        public var tweetsClassified: Int
        /// Entries skipped: malformed, or with no known author.
        public var issues: [ArchiveIssue]
        /// The owner given, when it was not used (no user was made for it),
        /// for the ``unusedOwnerReason``.
        public var unusedOwner: String? = nil
        /// Why the ``unusedOwner`` was not used.
        public var unusedOwnerReason: UnusedOwnerReason? = nil
        /// Stored tweets moved to the author the input gives them from a
        /// made-up one (`local:name`, an earlier import's `--user`): those the
        /// input names, and all of the made-up user's when the input names the
        /// account of its name.
        public var tweetsReassigned: Int = 0
        /// Stored tweets whose text the input gives otherwise: the input's
        /// text replaced the stored one, and they were classified again.
        public var tweetsUpdated: Int = 0
        /// The ids of the stored tweets the input gives to another author than
        /// the account they are stored under, in the input's order (newest
        /// first): they stay that account's.
        public var keptTweetIDs: [String] = []
        /// How many stored tweets stay their account's (``keptTweetIDs``).
        public var tweetsKept: Int { keptTweetIDs.count }
        /// The stored accounts of the authors the input names by id alone
        /// (a v2 dump without `includes.users`), the owner's excepted: their
        /// tweets are theirs, the owner given is not used for them, and they
        /// keep their stored usernames and display names (they are not in ``users``).
        public var storedAuthors: [User] = []

        /// Why an owner given to ``TweetService/importArchive(_:owner:progress:)`` was not used.
        public enum UnusedOwnerReason: Sendable, Hashable {
            /// Every tweet names an author of the input or a stored one
            /// (``ImportSummary/storedAuthors``), none of them the owner.
            case authorsNamed
            /// The input holds no tweet, and names no user of that name
            /// (``ImportSummary/tweetsRead`` is 0).
            case noTweets
            /// Every tweet it would have had is stored under another account
            /// already, and stays its (``ImportSummary/tweetsKept``).
            case tweetsStoredUnderOthers
        }
    }

    /// Stores an archive's users and tweets and classifies them.
    ///
    /// - Parameters:
    ///   - contents: what ``ArchiveParser`` read.
    ///   - owner: the username to give tweets whose author the input does not
    ///     name; its stored account is reused if there is one. An author the
    ///     input names by id alone whose account is stored is that account,
    ///     never renamed (``ImportSummary/storedAuthors``). When every tweet
    ///     names an author of the input or a stored one and none is this user, or when the
    ///     input has no tweet and names no such user, and none is stored, it
    ///     is not used (``ImportSummary/unusedOwner``); nor when every tweet
    ///     it would have is stored under another account, which keeps it.
    ///     A tweet stored under a made-up user (an earlier owner's) moves to
    ///     the author given now; a stored text the input gives otherwise is
    ///     replaced by the input's, and classified again.
    ///   - progress: called after each stored chunk and classified batch.
    /// - Throws: ``TweetServiceError/ownerRequired`` when tweets have no known
    ///   author and no owner is given; ``TweetServiceError/invalidUsername(_:)``; database errors.
    public func importArchive(
        _ contents: ArchiveContents,
        owner: String? = nil,
        progress: (@Sendable (ImportProgress) -> Void)? = nil
    ) async throws -> ImportSummary {
        let namedUsers = Set(contents.users.map(\.id))
        var contents = try await contents.resolvingMadeUpUsers(from: store)
        // The stored accounts the input named by a screen name alone: as read
        // from the store, they tell it nothing new, so keep their update time.
        let accountsOfScreenNames = Set(contents.users.map(\.id)).subtracting(namedUsers)
        // Tweets the input gives to a stored account's id are that account's,
        // whatever the owner given, and the account keeps its stored names.
        let storedAuthors = try await contents.storedAuthors(in: store)
        contents = contents.adding(users: storedAuthors)
        var issues = contents.issues
        var unusedOwner: String?
        var unusedOwnerReason: ImportSummary.UnusedOwnerReason?
        if let owner {
            guard User.isValidUsername(owner) else { throw TweetServiceError.invalidUsername(owner) }
            let authorsNamed = Set(contents.tweets.map(\.authorID)).isSubset(of: Set(contents.users.map(\.id)))
            if authorsNamed, !contents.tweets.isEmpty, contents.user(username: owner) == nil {
                unusedOwner = owner
                unusedOwnerReason = .authorsNamed
            } else if let assigned = try await contents.assigningStoredOwner(owner, from: store) {
                contents = assigned
            } else if contents.tweets.isEmpty, contents.user(username: owner) == nil {
                // An input with no tweet (an empty file, or one whose
                // every entry was malformed) gives a made-up user nothing:
                // stored, `tweets NAME` would show an empty timeline
                // instead of saying that nothing is stored.
                unusedOwner = owner
                unusedOwnerReason = .noTweets
            } else {
                let user = contents.owner(username: owner)
                    ?? User(id: User.localIDPrefix + User.key(for: owner), username: User.key(for: owner),
                            displayName: owner)
                contents = contents.assigning(owner: user)
            }
        }
        let knownAuthors = Set(contents.users.map(\.id))
        let orphans = contents.tweets.filter { !knownAuthors.contains($0.authorID) }
        if !orphans.isEmpty, orphans.count == contents.tweets.count { throw TweetServiceError.ownerRequired }
        issues += orphans.map { ArchiveIssue(file: "input", position: "tweet \($0.id)", reason: "no known author") }
        let tweets = contents.tweets.filter { knownAuthors.contains($0.authorID) }

        let now = sleeper.now()
        let chunk = 1000
        var saved = TweetStore.Saved()
        // The stored accounts are written again only as the owner given.
        let ownerKey = owner.map(User.key(for:))
        let otherAuthors = storedAuthors.filter { $0.usernameKey != ownerKey }
        var users = contents.users.filter { !otherAuthors.contains($0) }
        let unchangedUsers = Set(users.filter { accountsOfScreenNames.contains($0.id) && $0.usernameKey != ownerKey }.map(\.id))
        // The users go with every chunk: saving the account of a `--user`
        // guess's name moves the guess's tweets to it, and a made-up user is
        // kept only while it holds tweets. A text given for a stored tweet
        // replaces its own.
        for start in stride(from: 0, to: max(1, tweets.count), by: chunk) {
            let slice = Array(tweets[start..<min(tweets.count, start + chunk)])
            saved += try await store.saveTweets(users: users, tweets: slice, at: now, replacingTexts: true,
                                                unchangedUsers: unchangedUsers)
            if !slice.isEmpty {
                progress?(ImportProgress(phase: .storing, completed: start + slice.count, total: tweets.count))
            }
        }
        // A made-up user whose every tweet is stored under another account is not stored.
        var notKept: [User] = []
        for user in users where user.id.hasPrefix(User.localIDPrefix) {
            if try await store.user(id: user.id) == nil { notKept.append(user) }
        }
        users.removeAll { notKept.contains($0) }
        if let ownerKey, unusedOwner == nil, notKept.contains(where: { $0.usernameKey == ownerKey }) {
            unusedOwner = owner
            unusedOwnerReason = .tweetsStoredUnderOthers
        }

        let pending = try await store.unclassifiedTweets(modelID: classifier.modelID, ids: tweets.map(\.id))
        let batch = max(1, options.importBatchSize)
        for start in stride(from: 0, to: pending.count, by: batch) {
            try Task.checkCancellation()
            let slice = Array(pending[start..<min(pending.count, start + batch)])
            _ = try await classify(slice, at: now)
            progress?(ImportProgress(phase: .classifying, completed: start + slice.count, total: pending.count))
        }
        return ImportSummary(users: users, tweetsRead: contents.tweets.count + contents.repeatedTweets,
                             tweetsRepeated: contents.repeatedTweets, tweetsAdded: saved.inserted.count,
                             tweetsClassified: pending.count, issues: issues, unusedOwner: unusedOwner,
                             unusedOwnerReason: unusedOwnerReason, tweetsReassigned: saved.reassigned,
                             tweetsUpdated: saved.updated, keptTweetIDs: saved.keptUnderStoredAuthorIDs,
                             storedAuthors: otherAuthors)
    }
}
