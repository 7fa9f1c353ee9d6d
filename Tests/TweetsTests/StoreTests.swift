import Foundation
import GRDB
import Sentiment
import Testing
@testable import Tweets

@Suite("Store")
struct StoreTests {
    // MARK: - Schema

    @Test("A new file is created and migrated from empty, in WAL mode")
    func migrationsFromEmpty() async throws {
        try await withTemporaryDirectory { directory async throws in
            let path = directory.path("nested/folder/tweets.sqlite")
            #expect(!FileManager.default.fileExists(atPath: path))
            let store = try TweetStore(path: path, logger: testLogger)
            #expect(FileManager.default.fileExists(atPath: path))
            #expect(try await store.appliedMigrations() == TweetStore.migrationNames)
            #expect(TweetStore.migrationNames == [
                "v1-createUser", "v1-createTweet", "v1-createClassification", "v1-createSearchHistory",
                "v2-reclassifyLongTexts",
            ])
            #expect(try await store.journalMode() == "wal")
        }
    }

    @Test("Stores opened at once on a new file, on as many threads, all open and migrate it")
    func openANewFileAtOnce() async throws {
        try await withTemporaryDirectory { directory async throws in
            var failures: [String] = []
            for round in 0..<10 {
                let path = directory.path("round-\(round)/tweets.sqlite")
                let results = await withTaskGroup(of: String?.self) { group in
                    for _ in 0..<8 {
                        group.addTask {
                            do {
                                let store = try TweetStore(path: path, logger: testLogger)
                                return try await store.appliedMigrations() == TweetStore.migrationNames ? nil : "not migrated"
                            } catch {
                                return "\(error)"
                            }
                        }
                    }
                    return await group.reduce(into: [String]()) { if let failure = $1 { $0.append(failure) } }
                }
                failures += results
            }
            #expect(failures.isEmpty, "\(failures.count) of 80 failed, e.g. \(failures.first ?? "")")
        }
    }

    @Test("A store opened read-only reads the file as it is and every write is refused with SQLITE_READONLY")
    func readOnlyStore() async throws {
        try await withTemporaryDirectory { directory async throws in
            let path = directory.path("tweets.sqlite")
            try await storeAliceTweets(at: path, searched: true)
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            let store = try TweetStore(readingPath: path, logger: testLogger)
            #expect(store.isReadOnly)
            #expect(try await store.tweetCount(authorID: alice.id) == 3)
            #expect(try await store.searchHistory().map(\.username) == ["alice"])
            for write in [{ try await store.clearSearchHistory() }, { try await store.save(user: bob) }] {
                let error = await #expect(throws: DatabaseError.self) { try await write() }
                #expect(error?.resultCode == .SQLITE_READONLY, "\(String(describing: error))")
            }
            try store.close()
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        }
    }

    @Test("A store opened read-only does not read a file made by another version, older or newer, nor one that is missing")
    func readOnlyStoreChecksTheSchema() async throws {
        try await withTemporaryDirectory { directory async throws in
            let path = directory.path("tweets.sqlite")
            try TweetStore(path: path, logger: testLogger).close()
            let queue = try DatabaseQueue(path: path)
            try await queue.write { db in try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v2-reclassifyLongTexts'") }
            #expect(throws: TweetStoreError.olderSchema(pendingMigrations: ["v2-reclassifyLongTexts"])) {
                try TweetStore(readingPath: path, logger: testLogger)
            }
            try await queue.write { db in try db.execute(sql: "INSERT INTO grdb_migrations VALUES ('v2-reclassifyLongTexts'), ('v9-future')") }
            try queue.close()
            #expect(throws: TweetStoreError.newerSchema(unknownMigrations: ["v9-future"])) {
                try TweetStore(readingPath: path, logger: testLogger)
            }
            #expect(throws: DatabaseError.self) { try TweetStore(readingPath: directory.path("missing.sqlite"), logger: testLogger) }
            #expect(!FileManager.default.fileExists(atPath: directory.path("missing.sqlite")))
        }
    }

    @Test("A new file in a folder this user may not write is refused saying so, and not made",
          .enabled(if: geteuid() != 0, "root writes whatever the permissions say; SentimentCLITests runs this case without that privilege"))
    func newFileInAFolderThatMayNotBeWritten() async throws {
        try await withTemporaryDirectory { directory async throws in
            let folder = directory.path("read-only")
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o555])
            defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder) }
            let refusal = TweetStoreError.cannotCreateFile(.folder(path: folder))
            #expect(throws: refusal) { try TweetStore(path: folder + "/tweets.sqlite", logger: testLogger) }
            #expect(refusal.description == "it cannot be created (its folder \(folder) may not be written)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
        }
    }

    @Test("A path SQLite reads as no file, or as a URI, is refused by both openings, and nothing is made",
          arguments: ["", ":memory:", "file:TWEETS", "file:TWEETS?mode=rwc", "file:./tweets.sqlite"])
    func specialNamesAreRefused(name: String) async throws {
        try await withTemporaryDirectory { directory async throws in
            let path = name.replacingOccurrences(of: "TWEETS", with: directory.path("tweets.sqlite"))
            let workingDirectory = Set(try FileManager.default.contentsOfDirectory(atPath: FileManager.default.currentDirectoryPath))
            #expect(throws: TweetStoreError.notAFilePath(path)) { try TweetStore(path: path, logger: testLogger) }
            #expect(throws: TweetStoreError.notAFilePath(path)) { try TweetStore(readingPath: path, logger: testLogger) }
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path("")).isEmpty)
            let made = Set(try FileManager.default.contentsOfDirectory(atPath: FileManager.default.currentDirectoryPath)).subtracting(workingDirectory)
            #expect(!made.contains("file:") && !made.contains("tweets.sqlite"))
            let reason = TweetStoreError.notAFilePath(path).description
            #expect(name.isEmpty ? reason.contains("empty path") : reason.hasSuffix("write ./\(path) for a file of that name"))
        }
    }

    @Test("A folder or a device as the path is refused by both openings saying what it is, before SQLite opens it, and nothing is made beside it")
    func nonFilesAreRefused() async throws {
        try await withTemporaryDirectory { directory async throws in
            let folder = directory.path("tweets.sqlite")
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
            let refusal = TweetStoreError.notAFile(.folder(path: folder))
            #expect(throws: refusal) { try TweetStore(path: folder, logger: testLogger) }
            #expect(throws: refusal) { try TweetStore(readingPath: folder, logger: testLogger) }
            #expect(refusal.description == "it is a folder, not a database file: give the path of a file, such as \(folder)/tweets.sqlite")
            // A link to a folder is the folder.
            let link = directory.path("link.sqlite")
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: folder)
            #expect(throws: TweetStoreError.notAFile(.folder(path: link))) { try TweetStore(path: link, logger: testLogger) }
            // A device: SQLite read /dev/null as an empty database, and left a -journal beside one it wrote.
            #expect(NonFileKind(at: "/dev/null") == .device)
            #expect(throws: TweetStoreError.notAFile(.device)) { try TweetStore(readingPath: "/dev/null", logger: testLogger) }
            var null = stat()
            try #require(stat("/dev/null", &null) == 0)
            let device = directory.path("null.sqlite")
            if mknod(device, S_IFCHR | 0o666, null.st_rdev) == 0 {
                #expect(throws: TweetStoreError.notAFile(.device)) { try TweetStore(path: device, logger: testLogger) }
            }
            #expect(TweetStoreError.notAFile(.device).description == "it is a device, not a database file: give the path of a regular file")
            #expect(Set(try FileManager.default.contentsOfDirectory(atPath: directory.path(""))).isSubset(of: ["tweets.sqlite", "link.sqlite", "null.sqlite"]))
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
            #expect(NonFileKind(at: directory.path("missing.sqlite")) == nil)
        }
    }

    @Test("A file named as SQLite's URIs start is opened by a path that does not start so")
    func specialNamesOpenThroughDot() async throws {
        try await withTemporaryDirectory { directory async throws in
            let store = try TweetStore(path: directory.path("file:tweets.sqlite"), logger: testLogger)
            try store.close()
            #expect(FileManager.default.fileExists(atPath: directory.path("file:tweets.sqlite")))
        }
    }

    @Test("Reopening a migrated file keeps its data")
    func reopen() async throws {
        try await withTemporaryDirectory { directory async throws in
            let path = directory.path("tweets.sqlite")
            try await storeAliceTweets(at: path)
            let reopened = try TweetStore(path: path, logger: testLogger)
            #expect(try await reopened.tweetCount() == 3)
            #expect(try await reopened.user(username: "ALICE") == alice)
        }
    }

    @Test("A NUL in a tweet's text or a user's name is stored as U+FFFD, and what follows it is kept")
    func nulIsStoredAsReplacement() async throws {
        try await withTemporaryDirectory { directory async throws in
            let store = try TweetStore(path: directory.path("tweets.sqlite"), logger: testLogger)
            let user = User(id: "7", username: "nul", displayName: "before\u{0}after", description: "a\u{0}b")
            let tweet = Tweet(id: "1", authorID: "7", text: "keep \u{0} all of this", createdAt: referenceDate, language: "en")
            try await store.save(users: [user], tweets: [tweet])
            let rows = try await store.timeline(authorID: "7", modelID: "m", limit: 5)
            #expect(rows.map(\.tweet.text) == ["keep \u{FFFD} all of this"])
            let stored = try #require(try await store.user(id: "7"))
            #expect(stored.displayName == "before\u{FFFD}after")
            #expect(stored.description == "a\u{FFFD}b")
        }
    }

    @Test("A file from before long texts were read in segments loses the classifications of its long texts, and only those")
    func longTextClassificationsAreDroppedOnce() async throws {
        try await withTemporaryDirectory { directory async throws in
            let path = directory.path("tweets.sqlite")
            let long = Tweet(id: "1", authorID: alice.id, text: String(repeating: "What a long day. ", count: 40),
                             createdAt: referenceDate, language: "en")
            let atTheLimit = Tweet(id: "2", authorID: alice.id, text: String(repeating: "é", count: TextSegments.wholeLimit / 2),
                                   createdAt: referenceDate, language: "en")
            let short = Tweet(id: "3", authorID: alice.id, text: "What a day", createdAt: referenceDate, language: "en")
            let prediction = Prediction(label: .positive, probabilities: .init(negative: 0.1, neutral: 0.2, positive: 0.7),
                                        language: .english)
            do {
                let store = try TweetStore(path: path, logger: testLogger)
                try await store.save(users: [alice], tweets: [long, atTheLimit, short])
                try await store.saveClassifications([long, atTheLimit, short].map { ($0.id, prediction) }, modelID: "m@1")
                try store.close()
            }
            // As a build before the migration left the file: classified, the migration not applied.
            let queue = try DatabaseQueue(path: path)
            try await queue.write { db in
                try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v2-reclassifyLongTexts'")
            }
            try queue.close()

            let reopened = try TweetStore(path: path, logger: testLogger)
            #expect(try await reopened.appliedMigrations() == TweetStore.migrationNames)
            #expect(try await reopened.unclassifiedTweets(modelID: "m@1").map(\.id) == ["1"])
            #expect(try await reopened.tweetCount() == 3)
            // Once: classified again, the long text keeps its new classification on the next opening.
            try await reopened.saveClassifications([(long.id, prediction)], modelID: "m@1")
            try reopened.close()
            #expect(try await TweetStore(path: path, logger: testLogger).classificationCount(modelID: "m@1") == 3)
        }
    }

    @Test("A file a newer version migrated is refused with the migrations this version does not know")
    func newerSchema() async throws {
        try await withTemporaryDirectory { directory async throws in
            let path = directory.path("tweets.sqlite")
            try TweetStore(path: path, logger: testLogger).close()
            let queue = try DatabaseQueue(path: path)
            try await queue.write { db in
                try db.execute(sql: "INSERT INTO grdb_migrations VALUES ('v9-splitClassification')")
                try db.execute(sql: "ALTER TABLE classification RENAME TO classification_v1")
            }
            try queue.close()
            #expect(throws: TweetStoreError.newerSchema(unknownMigrations: ["v9-splitClassification"])) {
                try TweetStore(path: path, logger: testLogger)
            }
        }
    }

    /// Makes a SQLite file at `path` in `journalMode` with `statements` run in
    /// it, closes it, and returns its state for comparing after a refusal.
    private func makeDatabase(at path: String, journalMode: String, _ statements: [String]) async throws -> FileState {
        let queue = try DatabaseQueue(path: path)
        try await queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA journal_mode = \(journalMode)")
            for statement in statements { try db.execute(sql: statement) }
        }
        try queue.close()
        return try fileState(path)
    }

    @Test("A file a newer version migrated, in either journal mode, is refused unchanged, with no -wal or -shm left beside it",
          arguments: ["DELETE", "WAL"])
    func newerSchemaLeavesTheFileAsItWas(journalMode: String) async throws {
        try await withTemporaryDirectory { directory async throws in
            let path = directory.path("tweets.sqlite")
            let before = try await makeDatabase(at: path, journalMode: journalMode, [
                "CREATE TABLE grdb_migrations(identifier TEXT NOT NULL PRIMARY KEY)",
                "INSERT INTO grdb_migrations VALUES ('v1-createUser'), ('v9-future')",
            ])
            #expect(throws: TweetStoreError.newerSchema(unknownMigrations: ["v9-future"])) {
                try TweetStore(path: path, logger: testLogger)
            }
            #expect(try fileState(path) == before)
        }
    }

    @Test("Another program's database, in either journal mode, is refused with its tables before anything is written to it, and is left as it was",
          arguments: ["DELETE", "WAL"])
    func foreignDatabase(journalMode: String) async throws {
        try await withTemporaryDirectory { directory async throws in
            let path = directory.path("notes.db")
            let before = try await makeDatabase(at: path, journalMode: journalMode, [
                "CREATE TABLE notes(id INTEGER PRIMARY KEY, body TEXT)",
                // A table named as one of ours made the migration fail after the file was changed.
                "CREATE TABLE user(id INTEGER PRIMARY KEY)",
                #"CREATE TABLE "two\#nlines"(id)"#,
            ])
            let refusal = TweetStoreError.foreignDatabase(tables: ["notes", "two\nlines", "user"])
            #expect(throws: refusal) { try TweetStore(path: path, logger: testLogger) }
            #expect(try fileState(path) == before)
            #expect(throws: refusal) { try TweetStore(readingPath: path, logger: testLogger) }
            #expect(try fileState(path) == before)
            #expect(refusal.description == #"it is another program's SQLite database (its tables: notes, two\nlines, user); "#
                + "sentiment keeps tweets in a database of its own: choose another file")
        }
    }

    @Test("Another GRDB program's database, its grdb_migrations naming none of ours or nothing beside other tables, in either journal mode, is refused as another program's and left as it was",
          arguments: ["DELETE", "WAL"], [["INSERT INTO grdb_migrations VALUES ('createNotes')"], []])
    func foreignGRDBDatabase(journalMode: String, migrations: [String]) async throws {
        try await withTemporaryDirectory { directory async throws in
            let path = directory.path("notes.db")
            let before = try await makeDatabase(at: path, journalMode: journalMode,
                ["CREATE TABLE grdb_migrations(identifier TEXT NOT NULL PRIMARY KEY)"] + migrations
                    + ["CREATE TABLE notes(id INTEGER PRIMARY KEY, body TEXT)"])
            let refusal = TweetStoreError.foreignDatabase(tables: ["grdb_migrations", "notes"])
            #expect(throws: refusal) { try TweetStore(path: path, logger: testLogger) }
            #expect(try fileState(path) == before)
            #expect(throws: refusal) { try TweetStore(readingPath: path, logger: testLogger) }
            #expect(try fileState(path) == before)
        }
    }

    @Test("A file whose first migration failed, an empty grdb_migrations its only table, is migrated")
    func emptyMigrationsAloneIsOurs() async throws {
        try await withTemporaryDirectory { directory async throws in
            let path = directory.path("tweets.sqlite")
            _ = try await makeDatabase(at: path, journalMode: "WAL", ["CREATE TABLE grdb_migrations(identifier TEXT NOT NULL PRIMARY KEY)"])
            let store = try TweetStore(path: path, logger: testLogger)
            #expect(try await store.appliedMigrations() == TweetStore.migrationNames)
            try store.close()
        }
    }

    @Test("A migration that fails is thrown, and leaves no -wal or -shm beside the file", arguments: ["DELETE", "WAL"])
    func failedMigrationLeavesNoWAL(journalMode: String) async throws {
        try await withTemporaryDirectory { directory async throws in
            let path = directory.path("tweets.sqlite")
            _ = try await makeDatabase(at: path, journalMode: journalMode, [
                "CREATE TABLE grdb_migrations(identifier TEXT NOT NULL PRIMARY KEY)",
                "INSERT INTO grdb_migrations VALUES ('v1-createUser')",
                "CREATE TABLE user(id INTEGER PRIMARY KEY)",
                // v1-createTweet makes this table: the migration fails.
                "CREATE TABLE tweet(id INTEGER PRIMARY KEY)",
            ])
            #expect(throws: DatabaseError.self) { try TweetStore(path: path, logger: testLogger) }
            #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
            #expect(!FileManager.default.fileExists(atPath: path + "-shm"))
        }
    }

    @Test("An existing file with no table, empty or a database with none, is made this program's database")
    func existingFileWithNoTable() async throws {
        try await withTemporaryDirectory { directory async throws in
            let empty = directory.path("empty.sqlite")
            try Data().write(to: URL(fileURLWithPath: empty))
            let tableless = directory.path("tableless.sqlite")
            let queue = try DatabaseQueue(path: tableless)
            try await queue.write { db in try db.execute(sql: "PRAGMA user_version = 7") }
            try queue.close()
            for path in [empty, tableless] {
                let store = try TweetStore(path: path, logger: testLogger)
                #expect(try await store.appliedMigrations() == TweetStore.migrationNames, "\(path)")
                try store.close()
            }
        }
    }

    @Test("Listing a foreign database's tables names five and says how many more there are")
    func foreignDatabaseListsFiveTables() {
        let refusal = TweetStoreError.foreignDatabase(tables: (1...7).map { "t\($0)" })
        #expect(refusal.description.contains("(its tables: t1, t2, t3, t4, t5 and 2 more);"), "\(refusal)")
    }

    @Test("Closing the store releases it: later use throws, and the data is there on reopening")
    func close() async throws {
        try await withTemporaryDirectory { directory async throws in
            let path = directory.path("tweets.sqlite")
            let store = try TweetStore(path: path, logger: testLogger)
            try await store.save(users: [alice], tweets: sampleTweets(3, by: alice))
            try store.close()
            await #expect(throws: (any Error).self) { try await store.tweetCount() }
            #expect(try await TweetStore(path: path, logger: testLogger).tweetCount() == 3)
        }
    }

    @Test("Closing a store that has read and written leaves every write in the database file, and no -wal or -shm file")
    func closeLeavesNoWAL() async throws {
        try await withTemporaryDirectory { directory async throws in
            let path = directory.path("tweets.sqlite")
            let store = try TweetStore(path: path, logger: testLogger)
            try await store.save(users: [alice], tweets: sampleTweets(3, by: alice))
            #expect(try await store.tweetCount() == 3)
            try await store.recordSearch(username: "alice", at: Date(), limit: 10)
            #expect(try await store.searchHistory().count == 1)
            try store.close()
            #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
            #expect(!FileManager.default.fileExists(atPath: path + "-shm"))
            // The file alone, copied as a snapshot is, holds everything.
            let copy = directory.path("copy.sqlite")
            try FileManager.default.copyItem(atPath: path, toPath: copy)
            let reopened = try TweetStore(path: copy, logger: testLogger)
            #expect(try await reopened.tweetCount() == 3)
            #expect(try await reopened.searchHistory().map(\.username) == ["alice"])
            try reopened.close()
        }
    }

    @Test("A store whose file is moved over or removed neither reads nor writes any more, saying so, and its close leaves the files at its path alone")
    func fileReplacedWhileOpen() async throws {
        try await withTemporaryDirectory { directory async throws in
            for removed in [false, true] {
                let path = directory.path("tweets-\(removed).sqlite")
                let store = try TweetStore(path: path, logger: testLogger)
                try await store.save(users: [alice], tweets: sampleTweets(2, by: alice))
                #expect(try await store.tweetCount() == 2)
                let other = directory.path("restored-\(removed).sqlite")
                let restored = try TweetStore(path: other, logger: testLogger)
                try await restored.recordSearch(username: "bob", limit: 50)
                try restored.close()
                if removed {
                    try FileManager.default.removeItem(atPath: path)
                } else {
                    try #require(rename(other, path) == 0)
                }
                let refusal = TweetStoreError.replacedWhileOpen(removed: removed)
                await #expect(throws: refusal) { try await store.tweetCount() }
                await #expect(throws: refusal) { try await store.recordSearch(username: "alice", limit: 50) }
                await #expect(throws: refusal) { try await store.clearSearchHistory() }
                #expect(TweetStore.isDatabaseFailure(refusal))
                #expect(throws: refusal) { try store.close() }
                // Its connections stay open, so the `-wal` and `-shm` at the path, which other processes share, stay too.
                #expect(FileManager.default.fileExists(atPath: path + "-wal") && FileManager.default.fileExists(atPath: path + "-shm"))
                #expect(refusal.description.hasPrefix(removed ? "it was removed since it was opened" : "it was replaced by another file since it was opened"))
            }
        }
    }

    @Test("Every write is in the database file as soon as it is committed, so a copy of the file alone, made while the store is open, holds it")
    func writesReachTheFileAtOnce() async throws {
        try await withStore { store, directory in
            try await store.save(users: [alice], tweets: sampleTweets(3, by: alice))
            try await store.recordSearch(username: "alice", limit: 50)
            let copy = directory.path("copy.sqlite")
            try FileManager.default.copyItem(atPath: store.path, toPath: copy)
            let queue = try DatabaseQueue(path: copy)
            defer { try? queue.close() }
            #expect(try await queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM tweet") } == 3)
            #expect(try await queue.read { db in try String.fetchAll(db, sql: "SELECT username FROM search_history") } == ["alice"])
        }
    }

    @Test("Opening a file another connection holds the write lock of fails after one busy timeout, not one per attempt")
    func openWhileAnotherConnectionWrites() async throws {
        try await withTemporaryDirectory { directory async throws in
            let path = directory.path("tweets.sqlite")
            try TweetStore(path: path, logger: testLogger).close()
            // A writer whose changes are not in the WAL yet (emptied by a
            // checkpoint), so that opening has to write, and wait for its lock.
            var configuration = Configuration()
            configuration.allowsUnsafeTransactions = true
            let writer = try DatabaseQueue(path: path, configuration: configuration)
            try await writer.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
                try db.execute(sql: "BEGIN IMMEDIATE")
                try db.execute(sql: "INSERT INTO search_history VALUES ('x', 'x', '2024-01-01 00:00:00.000')")
            }
            let start = Date()
            #expect(throws: DatabaseError.self) { try TweetStore(path: path, logger: testLogger, busyTimeout: 0.2) }
            #expect(Date().timeIntervalSince(start) < 5, "50 attempts of 0.2 s each take 10 s")
            try await writer.writeWithoutTransaction { db in try db.execute(sql: "ROLLBACK") }
            #expect(try await TweetStore(path: path, logger: testLogger).appliedMigrations() == TweetStore.migrationNames)
        }
    }

    // MARK: - Users and tweets

    @Test("Saving tweets twice stores them once and reports only the new ones")
    func saveTwice() async throws {
        try await withStore { store, _ async throws in
            let tweets = sampleTweets(5, by: alice)
            #expect(try await store.save(users: [alice], tweets: Array(tweets.prefix(3))).count == 3)
            #expect(try await store.save(users: [alice], tweets: tweets) == tweets.suffix(2).map(\.id))
            #expect(try await store.tweetCount(authorID: alice.id) == 5)
        }
    }

    @Test("A stored tweet's text gives way to another only when asked, which drops its classifications; a save that does not ask keeps it")
    func replacingTexts() async throws {
        try await withStore { store, _ async throws in
            let tweets = sampleTweets(2, by: alice)
            try await store.save(users: [alice], tweets: tweets)
            try await store.saveClassifications(tweets.map { ($0.id, CountingClassifier.predict($0.text)) }, modelID: "m")
            var corrected = tweets[0]
            corrected.text = "café was lovely"
            let kept = try await store.saveTweets(users: [], tweets: [corrected])
            #expect(kept.updated == 0)
            #expect(try await store.timeline(authorID: alice.id, modelID: "m", limit: 1).first?.tweet.text == tweets[0].text)
            let replaced = try await store.saveTweets(users: [], tweets: [corrected, tweets[1]], replacingTexts: true)
            #expect(replaced.updated == 1)
            let rows = try await store.timeline(authorID: alice.id, modelID: "m", limit: 2)
            #expect(rows.map(\.tweet.text) == [corrected.text, tweets[1].text])
            #expect(rows.map { $0.prediction == nil } == [true, false])
        }
    }

    @Test("A user update keeps a known description when the new one is missing")
    func userUpdate() async throws {
        try await withStore { store, _ async throws in
            try await store.save(user: alice)
            var renamed = alice
            renamed.username = "alice2"
            renamed.description = nil
            try await store.save(user: renamed)
            #expect(try await store.user(id: alice.id)?.description == alice.description)
            #expect(try await store.user(username: "alice2")?.id == alice.id)
            #expect(try await store.user(username: "alice") == nil)
        }
    }

    @Test("A name is looked up as the account that holds it last, and as an account before a user made up for it, however new")
    func usernameLookupPrefersAccounts() async throws {
        try await withStore { store, _ async throws in
            let start = Date(timeIntervalSince1970: 1_700_000_000)
            let madeUp = User(id: User.localIDPrefix + "alice", username: "alice", displayName: "alice")
            var successor = alice
            successor.id = "777"
            try await store.save(users: [alice], tweets: [], at: start)
            try await store.save(users: [successor], tweets: [], at: start.addingTimeInterval(60))
            #expect(try await store.user(username: "Alice")?.id == "777")
            // A made-up user stored after the account, as versions before
            // imports resolved screen names did, does not hide it.
            try await store.save(users: [madeUp], tweets: [], at: start.addingTimeInterval(120))
            #expect(try await store.user(username: "alice")?.id == "777")
        }
    }

    @Test("Prefix search lists a username once, as the account a lookup of the name finds, when the name moved between accounts")
    func prefixSearchListsAMovedNameOnce() async throws {
        try await withStore { store, _ async throws in
            let start = Date(timeIntervalSince1970: 1_700_000_000)
            var successor = alice
            successor.id = "777"
            successor.displayName = "Alice Again"
            try await store.save(users: [alice, bob], tweets: [], at: start)
            try await store.save(users: [successor], tweets: [], at: start.addingTimeInterval(60))
            #expect(try await store.users(prefix: "ali").map(\.id) == ["777"])
            #expect(try await store.users(prefix: "alice ex").isEmpty, "the earlier account of the name cannot be shown by it")
            #expect(try await store.users(prefix: "b").map(\.id) == [bob.id])
        }
    }

    @Test("Timelines page newest first below a tweet")
    func timelinePages() async throws {
        try await withStore { store, _ async throws in
            let tweets = sampleTweets(7, by: alice)
            try await store.save(users: [alice, bob], tweets: tweets + sampleTweets(2, by: bob))
            let first = try await store.timeline(authorID: alice.id, modelID: "m", limit: 4)
            #expect(first.map(\.tweet.id) == tweets.prefix(4).map(\.id))
            let second = try await store.timeline(authorID: alice.id, modelID: "m", before: first.last?.tweet.id, limit: 4)
            #expect(second.map(\.tweet.id) == tweets.suffix(3).map(\.id))
            #expect(second.allSatisfy { $0.prediction == nil })
        }
    }

    @Test("Tweets posted in the same second are ordered by id as a number, newest first, and pages of every size neither skip nor repeat one")
    func sameTimeOrderedByNumericID() async throws {
        try await withStore { store, _ async throws in
            // Ids of different lengths: as text "9" > "11" > "100", as numbers the other way round.
            let ids = ["9", "11", "100", "1000", "99", "8"]
            let tweets = ids.map { Tweet(id: $0, authorID: alice.id, text: "t\($0)", createdAt: referenceDate) }
                + [Tweet(id: "5", authorID: alice.id, text: "older", createdAt: referenceDate - 60)]
            try await store.save(users: [alice], tweets: tweets)
            let newestFirst = ["1000", "100", "99", "11", "9", "8", "5"]
            #expect(try await store.timeline(authorID: alice.id, modelID: "m", limit: 10).map(\.tweet.id) == newestFirst)
            for size in 1...8 {
                var seen: [String] = []
                var before: String?
                while true {
                    let page = try await store.timeline(authorID: alice.id, modelID: "m", before: before, limit: size)
                    seen += page.map(\.tweet.id)
                    guard page.count == size, let last = page.last else { break }
                    before = last.tweet.id
                }
                #expect(seen == newestFirst, "pages of \(size)")
            }
            #expect(try await store.unclassifiedTweets(modelID: "m").map(\.id) == newestFirst.reversed())
            #expect(try await store.unclassifiedTweets(modelID: "m", ids: ids).map(\.id) == ["8", "9", "11", "99", "100", "1000"])
        }
    }

    @Test("A limit of zero or less gives no tweets, with or without ids, instead of trapping", arguments: [0, -1])
    func nonPositiveLimits(limit: Int) async throws {
        try await withStore { store, _ async throws in
            let tweets = sampleTweets(3, by: alice)
            try await store.save(users: [alice], tweets: tweets)
            #expect(try await store.unclassifiedTweets(modelID: "m", limit: limit).isEmpty)
            #expect(try await store.unclassifiedTweets(modelID: "m", ids: tweets.map(\.id), limit: limit).isEmpty)
            #expect(try await store.timeline(authorID: alice.id, modelID: "m", limit: limit).isEmpty)
        }
    }

    @Test("Classifications are stored per model")
    func classificationsPerModel() async throws {
        try await withStore { store, _ async throws in
            let tweets = sampleTweets(3, by: alice)
            try await store.save(users: [alice], tweets: tweets)
            let prediction = CountingClassifier.predict(tweets[0].text)
            try await store.saveClassifications([(tweets[0].id, prediction)], modelID: "m@1")
            let rows = try await store.timeline(authorID: alice.id, modelID: "m@1", limit: 10)
            #expect(rows.first?.prediction == prediction)
            #expect(rows.dropFirst().allSatisfy { $0.prediction == nil })
            #expect(try await store.unclassifiedTweets(modelID: "m@1").count == 2)
            #expect(try await store.unclassifiedTweets(modelID: "m@2").count == 3)
            #expect(try await store.classificationCount(modelID: "m@1") == 1)
        }
    }

    @Test("Prefix search matches usernames and display names, case-insensitively")
    func prefixSearch() async throws {
        try await withStore { store, _ async throws in
            let carol = User(id: "300", username: "carol", displayName: "Bobby Carol")
            try await store.save(users: [alice, bob, carol], tweets: [])
            #expect(try await store.users(prefix: "BO").map(\.username) == ["bob_builder", "carol"])
            #expect(try await store.users(prefix: "@al").map(\.id) == [alice.id])
            #expect(try await store.users(prefix: "%").isEmpty)
            #expect(try await store.users(prefix: "").isEmpty)
        }
    }

    @Test("Prefix search ignores the case of display names outside ASCII", arguments: [
        ("är", "401"), ("Är", "401"), ("ÄRGER", "401"), ("émi", "402"), ("ÉMILIE", "402"), ("ΣΩ", "403"),
    ])
    func prefixSearchBeyondASCII(prefix: String, expectedID: String) async throws {
        try await withStore { store, _ async throws in
            try await store.save(users: [
                User(id: "401", username: "grumpy", displayName: "Ärger im Büro"),
                User(id: "402", username: "emilie_z", displayName: "Émilie Zola"),
                User(id: "403", username: "greek", displayName: "Σωκράτης"),
            ], tweets: [])
            #expect(try await store.users(prefix: prefix).map(\.id) == [expectedID])
        }
    }

    @Test("A prefix longer than any name finds no one instead of failing", arguments: [
        String(repeating: "_", count: 25_000), String(repeating: "a", count: 50_001), String(repeating: "%", count: 101),
    ])
    func overlongPrefixFindsNoOne(prefix: String) async throws {
        try await withStore { store, _ async throws in
            try await store.save(users: [alice, bob], tweets: [])
            #expect(try await store.users(prefix: prefix).isEmpty)
            let longest = String(repeating: "a", count: TweetStore.maximumPrefixLength)
            #expect(try await store.users(prefix: longest).isEmpty)
        }
    }

    // MARK: - Search history

    @Test("History is most recent first, without duplicates, capped and clearable")
    func history() async throws {
        try await withStore { store, _ async throws in
            for (offset, name) in ["alice", "bob", "Alice", "carol", "dave"].enumerated() {
                try await store.recordSearch(username: name, at: referenceDate + Double(offset), limit: 3)
            }
            #expect(try await store.searchHistory().map(\.username) == ["dave", "carol", "Alice"])
            try await store.clearSearchHistory()
            #expect(try await store.searchHistory().isEmpty)
        }
    }

    @Test("History persists across openings")
    func historyPersists() async throws {
        try await withTemporaryDirectory { directory async throws in
            let path = directory.path("tweets.sqlite")
            try await TweetStore(path: path, logger: testLogger).recordSearch(username: "@bob", at: referenceDate, limit: 10)
            let entries = try await TweetStore(path: path, logger: testLogger).searchHistory()
            #expect(entries == [SearchHistoryEntry(username: "bob", searchedAt: referenceDate)])
        }
    }
}
