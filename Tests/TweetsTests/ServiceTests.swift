import Foundation
import GRDB
import InMemoryLogging
import Logging
import Testing
@testable import Tweets

@Suite("Service")
struct ServiceTests {
    func makeService(
        _ store: TweetStore, source: (any TweetSource)?, classifier: CountingClassifier = CountingClassifier(),
        sleeper: VirtualSleeper = VirtualSleeper(), pageSize: Int = 20
    ) -> TweetService {
        TweetService(store: store, source: source, classifier: classifier,
                     options: .init(pageSize: pageSize, historyLimit: 5), sleeper: sleeper, logger: testLogger)
    }

    // MARK: - Classification cache

    @Test("A timeline from a read-only store classifies the tweets for the page, stores no classification and records no search")
    func readOnlyStoreTimeline() async throws {
        try await withTemporaryDirectory { directory async throws in
            let path = directory.path("tweets.sqlite")
            try await storeAliceTweets(at: path)
            let store = try TweetStore(readingPath: path, logger: testLogger)
            let classifier = CountingClassifier()
            let service = makeService(store, source: nil, classifier: classifier)
            let first = try await service.timeline(username: "alice")
            #expect(first.tweets.count == 3)
            #expect(first.tweets.map(\.theme) == [.happy, .sad, .neutral])
            #expect(try await store.classificationCount() == 0)
            #expect(try await store.searchHistory().isEmpty)
            _ = try await service.timeline(username: "alice")
            #expect(classifier.classifiedCount == 6)
        }
    }

    @Test("A second timeline call classifies no tweet")
    func secondCallClassifiesNothing() async throws {
        try await withStore { store, _ async throws in
            let source = FakeSource(users: [alice], tweets: sampleTweets(6, by: alice))
            let classifier = CountingClassifier()
            let service = makeService(store, source: source, classifier: classifier)

            let first = try await service.timeline(username: "alice")
            #expect(first.tweets.count == 6)
            #expect(classifier.batches.count == 1)
            #expect(classifier.classifiedCount == 6)
            #expect(!first.isStale)

            #expect(first.newlyClassified == 6)
            let second = try await service.timeline(username: "@ALICE")
            #expect(classifier.classifiedCount == 6)
            #expect(second.newlyClassified == 0)
            #expect(second.tweets == first.tweets)
            #expect(second.tweets.map(\.theme) == [.happy, .sad, .neutral, .happy, .sad, .neutral])
        }
    }

    @Test("Only new tweets are classified, in one batch")
    func onlyNewTweets() async throws {
        try await withStore { store, _ async throws in
            let tweets = sampleTweets(8, by: alice)
            let source = FakeSource(users: [alice], tweets: Array(tweets.suffix(5)))
            let classifier = CountingClassifier()
            let service = makeService(store, source: source, classifier: classifier)
            _ = try await service.timeline(username: "alice")
            source.add(Array(tweets.prefix(3)))
            let timeline = try await service.timeline(username: "alice")
            #expect(classifier.batches.map(\.count) == [5, 3])
            #expect(timeline.tweets.map(\.id) == tweets.map(\.id))
            #expect(timeline.newlyClassified == 3)
        }
    }

    @Test("A new model version reclassifies lazily")
    func newModelVersion() async throws {
        try await withStore { store, _ async throws in
            let source = FakeSource(users: [alice], tweets: sampleTweets(4, by: alice))
            let old = CountingClassifier(modelID: "fake@1.0.0")
            _ = try await makeService(store, source: source, classifier: old).timeline(username: "alice")
            let new = CountingClassifier(modelID: "fake@2.0.0")
            let timeline = try await makeService(store, source: nil, classifier: new).timeline(username: "alice", limit: 3)
            #expect(new.classifiedCount == 3)
            #expect(timeline.tweets.allSatisfy { $0.modelID == "fake@2.0.0" })
            #expect(try await store.classificationCount(modelID: "fake@1.0.0") == 4)
            #expect(try await store.classificationCount(modelID: "fake@2.0.0") == 3)
        }
    }

    // MARK: - Failures

    @Test("When the source fails, the stored timeline is answered, marked stale with the failure")
    func staleOnFailure() async throws {
        try await withStore { store, _ async throws in
            let source = FakeSource(users: [alice], tweets: sampleTweets(3, by: alice))
            let service = makeService(store, source: source)
            let fresh = try await service.timeline(username: "alice")
            for failure in [TweetSourceFailure.connection("refused"), .timeout, .upstream(status: 503, problem: nil),
                            .rateLimited(resetAt: referenceDate + 900)] {
                source.fail(with: failure)
                let stale = try await service.timeline(username: "alice")
                #expect(stale.isStale)
                #expect(stale.failure == failure)
                #expect(stale.tweets == fresh.tweets)
                #expect(stale.user == alice)
            }
        }
    }

    @Test("When the source fails and nothing is stored, the failure is thrown")
    func nothingStored() async throws {
        try await withStore { store, _ async throws in
            let source = FakeSource(users: [alice])
            source.fail(with: .connection("refused"))
            await #expect(throws: TweetServiceError.nothingStored(username: "alice", failure: .connection("refused"))) {
                try await makeService(store, source: source).timeline(username: "alice")
            }
        }
    }

    @Test("When the source finds the user but fails on their tweets and nothing is stored, the failure is thrown and no search is recorded")
    func nothingStoredAfterUserFound() async throws {
        try await withStore { store, _ async throws in
            let source = FakeSource(users: [alice], tweets: sampleTweets(3, by: alice))
            source.failTweets(with: .upstream(status: 503, problem: nil))
            let service = makeService(store, source: source)
            await #expect(throws: TweetServiceError.nothingStored(username: "alice", failure: .upstream(status: 503, problem: nil))) {
                try await service.timeline(username: "alice")
            }
            #expect(try await service.searchHistory().isEmpty)
            source.failTweets(with: nil)
            let answered = try await service.timeline(username: "alice")
            #expect(answered.tweets.count == 3)
            source.failTweets(with: .upstream(status: 503, problem: nil))
            let stale = try await service.timeline(username: "alice")
            #expect(stale.isStale && stale.tweets.count == 3, "once tweets are stored, a failure answers from the store")
        }
    }

    @Test("An unknown user is an error even offline-first")
    func unknownUser() async throws {
        try await withStore { store, _ async throws in
            let service = makeService(store, source: FakeSource(users: [alice]))
            await #expect(throws: TweetServiceError.unknownUser("nobody")) {
                try await service.timeline(username: "nobody")
            }
            await #expect(throws: TweetServiceError.invalidUsername("no body")) {
                try await service.timeline(username: "no body")
            }
        }
    }

    @Test("A stored user the source no longer knows is answered from the store, stale, not as an unknown user")
    func storedUserTheSourceNoLongerKnows() async throws {
        try await withStore { store, _ async throws in
            let source = FakeSource(users: [alice], tweets: sampleTweets(3, by: alice))
            _ = try await makeService(store, source: source).timeline(username: "alice")
            let gone = makeService(store, source: FakeSource())
            let timeline = try await gone.timeline(username: "@Alice")
            #expect(timeline.user.id == alice.id)
            #expect(timeline.tweets.count == 3)
            #expect(timeline.failure == .unknownUser("alice"))
            await #expect(throws: TweetServiceError.unknownUser("bob")) { try await gone.timeline(username: "bob") }
        }
    }

    @Test("Offline, the store answers and the source is not called")
    func offline() async throws {
        try await withStore { store, _ async throws in
            let source = FakeSource(users: [alice], tweets: sampleTweets(3, by: alice))
            _ = try await makeService(store, source: source).timeline(username: "alice")
            let calls = source.calls
            let offline = makeService(store, source: nil)
            let timeline = try await offline.timeline(username: "alice")
            #expect(timeline.tweets.count == 3)
            #expect(!timeline.isStale)
            #expect(source.calls == calls)
            await #expect(throws: TweetServiceError.nothingStored(username: "bob", failure: nil)) {
                try await offline.timeline(username: "bob")
            }
        }
    }

    @Test("The first answer shows the user as stored (a NUL in the name as U+FFFD), as every later answer does, not as the source sent it")
    func firstAnswerShowsTheStoredUser() async throws {
        try await withStore { store, _ async throws in
            let nully = User(id: "300", username: "nully", displayName: "Nu\u{0}lly")
            let source = FakeSource(users: [nully], tweets: sampleTweets(2, by: nully))
            let first = try await makeService(store, source: source).timeline(username: "nully")
            #expect(first.user.displayName == "Nu\u{FFFD}lly")
            let later = try await makeService(store, source: nil).timeline(username: "nully")
            #expect(first.user == later.user)
        }
    }

    // MARK: - Paging

    /// Every page of alice's timeline from `service`, following the cursors (at most `maxPages`).
    private func allPages(_ service: TweetService, maxPages: Int = 20) async throws -> [[String]] {
        var pages: [[String]] = []
        var cursor: String?
        repeat {
            let page = try await service.timeline(username: "alice", cursor: cursor)
            pages.append(page.tweets.map(\.id))
            cursor = page.nextCursor
        } while cursor != nil && pages.count < maxPages
        return pages
    }

    @Test("Cursors page through the whole timeline, fetching each source page once")
    func paging() async throws {
        try await withStore { store, _ async throws in
            let tweets = sampleTweets(11, by: alice)
            let source = FakeSource(users: [alice], tweets: tweets)
            let service = makeService(store, source: source, pageSize: 4)
            let pages = try await allPages(service, maxPages: 10)
            #expect(pages.flatMap { $0 } == tweets.map(\.id))
            #expect(pages.count == 3)
            #expect(source.calls == 4) // one user lookup, three pages
        }
    }

    @Test("A later page of a timeline, whose user is read back from the store, leaves the account's update time at the source's first answer")
    func laterPageKeepsTheAccountsUpdateTime() async throws {
        try await withStore { store, directory async throws in
            let source = FakeSource(users: [alice], tweets: sampleTweets(11, by: alice))
            let sleeper = VirtualSleeper()
            let service = makeService(store, source: source, sleeper: sleeper, pageSize: 4)
            let first = try await service.timeline(username: "alice")
            sleeper.advance(by: 3_600)
            _ = try await service.timeline(username: "alice", cursor: try #require(first.nextCursor))
            let queue = try DatabaseQueue(path: directory.path("db/tweets.sqlite"))
            let updatedAt = try await queue.read { db in try Date.fetchOne(db, sql: "SELECT updated_at FROM user WHERE id = ?", arguments: [alice.id]) }
            try queue.close()
            #expect(updatedAt == sleeper.now().addingTimeInterval(-3_600))
        }
    }

    @Test("A page that ends at the last tweet has no next cursor, offline or from an archive, so no empty page follows", arguments: [1, 2, 3, 6, 7])
    func lastPageHasNoCursor(pageSize: Int) async throws {
        try await withStore { store, _ async throws in
            let tweets = sampleTweets(6, by: alice)
            let archive = ArchiveSource(contents: ArchiveContents(users: [alice], tweets: tweets))
            let offline = makeService(store, source: nil, pageSize: pageSize)
            for service in [makeService(store, source: archive, pageSize: pageSize), offline] {
                let pages = try await allPages(service)
                #expect(pages.flatMap { $0 } == tweets.map(\.id))
                #expect(pages.count == (6 + pageSize - 1) / pageSize, "pages of \(pageSize): \(pages)")
                #expect(pages.allSatisfy { !$0.isEmpty }, "pages of \(pageSize): \(pages)")
            }
        }
    }

    @Test("Pages from an archive that split tweets of the same second, with ids of different lengths, go newest first by number, each tweet once", arguments: [1, 2, 3, 4])
    func pagingSameSecondByNumericID(pageSize: Int) async throws {
        try await withStore { store, _ async throws in
            let ids = ["98", "1002", "7", "120", "1001", "99"]
            let tweets = ids.map { Tweet(id: $0, authorID: "", text: "note \($0)", createdAt: referenceDate) }
                + [Tweet(id: "3", authorID: "", text: "older", createdAt: referenceDate - 1)]
            let source = ArchiveSource(contents: ArchiveContents(tweets: tweets), owner: "alice")
            let service = makeService(store, source: source, pageSize: pageSize)
            let seen = try await allPages(service).flatMap { $0 }
            #expect(seen == ["1002", "1001", "120", "99", "98", "7", "3"])
        }
    }

    @Test("Tweets the source sends a few at a time come before older stored ones: each is shown once, newest first, and no page is empty")
    func sourceTweetsComeBeforeOlderStoredOnes() async throws {
        try await withStore { store, _ async throws in
            // Twenty recent tweets, sent five a page, and twenty older ones an import stored.
            let recent = sampleTweets(20, by: alice)
            let old = (0..<20).map { index in
                Tweet(id: "9\(String(format: "%03d", 999 - index))", authorID: alice.id, text: "old note \(index)",
                      createdAt: referenceDate.addingTimeInterval(Double(-86_400 * 365 - 60 * index)), language: "en")
            }
            try await store.save(users: [alice], tweets: old)
            let source = FakeSource(users: [alice], tweets: recent)
            source.limitPages(to: 5)
            let pages = try await allPages(makeService(store, source: source, pageSize: 10))
            #expect(pages.flatMap { $0 } == (recent + old).map(\.id))
            #expect(pages.allSatisfy { !$0.isEmpty }, "\(pages)")
        }
    }

    @Test("A source page with no tweets but more to come is followed by the next, so the page is not empty")
    func emptySourcePagesAreFollowed() async throws {
        try await withStore { store, _ async throws in
            let tweets = sampleTweets(6, by: alice)
            let source = FakeSource(users: [alice], tweets: tweets)
            source.sendEmptyPages(TweetService.sourcePagesForAPage - 1)
            let service = makeService(store, source: source, pageSize: 4)
            let first = try await service.timeline(username: "alice")
            #expect(first.tweets.map(\.id) == tweets.prefix(4).map(\.id))
            #expect(source.calls == 1 + TweetService.sourcePagesForAPage)

            // More empty pages than a call follows: an empty page, whose cursor goes on.
            source.sendEmptyPages(TweetService.sourcePagesForAPage)
            let pages = try await allPages(makeService(store, source: source, pageSize: 4))
            #expect(pages.first == [])
            #expect(pages.flatMap { $0 } == tweets.map(\.id))
        }
    }

    @Test("A stale page still continues with what is stored")
    func stalePaging() async throws {
        try await withStore { store, _ async throws in
            let tweets = sampleTweets(6, by: alice)
            let source = FakeSource(users: [alice], tweets: tweets)
            let service = makeService(store, source: source, pageSize: 3)
            let first = try await service.timeline(username: "alice")
            _ = try await service.timeline(username: "alice", cursor: first.nextCursor)
            source.fail(with: .timeout)
            let staleFirst = try await service.timeline(username: "alice")
            #expect(staleFirst.isStale)
            let staleSecond = try await service.timeline(username: "alice", cursor: staleFirst.nextCursor)
            #expect(staleSecond.tweets.map(\.id) == tweets.suffix(3).map(\.id))
            await #expect(throws: TweetServiceError.invalidCursor) {
                try await service.timeline(username: "alice", cursor: "garbage!")
            }
        }
    }

    @Test("The pages after a stale page are read from the store without asking the source again, stale with the same failure")
    func staleWalkDoesNotRetryTheSource() async throws {
        try await withStore { store, _ async throws in
            let tweets = sampleTweets(7, by: alice)
            let source = FakeSource(users: [alice], tweets: tweets)
            let service = makeService(store, source: source, pageSize: 2)
            _ = try await allPages(service)
            source.fail(with: .connection("refused"))
            let stale = try await service.timeline(username: "alice")
            #expect(stale.failure == .connection("refused"))
            let calls = source.calls
            source.fail(with: nil)   // back, but this walk does not ask
            var pages = [stale]
            while let cursor = pages.last?.nextCursor, pages.count < 10 {
                pages.append(try await service.timeline(username: "alice", cursor: cursor))
            }
            #expect(pages.flatMap(\.tweets).map(\.id) == tweets.map(\.id))
            #expect(pages.allSatisfy { $0.failure == .connection("refused") })
            #expect(source.calls == calls, "no page after the stale one asks the source")
            #expect(try await !service.timeline(username: "alice").isStale, "a new first page asks the source again")
            #expect(source.calls > calls)
        }
    }

    @Test("A cursor made before cursors kept the failure, with no source token, reads the store alone and ends")
    func cursorWithoutTokenReadsTheStore() async throws {
        try await withStore { store, _ async throws in
            let tweets = sampleTweets(5, by: alice)
            let source = FakeSource(users: [alice], tweets: tweets)
            let service = makeService(store, source: source, pageSize: 3)
            _ = try await allPages(service)
            let calls = source.calls
            let old = TimelineCursor(u: alice.id, b: tweets[2].id, t: nil, x: false)
            let page = try await service.timeline(username: "alice", cursor: old.encoded)
            #expect(page.tweets.map(\.id) == tweets.suffix(2).map(\.id))
            #expect(page.nextCursor == nil)
            #expect(source.calls == calls)
        }
    }

    @Test("A cursor keeps the failure it carries as it was", arguments: [
        TweetSourceFailure.connection("refused"), .timeout, .upstream(status: 503, problem: nil),
        .rateLimited(resetAt: referenceDate + 900), .rateLimited(resetAt: nil), .malformedResponse("not JSON"),
        .unavailable("no X API token: set X_BEARER_TOKEN"),
    ])
    func cursorKeepsItsFailure(failure: TweetSourceFailure) throws {
        let cursor = TimelineCursor(u: alice.id, b: "1", t: nil, x: false, f: failure)
        #expect(try TimelineCursor(encoded: cursor.encoded) == cursor)
        #expect(try TimelineCursor(encoded: cursor.encoded).f?.message == failure.message)
    }

    @Test("A cursor made for one user's timeline is refused on another's")
    func cursorIsBoundToItsUser() async throws {
        try await withStore { store, _ async throws in
            let source = FakeSource(users: [alice, bob], tweets: sampleTweets(4, by: alice) + sampleTweets(4, by: bob))
            let service = makeService(store, source: source, pageSize: 2)
            let alicePage = try await service.timeline(username: "alice")
            _ = try await service.timeline(username: "bob_builder")
            let cursor = try #require(alicePage.nextCursor)
            await #expect(throws: TweetServiceError.invalidCursor) {
                try await service.timeline(username: "bob_builder", cursor: cursor)
            }
            let offline = makeService(store, source: nil, pageSize: 2)
            await #expect(throws: TweetServiceError.invalidCursor) {
                try await offline.timeline(username: "bob_builder", cursor: cursor)
            }
            #expect(try await offline.timeline(username: "@ALICE", cursor: cursor).tweets.allSatisfy { $0.tweet.authorID == alice.id })
        }
    }

    @Test("A cursor naming an unknown user or a tweet that is not the user's is refused", arguments: [
        TimelineCursor(u: "999", b: nil, t: nil, x: true),
        TimelineCursor(u: alice.id, b: "no-such-tweet", t: nil, x: true),
        TimelineCursor(u: alice.id, b: "2009999", t: nil, x: true),
    ])
    func cursorNamingUnknownThingsIsRefused(cursor: TimelineCursor) async throws {
        try await withStore { store, _ async throws in
            let source = FakeSource(users: [alice, bob], tweets: sampleTweets(3, by: alice) + sampleTweets(3, by: bob))
            let service = makeService(store, source: source)
            _ = try await service.timeline(username: "alice")
            _ = try await service.timeline(username: "bob_builder")
            #expect(try await store.containsTweet(id: "2009999", authorID: bob.id))
            await #expect(throws: TweetServiceError.invalidCursor) {
                try await makeService(store, source: nil).timeline(username: "alice", cursor: cursor.encoded)
            }
        }
    }

    @Test("A cursor is the same text for the same state: its JSON keys are sorted")
    func cursorIsDeterministic() throws {
        let cursor = TimelineCursor(u: "9000000001", b: "1785600000000000000", t: "next-token", x: false)
        var base64 = cursor.encoded.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        let json = String(decoding: try #require(Data(base64Encoded: base64)), as: UTF8.self)
        #expect(json == #"{"b":"1785600000000000000","t":"next-token","u":"9000000001","x":false}"#)
        #expect(try TimelineCursor(encoded: cursor.encoded) == cursor)
    }

    @Test("A username with control characters is refused with a one-line description that shows them escaped")
    func controlCharactersInAUsernameAreEscaped() async throws {
        try await withStore { store, _ async throws in
            let service = makeService(store, source: FakeSource(users: [alice], tweets: sampleTweets(1, by: alice)))
            let name = "bob\nERROR forged line\r\u{1B}[2J\u{2028}"
            let error = await #expect(throws: TweetServiceError.invalidUsername(name)) { try await service.timeline(username: name) }
            #expect(error?.description == #"not a username: bob\nERROR forged line\r\u{1B}[2J\u{2028}"#)
        }
    }

    @Test("A username with more than one leading @ is refused and not recorded", arguments: ["@@alice", "@ @alice", "@@@alice"])
    func doubleAtIsNotAUsername(name: String) async throws {
        try await withStore { store, _ async throws in
            let service = makeService(store, source: FakeSource(users: [alice], tweets: sampleTweets(1, by: alice)))
            _ = try await service.timeline(username: "@alice")
            await #expect(throws: TweetServiceError.invalidUsername(name)) { try await service.timeline(username: name) }
            #expect(try await service.searchHistory().map(\.username) == ["alice"])
        }
    }

    // MARK: - Users and history

    @Test("Searched usernames are recorded, newest first, without duplicates, capped")
    func searchHistory() async throws {
        try await withStore { store, _ async throws in
            let users = (1...7).map { User(id: "\($0)", username: "user\($0)", displayName: "User \($0)") }
            let sleeper = VirtualSleeper()
            let service = makeService(store, source: FakeSource(users: users), sleeper: sleeper)
            for name in ["user1", "user2", "User1", "user3", "user4", "user5", "user6", "user7", "user6"] {
                sleeper.advance(by: 1)
                _ = try await service.timeline(username: name)
            }
            #expect(try await service.searchHistory().map(\.username) == ["user6", "user7", "user5", "user4", "user3"])
            await #expect(throws: TweetServiceError.unknownUser("nobody")) { try await service.timeline(username: "nobody") }
            #expect(try await service.searchHistory().first?.username == "user6")
            try await service.clearSearchHistory()
            #expect(try await service.searchHistory().isEmpty)
        }
    }

    @Test("A search the history cannot record is logged as a warning, and the timeline is answered all the same")
    func historyFailureDoesNotFailTheTimeline() async throws {
        try await withStore { store, directory async throws in
            let source = FakeSource(users: [alice], tweets: sampleTweets(3, by: alice))
            _ = try await makeService(store, source: source).timeline(username: "alice")
            // A history write that fails, as one does when another process holds the write lock past the busy timeout.
            let queue = try DatabaseQueue(path: directory.path("db/tweets.sqlite"))
            try await queue.write { db in
                try db.execute(sql: """
                    CREATE TRIGGER refuse_history BEFORE INSERT ON search_history
                    BEGIN SELECT RAISE(ABORT, 'database is locked'); END
                    """)
            }
            try queue.close()

            let logs = InMemoryLogHandler()
            var logger = Logger(label: "test", factory: { _ in logs })
            logger.logLevel = .debug
            for service in [makeService(store, source: nil),
                            TweetService(store: store, source: source, classifier: CountingClassifier(), logger: logger)] {
                let timeline = try await service.timeline(username: "@Alice")
                #expect(timeline.tweets.count == 3)
            }
            #expect(try await store.searchHistory().map(\.username) == ["alice"], "only the first search was recorded")
            let warnings = logs.entries.filter { $0.level == .warning }
            #expect(warnings.map(\.message.description) == ["search not recorded in the history"])
            #expect(warnings.first?.metadata["error"].map { "\($0)".contains("database is locked") } == true)
        }
    }

    @Test("Users are searched by prefix in the store")
    func searchUsers() async throws {
        try await withStore { store, _ async throws in
            let service = makeService(store, source: FakeSource(users: [alice, bob], tweets: sampleTweets(1, by: alice)))
            _ = try await service.timeline(username: "alice")
            #expect(try await service.searchUsers(prefix: "Al") == [alice])
            #expect(try await service.searchUsers(prefix: "bo").isEmpty)
        }
    }

    // MARK: - Imports

    @Test("An import stores and classifies once; a second import adds nothing")
    func importTwice() async throws {
        try await withStore { store, _ async throws in
            let classifier = CountingClassifier()
            let service = TweetService(store: store, source: nil, classifier: classifier,
                                       options: .init(importBatchSize: 4), logger: testLogger)
            var tweets = sampleTweets(10, by: alice)
            for index in tweets.indices { tweets[index].authorID = "" }
            let contents = ArchiveContents(tweets: tweets, issues: [ArchiveIssue(file: "f", position: "line 2", reason: "x")])
            await #expect(throws: TweetServiceError.ownerRequired) { try await service.importArchive(contents) }

            let summary = try await service.importArchive(contents, owner: "alice")
            #expect(summary.tweetsAdded == 10)
            #expect(summary.tweetsClassified == 10)
            #expect(summary.issues.count == 1)
            #expect(classifier.batches.map(\.count) == [4, 4, 2])
            let again = try await service.importArchive(contents, owner: "Alice")
            #expect(again.tweetsAdded == 0)
            #expect(again.tweetsClassified == 0)
            #expect(try await service.timeline(username: "alice").tweets.count == 10)
        }
    }

    @Test("An owner given for an input that names every tweet's author is not used, and no user is made for it")
    func unusedOwner() async throws {
        try await withStore { store, _ async throws in
            let service = TweetService(store: store, source: nil, classifier: CountingClassifier(), logger: testLogger)
            let contents = ArchiveContents(users: [alice], tweets: sampleTweets(3, by: alice))
            let summary = try await service.importArchive(contents, owner: "mallory")
            #expect(summary.unusedOwner == "mallory")
            #expect(summary.users == [alice])
            #expect(summary.tweetsAdded == 3)
            #expect(try await store.user(username: "mallory") == nil)
            #expect(try await service.timeline(username: "alice").tweets.count == 3)

            let named = try await service.importArchive(contents, owner: "Alice")
            #expect(named.unusedOwner == nil, "the input's own user is a use")
        }
    }

    @Test("Tweets an input gives to a stored account's id alone stay that account's, under its stored names, whatever owner is given")
    func storedAuthorByIDKeepsItsTweetsAndNames() async throws {
        try await withStore { store, _ async throws in
            let service = TweetService(store: store, source: nil, classifier: CountingClassifier(), logger: testLogger)
            let bobs = sampleTweets(3, by: bob)
            _ = try await service.importArchive(ArchiveContents(users: [alice, bob], tweets: sampleTweets(1, by: alice) + [bobs[0]]))
            // A v2 dump without includes.users: author_id alone.
            let dump = ArchiveContents(tweets: Array(bobs.suffix(2)))
            for owner in ["robert", "alice"] {
                let summary = try await service.importArchive(dump, owner: owner)
                #expect(summary.unusedOwner == owner)
                #expect(summary.storedAuthors == [bob])
                #expect(summary.users.isEmpty, "the stored account is not written again")
            }
            #expect(try await store.user(id: bob.id) == bob)
            #expect(try await store.user(username: "robert") == nil)
            #expect(try await service.timeline(username: "bob_builder").tweets.map(\.tweet.id) == bobs.map(\.id))
            #expect(try await service.timeline(username: "alice").tweets.count == 1)

            // `tweets NAME --archive` reads the dump so too.
            let source = try await ArchiveSource(contents: dump, owner: "robert", store: store)
            #expect(source.storedAuthors == [bob])
            await #expect(throws: TweetSourceFailure.unknownUser("robert")) { try await source.user(username: "robert") }
            #expect(try await source.user(username: "bob_builder") == bob)
        }
    }

    @Test("Tweets an import gave to a --user guess move to the author a later input names; a real author's never move")
    func guessedOwnerGivesWayToTheNamedAuthor() async throws {
        try await withStore { store, _ async throws in
            let service = TweetService(store: store, source: nil, classifier: CountingClassifier(), logger: testLogger)
            var unnamed = sampleTweets(3, by: alice)
            for index in unnamed.indices { unnamed[index].authorID = "" }
            let guessed = try await service.importArchive(ArchiveContents(tweets: unnamed), owner: "wrongname")
            #expect(guessed.tweetsAdded == 3)
            #expect(try await service.timeline(username: "wrongname").tweets.count == 3)

            let named = try await service.importArchive(ArchiveContents(users: [alice], tweets: sampleTweets(3, by: alice)))
            #expect(named.tweetsAdded == 0)
            #expect(named.tweetsReassigned == 3)
            #expect(try await service.timeline(username: "alice").tweets.count == 3)
            let left = try? await service.timeline(username: "wrongname")
            #expect(left?.tweets.isEmpty ?? true, "nothing is left under the guess")

            // Bob's account is real: the same ids named as Alice's stay his.
            let bobs = sampleTweets(3, by: bob)
            _ = try await service.importArchive(ArchiveContents(users: [bob], tweets: bobs))
            var claimed = bobs
            for index in claimed.indices { claimed[index].authorID = alice.id }
            let claim = try await service.importArchive(ArchiveContents(users: [alice], tweets: claimed))
            #expect(claim.tweetsReassigned == 0)
            #expect(claim.tweetsKept == 3)
            #expect(try await service.timeline(username: "bob_builder").tweets.count == 3)
        }
    }

    @Test("Tweets an import gave to a --user guess move to a later guess, and the earlier guess, left with none, is not kept")
    func laterGuessTakesTheTweets() async throws {
        try await withStore { store, _ async throws in
            let service = TweetService(store: store, source: nil, classifier: CountingClassifier(), logger: testLogger)
            var unnamed = sampleTweets(3, by: alice)
            for index in unnamed.indices { unnamed[index].authorID = "" }
            _ = try await service.importArchive(ArchiveContents(tweets: unnamed), owner: "jakc")
            let later = try await service.importArchive(ArchiveContents(tweets: unnamed), owner: "jack")
            #expect(later.tweetsAdded == 0)
            #expect(later.tweetsReassigned == 3)
            #expect(later.unusedOwner == nil)
            #expect(later.users.map(\.username) == ["jack"])
            #expect(try await service.timeline(username: "jack").tweets.count == 3)
            #expect(try await store.user(username: "jakc") == nil)
            #expect(try await service.searchUsers(prefix: "ja").map(\.username) == ["jack"])
        }
    }

    @Test("Tweets stored under an account that a later import gives to a --user stay the account's, counted as kept, and no user is made for the --user")
    func storedAccountKeepsItsTweetsFromALaterGuess() async throws {
        try await withStore { store, _ async throws in
            let service = TweetService(store: store, source: nil, classifier: CountingClassifier(), logger: testLogger)
            let bobs = sampleTweets(3, by: bob)
            _ = try await service.importArchive(ArchiveContents(users: [bob], tweets: bobs))
            var unnamed = bobs
            for index in unnamed.indices { unnamed[index].authorID = "" }
            let summary = try await service.importArchive(ArchiveContents(tweets: unnamed), owner: "carol")
            #expect(summary.tweetsKept == 3)
            #expect(Set(summary.keptTweetIDs) == Set(bobs.map(\.id)))
            #expect(summary.unusedOwner == "carol")
            #expect(summary.unusedOwnerReason == .tweetsStoredUnderOthers)
            #expect(summary.users.isEmpty)
            #expect(try await store.user(username: "carol") == nil)
            #expect(try await service.timeline(username: "bob_builder").tweets.count == 3)

            // One new tweet among them is a use: the --user holds it alone.
            var new = unnamed[0]
            new.id = "9"
            let more = try await service.importArchive(ArchiveContents(tweets: unnamed + [new]), owner: "carol")
            #expect(more.unusedOwner == nil)
            #expect(more.tweetsKept == 3)
            #expect(try await service.timeline(username: "carol").tweets.map(\.tweet.id) == ["9"])
        }
    }

    @Test("A later import's text for a stored tweet replaces the stored one, counted as updated, and the tweet is classified again")
    func laterTextReplacesTheStoredOne() async throws {
        try await withStore { store, _ async throws in
            let classifier = CountingClassifier()
            let service = TweetService(store: store, source: nil, classifier: classifier, logger: testLogger)
            let tweets = sampleTweets(3, by: alice)
            _ = try await service.importArchive(ArchiveContents(users: [alice], tweets: tweets))
            var corrected = tweets
            corrected[1].text = "café was lovely"
            let summary = try await service.importArchive(ArchiveContents(users: [alice], tweets: corrected))
            #expect(summary.tweetsAdded == 0)
            #expect(summary.tweetsUpdated == 1)
            #expect(summary.tweetsClassified == 1)
            #expect(classifier.classifiedCount == 4)
            let stored = try await service.timeline(username: "alice").tweets
            #expect(stored.map(\.tweet.text) == corrected.map(\.text))
            #expect(stored[1].prediction == CountingClassifier.predict("café was lovely"))
        }
    }

    @Test("Once the account of a --user guess's name is stored, from an input or the X API, every tweet of the guess is the account's and the guess is no longer listed")
    func guessedOwnerMergesIntoTheAccountOfItsName() async throws {
        let jack = User(id: "4242", username: "Jack", displayName: "Jack R")
        var unnamed = sampleTweets(3, by: jack)
        for index in unnamed.indices { unnamed[index].authorID = "" }
        try await withStore { store, _ async throws in
            let service = TweetService(store: store, source: nil, classifier: CountingClassifier(), logger: testLogger)
            _ = try await service.importArchive(ArchiveContents(tweets: Array(unnamed.prefix(2))), owner: "jack")
            let named = try await service.importArchive(ArchiveContents(users: [jack], tweets: [sampleTweets(1, by: jack)[0]]))
            #expect(named.tweetsReassigned == 2, "the tweet the input names and the one it does not")
            #expect(try await service.timeline(username: "jack").tweets.map(\.tweet.authorID) == ["4242", "4242"])
            #expect(try await service.searchUsers(prefix: "ja") == [jack])
            #expect(try await store.user(id: "local:jack") == nil)

            // The reverse: a later guess of the name goes to the stored account.
            let later = try await service.importArchive(ArchiveContents(tweets: [unnamed[2]]), owner: "JACK")
            #expect(later.users == [jack])
            #expect(try await service.timeline(username: "jack").tweets.count == 3)
            #expect(try await service.searchUsers(prefix: "ja") == [jack])
        }
        try await withStore { store, _ async throws in
            _ = try await TweetService(store: store, source: nil, classifier: CountingClassifier(), logger: testLogger)
                .importArchive(ArchiveContents(tweets: unnamed), owner: "jack")
            let online = makeService(store, source: FakeSource(users: [jack], tweets: [sampleTweets(4, by: jack)[3]]))
            let timeline = try await online.timeline(username: "jack")
            #expect(timeline.tweets.map(\.tweet.id) == sampleTweets(4, by: jack).map(\.id))
            #expect(try await online.searchUsers(prefix: "ja") == [jack])
        }
    }

    @Test("Tweets a later input names by the screen name alone of a stored account (a v1.1 user with no id) are the account's, and its earlier tweets stay listed")
    func screenNameAloneJoinsTheStoredAccount() async throws {
        let jack = User(id: "4242", username: "Jack", displayName: "Jack R")
        let byName = User(id: "local:jack", username: "jack", displayName: "jack")
        let all = sampleTweets(5, by: jack)
        var later = Array(all.suffix(2))
        for index in later.indices { later[index].authorID = byName.id }
        try await withStore { store, _ async throws in
            let service = TweetService(store: store, source: nil, classifier: CountingClassifier(), logger: testLogger)
            _ = try await service.importArchive(ArchiveContents(users: [jack], tweets: Array(all.prefix(3))))
            let summary = try await service.importArchive(ArchiveContents(users: [byName], tweets: later))
            #expect(summary.tweetsAdded == 2)
            #expect(summary.users == [jack])
            #expect(try await store.user(username: "jack") == jack)
            #expect(try await store.user(id: "local:jack") == nil)
            let timeline = try await service.timeline(username: "jack")
            #expect(timeline.tweets.map(\.tweet.id) == all.map(\.id))
            #expect(Set(timeline.tweets.map(\.tweet.authorID)) == ["4242"])

            // `tweets NAME --archive` reads such an input as the account's too.
            let source = try await ArchiveSource(contents: ArchiveContents(users: [byName], tweets: later), owner: "jack",
                                                 store: store)
            #expect(try await source.user(username: "jack") == jack)
        }
    }

    @Test("An input that names a stored account by its screen name alone (a v1.1 user with no id) leaves the account's update time as it was; one that names its id updates it")
    func screenNameAloneKeepsTheAccountsUpdateTime() async throws {
        try await withStore { store, directory async throws in
            let jack = User(id: "4242", username: "Jack", displayName: "Jack R")
            let byName = User(id: "local:jack", username: "jack", displayName: "jack")
            let stored = Date(timeIntervalSince1970: 1_700_000_000)
            let all = sampleTweets(5, by: jack)
            try await store.save(users: [jack], tweets: Array(all.prefix(3)), at: stored)
            var later = Array(all.suffix(2))
            for index in later.indices { later[index].authorID = byName.id }
            let sleeper = VirtualSleeper(now: stored.addingTimeInterval(3_600))
            let service = makeService(store, source: nil, sleeper: sleeper)
            let summary = try await service.importArchive(ArchiveContents(users: [byName], tweets: later))
            #expect(summary.tweetsAdded == 2)
            #expect(summary.users == [jack])
            let queue = try DatabaseQueue(path: directory.path("db/tweets.sqlite"))
            let updatedAt = { try await queue.read { db in try Date.fetchOne(db, sql: "SELECT updated_at FROM user WHERE id = '4242'") } }
            #expect(try await updatedAt() == stored)

            // An input's own user object for the account is news of it.
            _ = try await service.importArchive(ArchiveContents(users: [jack], tweets: Array(all.prefix(1))))
            #expect(try await updatedAt() == sleeper.now())
            try queue.close()
        }
    }

    @Test("An id read twice in one input is stored once, the first; a repeat that says something else is reported")
    func repeatedIDs() async throws {
        try await withStore { store, _ async throws in
            let classifier = CountingClassifier()
            let service = TweetService(store: store, source: nil, classifier: classifier, logger: testLogger)
            let tweets = sampleTweets(3, by: alice)
            var edited = tweets[0]
            edited.text = "something else entirely"
            let contents = ArchiveContents(users: [alice], tweets: tweets + [tweets[1], edited])
            let summary = try await service.importArchive(contents)
            #expect(summary.tweetsRead == 5)
            #expect(summary.tweetsRepeated == 2)
            #expect(summary.tweetsAdded == 3)
            #expect(summary.tweetsClassified == 3)
            #expect(summary.issues == [ArchiveIssue(file: "input", position: "tweet \(tweets[0].id)",
                                                    reason: "repeated with another text, author or date; the first is kept")])
            let stored = try await service.timeline(username: "alice").tweets
            #expect(stored.count == 3)
            #expect(stored.first { $0.tweet.id == tweets[0].id }?.tweet.text == tweets[0].text)
            #expect(classifier.classifiedCount == 3, "each id classified once")
        }
    }
}
