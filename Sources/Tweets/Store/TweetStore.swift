import Foundation
import GRDB
import Logging
import Sentiment
import Synchronization

/// The SQLite database of users, tweets, classifications and search history.
///
/// One file, opened as a GRDB `DatabasePool` in WAL mode (readers never wait
/// for the writer), migrated to the current schema on open (``migrationNames``).
/// Every write runs in one transaction. The type is `Sendable`: share one
/// instance; several processes may also open the same file.
///
/// ```swift
/// let store = try TweetStore(path: DatabaseLocation.resolve(), logger: logger)
/// try await store.save(users: [user], tweets: tweets)
/// let page = try await store.timeline(authorID: user.id, modelID: model.modelID, limit: 20)
/// ```
public final class TweetStore: Sendable {
    /// The database file.
    public let path: String
    /// Whether the store was opened read-only (``init(readingPath:logger:)``):
    /// every write throws SQLite's `SQLITE_READONLY`.
    public let isReadOnly: Bool
    private let pool: DatabasePool
    /// The file opened at `path`: SQLite keeps its connections to that file,
    /// and finds its `-wal` and `-shm` by the path, so once the path names
    /// another file (moved or copied over it) or none, using the connections
    /// would write the old file's pages into the new one's `-wal`.
    private let file: FileIdentity?

    /// The migrations' names, in order.
    public static var migrationNames: [String] { Migrations.migrator.migrations }

    /// Opens (creating if needed) the database at `path` and migrates it.
    ///
    /// - Parameters:
    ///   - path: the file; missing parent folders are created.
    ///   - logger: receives a `debug` line per applied migration.
    /// - Throws: ``TweetStoreError/notAFilePath(_:)`` for an empty path,
    ///   `:memory:` or a `file:` URI (nothing is made);
    ///   ``TweetStoreError/notAFile(_:)`` when `path` is a folder, a named
    ///   pipe, a device or a socket (nothing is opened);
    ///   ``TweetStoreError/cannotCreateFolder(path:reason:)`` when a
    ///   missing parent folder cannot be made;
    ///   ``TweetStoreError/cannotCreateFile(_:)`` when the file is missing and
    ///   its folder may not be written; ``TweetStoreError/readOnly(_:)``
    ///   when the file exists and this process may not write it or its folder
    ///   (``canWrite(existingFileAt:)``; nothing is opened, so no SQL is in the
    ///   reason); ``TweetStoreError/foreignDatabase(tables:)`` when the file
    ///   is another program's database (read-only, before anything is
    ///   written to it); ``TweetStoreError/newerSchema(unknownMigrations:)``
    ///   when a newer version migrated the file (no migration runs and no
    ///   data is written); or
    ///   GRDB's `DatabaseError` when the file is not a database, a migration
    ///   fails, or another process holds the file's write lock past the busy
    ///   timeout (10 s).
    public convenience init(path: String, logger: Logger = Logger(label: "swift-sentiment.tweets")) throws {
        try self.init(path: path, logger: logger, busyTimeout: Self.busyTimeout)
    }

    /// How long a write waits for another connection's write lock: 10 s.
    static let busyTimeout: TimeInterval = 10

    /// Opens an existing database for reading only, for a reader that may
    /// not write the file or its folder (a shared or archived snapshot).
    ///
    /// Nothing is written: no migration runs, and the file keeps its journal
    /// mode. A file in WAL mode that has no `-wal` or `-shm` file beside it (no
    /// connection has it open) is read as immutable, as it is at the start, so
    /// that no `-wal` or `-shm` file is left that its writers could not use.
    ///
    /// - Throws: ``TweetStoreError/notAFilePath(_:)`` for an empty path,
    ///   `:memory:` or a `file:` URI; ``TweetStoreError/notAFile(_:)`` when
    ///   `path` is a folder, a named pipe, a device or a socket;
    ///   ``TweetStoreError/newerSchema(unknownMigrations:)`` or
    ///   ``TweetStoreError/olderSchema(pendingMigrations:)`` when the file's
    ///   schema is not this version's; ``TweetStoreError/foreignDatabase(tables:)``
    ///   when it is another program's database; GRDB's `DatabaseError` when the file is
    ///   missing or not a database.
    public convenience init(readingPath path: String, logger: Logger = Logger(label: "swift-sentiment.tweets")) throws {
        try self.init(readingPath: path, logger: logger, busyTimeout: Self.busyTimeout)
    }

    /// ``init(readingPath:logger:)`` with another busy timeout.
    init(readingPath path: String, logger: Logger, busyTimeout: TimeInterval) throws {
        try Self.refuseSpecialName(path)
        try Self.refuseNonFile(path)
        self.path = path
        isReadOnly = true
        var configuration = Configuration()
        configuration.label = "tweets"
        configuration.readonly = true
        configuration.busyMode = .timeout(busyTimeout)
        pool = try Self.openReadOnly(path: path, configuration: configuration)
        file = FileIdentity(path: path)
        do {
            let applied = try pool.read { db in try Self.checkedMigrations(db) }
            let pending = Migrations.migrator.migrations.filter { !applied.contains($0) }
            if !pending.isEmpty { throw TweetStoreError.olderSchema(pendingMigrations: pending) }
        } catch {
            try? pool.close()
            throw error
        }
    }

    /// A read-only pool on `path`. A file in WAL mode that no connection has
    /// open (no `-wal` or `-shm` beside it) is read as immutable: SQLite would
    /// otherwise make the `-wal` and `-shm` files, which a read-only connection
    /// never removes, with the file's mode and this user as their owner, and
    /// every later writer, the file's owner too, would fail on them ("attempt
    /// to write a readonly database"). With no WAL, the file holds every
    /// transaction, so reading it as it is misses nothing. Otherwise the
    /// files there are read (SQLite reads a `-shm` it may not write).
    private static func openReadOnly(path: String, configuration: Configuration) throws -> DatabasePool {
        func open(_ path: String) throws -> DatabasePool {
            let pool = try DatabasePool(path: path, configuration: configuration)
            do {
                _ = try pool.read { db in try db.tableExists("grdb_migrations") }
                return pool
            } catch {
                try? pool.close()
                throw error
            }
        }
        let files = FileManager.default
        let unopened = !files.fileExists(atPath: path + "-wal") && !files.fileExists(atPath: path + "-shm")
        if unopened, isInWALMode(path), let uri = immutableURI(path), let pool = try? open(uri) { return pool }
        do {
            return try open(path)
        } catch let error as DatabaseError
            where error.extendedResultCode == .SQLITE_READONLY_DIRECTORY || error.extendedResultCode == .SQLITE_READONLY_CANTINIT
        {
            // SQLite cannot make the `-shm` it needs (a folder the user may not write).
            guard unopened, let uri = immutableURI(path), let pool = try? open(uri) else { throw error }
            return pool
        }
    }

    /// `path` as a URI that SQLite opens as immutable: no locks, no `-wal` or `-shm`.
    private static func immutableURI(_ path: String) -> String? {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "?#%")
        return absolute.addingPercentEncoding(withAllowedCharacters: allowed).map { "file://\($0)?immutable=1" }
    }

    /// Whether the database file at `path` is in WAL mode: its header's file
    /// format write and read versions (bytes 18 and 19) are 2.
    static func isInWALMode(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard let header = try? handle.read(upToCount: 20), header.count == 20 else { return false }
        return header[header.startIndex + 18] == 2 && header[header.startIndex + 19] == 2
    }

    /// Whether this process may write the existing file at `path` and make
    /// files in its folder (SQLite's `-wal` and `-shm`), as `access(2)` says:
    /// false for a file or folder without write permission for this user, on
    /// a read-only file system, or marked immutable. A reader that finds it
    /// false opens the file with ``init(readingPath:logger:)``.
    public static func canWrite(existingFileAt path: String) -> Bool {
        ReadOnlyReason(existingFileAt: path) == nil
    }

    /// ``init(path:logger:)`` with another busy timeout (tests wait less).
    init(path: String, logger: Logger, busyTimeout: TimeInterval) throws {
        try Self.refuseSpecialName(path)
        try Self.refuseNonFile(path)
        self.path = path
        isReadOnly = false
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            // Foundation says "File exists" when the folder itself is a file, and "Not a directory" when a folder above it is.
            var isFolder: ObjCBool = false
            let isFile = FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder) && !isFolder.boolValue
            throw TweetStoreError.cannotCreateFolder(path: folder.path, reason: isFile ? String(cString: strerror(ENOTDIR)) : Self.systemReason(error))
        }
        // Opening for writing runs SQL that writes (the journal mode, the
        // migrations): refuse with the reason, rather than with that SQL's failure.
        if FileManager.default.fileExists(atPath: path) {
            if let reason = ReadOnlyReason(existingFileAt: path) { throw TweetStoreError.readOnly(reason) }
            try Self.inspect(path: path, busyTimeout: busyTimeout)
        } else if let reason = ReadOnlyReason(newFileAt: path) {
            throw TweetStoreError.cannotCreateFile(reason)
        }
        var configuration = Configuration()
        configuration.label = "tweets"
        configuration.busyMode = .timeout(busyTimeout)
        configuration.prepareDatabase { db in
            // Safe in WAL mode: a crash loses at most the last transactions, never integrity.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            // Every commit's pages go into the file at once (a passive
            // checkpoint, which waits for no one), so that the `-wal` beside
            // it never holds pages that only this file's readers may apply: a
            // file moved over this one while it is open would otherwise be
            // read with them by every other process, and damaged.
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 1")
        }
        // Processes that open a new file at once race twice (each loser
        // tries again, a moment later, up to `openAttempts` times): switching
        // the file to WAL takes a lock that SQLite does not wait for, and
        // GRDB's migrator reads which migrations are applied before it takes
        // its write lock, so two processes can both create the first tables.
        // A lock that SQLite did wait for, the busy timeout long (another
        // process's long transaction), is not tried again: the open fails
        // after one timeout, not after `openAttempts` of them.
        var attempt = 1
        var opened: DatabasePool?
        let start = Date()
        while opened == nil {
            do {
                opened = try DatabasePool(path: path, configuration: configuration)
            } catch let error as DatabaseError
                where error.resultCode == .SQLITE_BUSY && attempt < Self.openAttempts
                && Date().timeIntervalSince(start) < busyTimeout
            {
                attempt += 1
                Thread.sleep(forTimeInterval: 0.02)
            }
        }
        pool = opened!
        file = FileIdentity(path: path)
        let migrator = Migrations.migrator
        let known = Set(migrator.migrations)
        while true {
            let identifiers = try pool.read { db in try migrator.appliedIdentifiers(db) }
            let applied = identifiers.intersection(known)
            // A newer version's file: its schema may not be this version's,
            // and writing to it could fail part way or break it for that version.
            // `inspect` refused it unopened; one a newer version migrated since
            // is closed as `close()` closes, leaving no `-wal` or `-shm`.
            let unknown = identifiers.subtracting(known)
            if !unknown.isEmpty {
                try? Self.close(pool)
                throw TweetStoreError.newerSchema(unknownMigrations: unknown.sorted())
            }
            do {
                try migrator.migrate(pool)
                for name in migrator.migrations where !applied.contains(name) {
                    logger.debug("applied migration", metadata: ["migration": "\(name)", "db": "\(path)"])
                }
                break
            } catch let error as DatabaseError {
                // Another process migrated meanwhile: start again from what it did.
                let now = try pool.read { db in try migrator.appliedIdentifiers(db) }.intersection(known)
                guard now != applied, attempt < Self.openAttempts else { throw error }
                attempt += 1
            }
        }
    }

    /// Throws ``TweetStoreError/notAFilePath(_:)`` for a path that SQLite
    /// reads as something other than a file (GRDB opens with URIs allowed):
    /// SQLite would open another database than the file the checks before it
    /// looked at, or none. SQLite compares the bytes, case and all.
    static func refuseSpecialName(_ path: String) throws {
        if path.isEmpty || path == ":memory:" || path.utf8.starts(with: "file:".utf8) {
            throw TweetStoreError.notAFilePath(path)
        }
    }

    /// Throws ``TweetStoreError/notAFile(_:)`` when `path` exists and is not
    /// a regular file (a folder, a named pipe, a device, a socket), before
    /// SQLite opens it: SQLite said "disk I/O error" for a folder and a
    /// device (and left a `-journal` beside the device), and its read of a
    /// named pipe waited for a writer forever.
    static func refuseNonFile(_ path: String) throws {
        if let kind = NonFileKind(at: path) { throw TweetStoreError.notAFile(kind) }
    }

    /// Refuses the existing file at `path` before anything is written to it
    /// when it is another program's database or a newer version's
    /// (``checkedMigrations(_:)``), read as ``init(readingPath:logger:)`` reads: nothing is written, and no
    /// `-wal` or `-shm` is made. A file that a reader cannot read as it is (a
    /// journal or `-shm` left by a crash, which only a writer recovers) is not
    /// refused: opening it for writing does the rest.
    private static func inspect(path: String, busyTimeout: TimeInterval) throws {
        var configuration = Configuration()
        configuration.label = "tweets-inspection"
        configuration.readonly = true
        configuration.busyMode = .timeout(busyTimeout)
        let reader: DatabasePool
        do {
            reader = try openReadOnly(path: path, configuration: configuration)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_READONLY {
            return
        }
        defer { try? reader.close() }
        _ = try reader.read { db in try checkedMigrations(db) }
    }

    /// The migrations applied to `db`, a file this version may read and
    /// write: ``TweetStoreError/newerSchema(unknownMigrations:)`` when a newer
    /// version migrated it, and ``refuseForeignDatabase(_:)``.
    static func checkedMigrations(_ db: Database) throws -> Set<String> {
        try refuseForeignDatabase(db)
        let applied = try Migrations.migrator.appliedIdentifiers(db)
        let unknown = applied.subtracting(Migrations.migrator.migrations)
        if !unknown.isEmpty { throw TweetStoreError.newerSchema(unknownMigrations: unknown.sorted()) }
        return applied
    }

    /// Throws ``TweetStoreError/foreignDatabase(tables:)`` when `db` has
    /// tables but none of this program's migrations: no `grdb_migrations`,
    /// which every file of this program has from its first migration, an
    /// empty one beside other tables (this program's first migration makes
    /// its tables and names itself in one transaction), or one that names
    /// migrations, none of them ours (another GRDB program's). That is
    /// another program's database, which the migrations would change (and
    /// fail on, for a table named as one of ours). A file with no table at
    /// all (empty, or new), or with an empty `grdb_migrations` alone (a first
    /// migration that failed), is not refused.
    static func refuseForeignDatabase(_ db: Database) throws {
        let tables = try String.fetchAll(db, sql: #"""
            SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\_%' ESCAPE '\' ORDER BY name
            """#)
        let applied = tables.contains("grdb_migrations") ? try Migrations.migrator.appliedIdentifiers(db) : []
        if !applied.isDisjoint(with: Migrations.migrator.migrations) { return }
        if !applied.isEmpty || tables.contains(where: { $0 != "grdb_migrations" }) {
            throw TweetStoreError.foreignDatabase(tables: tables)
        }
    }

    /// The system's one-line reason for a file-system error: "Permission
    /// denied", "Not a directory" (`strerror` of the POSIX error under
    /// Foundation's), not the error's whole dump.
    static func systemReason(_ error: any Error) -> String {
        let nsError = error as NSError
        let underlying = (nsError.userInfo[NSUnderlyingErrorKey] as? any Error).map { $0 as NSError }
        for candidate in [underlying, nsError].compactMap({ $0 }) where candidate.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(candidate.code)))
        }
        return nsError.localizedDescription
    }

    /// Whether `error` is a failure of the database itself, as the store's
    /// methods throw it (SQLite's: the file locked by another process past the
    /// busy timeout, a full disk, a read-only or corrupt file), and not one of
    /// the data or of a source.
    public static func isDatabaseFailure(_ error: any Error) -> Bool {
        if case TweetStoreError.replacedWhileOpen = error { return true }
        return error is DatabaseError
    }

    /// How many times `init` tries to open and migrate a file that other
    /// processes are opening at the same moment.
    private static let openAttempts = 50

    /// Closes the database's connections. Any later use of this store throws. Call it once every request is done
    /// (the server does, after a graceful shutdown).
    ///
    /// The readers close before the writer, so that the writer, the last
    /// connection, moves the WAL's pages into the database file and removes
    /// the `-wal` and `-shm` files (GRDB's `close()` closes the writer first,
    /// and a last reader cannot: a copy of the file alone then lacked the
    /// latest writes). Another process with the file open keeps them.
    ///
    /// When the path names another file than the one opened, or none
    /// (``TweetStoreError/replacedWhileOpen(removed:)``), nothing is closed
    /// and that error is thrown: the last connection's close would move the
    /// WAL's pages into the old file and remove the `-wal` and `-shm` at the
    /// path, which are the new file's. The connections stay open until the
    /// process ends, when nothing more is written.
    public func close() throws {
        do {
            try checkFile()
        } catch {
            Self.abandoned.withLock { $0.append(pool) }
            throw error
        }
        try Self.close(pool)
    }

    /// The pools of stores whose file was replaced or removed, kept open until the process ends (``close()``).
    private static let abandoned = Mutex<[DatabasePool]>([])

    /// Throws ``TweetStoreError/replacedWhileOpen(removed:)`` when the path
    /// names another file than the one opened, or none.
    private func checkFile() throws {
        guard let file else { return }
        guard let now = FileIdentity(path: path) else { throw TweetStoreError.replacedWhileOpen(removed: true) }
        if now != file { throw TweetStoreError.replacedWhileOpen(removed: false) }
    }

    /// `pool.read`, once the path is checked to name the file opened (``checkFile()``).
    private func read<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try checkFile()
        return try await pool.read(value)
    }

    /// `pool.write`, once the path is checked to name the file opened
    /// (``checkFile()``): a write to a file moved away or copied over would
    /// go to the `-wal` the new file is read with, and damage it.
    private func write<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws -> T {
        try checkFile()
        return try await pool.write(updates)
    }

    /// Closes `pool` as ``close()`` does: its readers first.
    private static func close(_ pool: DatabasePool) throws {
        pool.releaseMemory()
        try pool.close()
    }

    /// The names of the migrations applied to the file.
    public func appliedMigrations() async throws -> [String] {
        try await read { db in try Migrations.migrator.appliedMigrations(db) }
    }

    /// The SQLite journal mode (`"wal"`).
    public func journalMode() async throws -> String {
        try await read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "" }
    }

    // MARK: - Users and tweets

    /// Inserts or updates a user (a known description or avatar is kept when the new one is `nil`).
    public func save(user: User, at date: Date = Date()) async throws {
        try await save(users: [user], tweets: [], at: date)
    }

    /// What ``saveTweets(users:tweets:at:)`` did with the tweets.
    public struct Saved: Sendable, Hashable {
        /// The ids of the tweets that were new, in the given order.
        public var inserted: [String] = []
        /// Tweets already stored under a made-up author (`local:name`, an
        /// import's `--user` guess) that moved to the real author given now:
        /// those the given tweets name, and all of the made-up user's when
        /// the given users include the account of its name.
        public var reassigned = 0
        /// Tweets already stored with another text whose text is now the
        /// given one (``saveTweets(users:tweets:at:replacingTexts:)`` with
        /// `replacingTexts`); their classifications are dropped.
        public var updated = 0
        /// The ids of the tweets already stored under another account than
        /// the author given now, in the given order: they stay that account's.
        public var keptUnderStoredAuthorIDs: [String] = []
        /// How many tweets stay under their stored account (``keptUnderStoredAuthorIDs``).
        public var keptUnderStoredAuthor: Int { keptUnderStoredAuthorIDs.count }

        /// Adds what another save did to this one's tallies.
        public static func += (total: inout Saved, other: Saved) {
            total.inserted += other.inserted
            total.reassigned += other.reassigned
            total.updated += other.updated
            total.keptUnderStoredAuthorIDs += other.keptUnderStoredAuthorIDs
        }
    }

    /// Saves users and tweets in one transaction.
    ///
    /// Users are inserted or updated; tweets already stored are left as they
    /// are (tweets do not change, and their classifications stay valid), but
    /// for their author: one stored under a made-up author (`local:name`)
    /// moves to the author given now, the real one a later archive or the X
    /// API names, or another made-up one (a later `--user`). A tweet
    /// stored under a real account id is never moved.
    ///
    /// A made-up user is merged into a real account of its username
    /// (case-insensitively) given here: all its tweets become the account's,
    /// those the given tweets do not name included, and it is deleted, so
    /// that no lookup of the name shows one of the two without the other's
    /// tweets. A made-up user stands for its tweets alone: one given here, or
    /// whose tweets moved, that holds no tweet afterwards is not kept.
    ///
    /// - Returns: the ids of the tweets that were new, in the given order.
    /// - Throws: `DatabaseError` (a tweet whose author is neither given nor stored violates a foreign key).
    @discardableResult
    public func save(users: [User], tweets: [Tweet], at date: Date = Date()) async throws -> [String] {
        try await saveTweets(users: users, tweets: tweets, at: date).inserted
    }

    /// ``save(users:tweets:at:)``, saying which tweets were new and what
    /// became of those already stored.
    ///
    /// - Parameters:
    ///   - replacingTexts: whether a stored tweet's text gives way to
    ///     another given for it (an import's, correcting an earlier one): its
    ///     classifications are dropped, so that it is classified again.
    ///   - unchangedUsers: the ids of given users that are stored accounts as
    ///     read from the store (an input named them by a screen name alone):
    ///     written for their made-up namesakes to merge into, they keep their
    ///     update time, which says when a source last gave the account.
    public func saveTweets(users: [User], tweets: [Tweet], at date: Date = Date(),
                           replacingTexts: Bool = false, unchangedUsers: Set<String> = []) async throws -> Saved {
        try await write { db in
            var saved = Saved()
            var madeUp = Set(users.map(\.id).filter { $0.hasPrefix(User.localIDPrefix) })
            for user in users {
                try db.execute(
                    sql: """
                        INSERT INTO user (id, username, username_key, display_name, description, avatar_url, updated_at)
                        VALUES (?, ?, ?, ?, ?, ?, ?)
                        ON CONFLICT(id) DO UPDATE SET
                            username = excluded.username,
                            username_key = excluded.username_key,
                            display_name = excluded.display_name,
                            description = COALESCE(excluded.description, user.description),
                            avatar_url = COALESCE(excluded.avatar_url, user.avatar_url),
                            updated_at = CASE WHEN ? THEN user.updated_at ELSE excluded.updated_at END
                        """,
                    arguments: [user.id, user.username, user.usernameKey, user.displayName.storable, user.description?.storable,
                                user.avatarURL?.absoluteString, date, unchangedUsers.contains(user.id)])
                if !user.id.hasPrefix(User.localIDPrefix) {
                    saved.reassigned += try Self.mergeMadeUpUsers(into: user, in: db)
                }
            }
            for tweet in tweets {
                let record = TweetRecord(tweet, storedAt: date)
                try record.insert(db, onConflict: .ignore)
                if db.changesCount > 0 {
                    saved.inserted.append(tweet.id)
                    continue
                }
                guard let stored = try TweetRecord.fetchOne(db, key: tweet.id) else { continue }
                if replacingTexts, stored.text != record.text {
                    try db.execute(sql: "UPDATE tweet SET text = ? WHERE id = ?", arguments: [record.text, tweet.id])
                    try db.execute(sql: "DELETE FROM classification WHERE tweet_id = ?", arguments: [tweet.id])
                    saved.updated += 1
                }
                guard !tweet.authorID.isEmpty, stored.authorID != tweet.authorID else { continue }
                if stored.authorID.hasPrefix(User.localIDPrefix) {
                    try db.execute(sql: "UPDATE tweet SET author_id = ? WHERE id = ?", arguments: [tweet.authorID, tweet.id])
                    saved.reassigned += 1
                    madeUp.insert(stored.authorID)
                } else {
                    saved.keptUnderStoredAuthorIDs.append(tweet.id)
                }
            }
            for id in madeUp {
                try db.execute(sql: "DELETE FROM user WHERE id = ? AND NOT EXISTS (SELECT 1 FROM tweet WHERE author_id = ?)",
                               arguments: [id, id])
            }
            return saved
        }
    }

    /// Moves the tweets of the made-up users of `account`'s username
    /// (`local:name`, an import's `--user NAME` guess) to `account`, and
    /// deletes those users.
    ///
    /// - Returns: how many tweets moved.
    private static func mergeMadeUpUsers(into account: User, in db: Database) throws -> Int {
        let madeUp = "SELECT id FROM user WHERE username_key = ? AND id LIKE ?"
        let pattern = User.localIDPrefix + "%"
        try db.execute(sql: "UPDATE tweet SET author_id = ? WHERE author_id IN (\(madeUp))",
                       arguments: [account.id, account.usernameKey, pattern])
        let moved = db.changesCount
        try db.execute(sql: "DELETE FROM user WHERE id IN (\(madeUp))", arguments: [account.usernameKey, pattern])
        return moved
    }

    /// The stored user with this username (case-insensitive; the most recently
    /// updated one if the name moved between accounts). An account comes
    /// before a user made up for the name (`local:name`), however new: a file
    /// from before imports gave such users' tweets to the account of their
    /// name may hold both.
    public func user(username: String) async throws -> User? {
        let key = User.key(for: username)
        return try await read { db in
            try UserRecord.filter(Column("username_key") == key).order(Self.nameHolderOrder).fetchOne(db)?.user
        }
    }

    /// Which of the users of one name a lookup of it finds, first: an account
    /// before a made-up user, then the most recently updated.
    private static let nameHolderOrder: SQL = "(id LIKE \(User.localIDPrefix + "%")), updated_at DESC"

    /// The stored user with this id.
    public func user(id: String) async throws -> User? {
        try await read { db in try UserRecord.fetchOne(db, key: id)?.user }
    }

    /// The longest prefix ``users(prefix:limit:)`` looks for: 100 characters.
    /// Usernames have at most 50 and X display names at most 50, so a longer
    /// prefix matches nothing (and would make SQLite's `LIKE` pattern too complex).
    public static let maximumPrefixLength = 100

    /// Stored users whose username, or display name, starts with `prefix`
    /// (case-insensitive, `@` ignored), usernames first, alphabetically. A
    /// username that moved between accounts is listed once, as the user
    /// ``user(username:)`` finds: the other could not be shown by its name.
    ///
    /// A prefix longer than ``maximumPrefixLength`` characters finds no one.
    ///
    /// Display names are compared lowercased by Swift (GRDB's
    /// `swiftLowercaseString`): SQLite's own `LIKE` folds the case of ASCII
    /// letters only, and display names are any Unicode ("Émilie").
    ///
    /// - Complexity: a scan of the `user` table; fine for the thousands of
    ///   users a person looks up.
    public func users(prefix: String, limit: Int = 10) async throws -> [User] {
        let key = User.key(for: prefix)
        guard !key.isEmpty, key.count <= Self.maximumPrefixLength, limit > 0 else { return [] }
        let pattern = Self.likeEscaped(key) + "%"
        return try await read { db in
            try UserRecord.fetchAll(
                db,
                SQLRequest<UserRecord>(literal: """
                    SELECT * FROM (
                        SELECT *, ROW_NUMBER() OVER (
                            PARTITION BY username_key ORDER BY \(Self.nameHolderOrder)) AS name_rank
                        FROM user
                    )
                    WHERE name_rank = 1
                        AND (username_key LIKE \(pattern) ESCAPE '\\' OR swiftLowercaseString(display_name) LIKE \(pattern) ESCAPE '\\')
                    ORDER BY (username_key LIKE \(pattern) ESCAPE '\\') DESC, username_key
                    LIMIT \(limit)
                    """)
            ).map(\.user)
        }
    }

    /// Whether the tweet `id` is stored, with `authorID` as its author.
    public func containsTweet(id: String, authorID: String) async throws -> Bool {
        try await read { db in
            try TweetRecord.filter(Column("id") == id && Column("author_id") == authorID).fetchCount(db) > 0
        }
    }

    /// How many tweets are stored, for one author or in all.
    public func tweetCount(authorID: String? = nil) async throws -> Int {
        try await read { db in
            if let authorID {
                return try TweetRecord.filter(Column("author_id") == authorID).fetchCount(db)
            }
            return try TweetRecord.fetchCount(db)
        }
    }

    // MARK: - Timelines and classifications

    /// One page of an author's stored tweets, newest first (by time, then by
    /// id as a number: `"11"` before `"9"`), each with its classification by
    /// `modelID` when there is one.
    ///
    /// - Parameters:
    ///   - before: a tweet id; only tweets after it in that order are returned.
    ///     `nil` starts at the newest; an id that is not stored gives an empty page.
    ///   - limit: the page size (none when 0 or less).
    public func timeline(authorID: String, modelID: String, before: String? = nil, limit: Int) async throws -> [StoredTweet] {
        guard limit > 0 else { return [] }   // SQLite reads a negative LIMIT as none
        return try await read { db in
            var sql = """
                SELECT tweet.*, classification.*
                FROM tweet
                LEFT JOIN classification ON classification.tweet_id = tweet.id AND classification.model_id = ?
                WHERE tweet.author_id = ?
                """
            var arguments: StatementArguments = [modelID, authorID]
            if let before {
                sql += " AND (\(TweetOrder.sqlKey("tweet"))) < (SELECT \(TweetOrder.sqlKey("anchor")) FROM tweet AS anchor WHERE anchor.id = ?)"
                arguments += [before]
            }
            sql += " ORDER BY tweet.created_at DESC, length(tweet.id) DESC, tweet.id DESC LIMIT ?"
            arguments += [limit]
            let adapter = ScopeAdapter([
                "tweet": RangeRowAdapter(0..<6),
                "classification": SuffixRowAdapter(fromIndex: 6),
            ])
            return try Row.fetchAll(db, sql: sql, arguments: arguments, adapter: adapter).map { row in
                let tweet = try TweetRecord(row: row.scopes["tweet"]!).tweet
                var prediction: Prediction?
                if let scope = row.scopes["classification"], (scope["tweet_id"] as String?) != nil {
                    prediction = try ClassificationRecord(row: scope).prediction
                }
                return StoredTweet(tweet: tweet, prediction: prediction)
            }
        }
    }

    /// Stored tweets without a classification by `modelID`, oldest first (``TweetOrder``).
    ///
    /// - Parameters:
    ///   - ids: restrict to these tweets; `nil` for all.
    ///   - limit: at most this many (none when 0 or less).
    public func unclassifiedTweets(modelID: String, ids: [String]? = nil, limit: Int = .max) async throws -> [Tweet] {
        guard limit > 0 else { return [] }   // SQLite reads a negative LIMIT as none, `prefix` traps
        return try await read { db in
            let sql = """
                SELECT tweet.* FROM tweet
                WHERE NOT EXISTS (SELECT 1 FROM classification c WHERE c.tweet_id = tweet.id AND c.model_id = ?)
                """
            let order = " ORDER BY \(TweetOrder.sqlKey("tweet")) LIMIT ?"
            guard let ids else {
                return try TweetRecord.fetchAll(db, sql: sql + order, arguments: [modelID, limit]).map(\.tweet)
            }
            // In chunks, below SQLite's limit on statement parameters.
            var tweets: [Tweet] = []
            for start in stride(from: 0, to: ids.count, by: 500) {
                let chunk = Array(ids[start..<min(ids.count, start + 500)])
                var arguments: StatementArguments = [modelID]
                arguments += StatementArguments(chunk)
                arguments += [limit]
                tweets += try TweetRecord.fetchAll(
                    db, sql: sql + " AND tweet.id IN (\(databaseQuestionMarks(count: chunk.count)))" + order,
                    arguments: arguments
                ).map(\.tweet)
            }
            return Array(tweets.sorted { Tweet.newestFirst($1, $0) }.prefix(limit))
        }
    }

    /// Stores predictions by `modelID`, in one transaction (replacing any for the same tweet and model).
    public func saveClassifications(_ predictions: [(tweetID: String, prediction: Prediction)], modelID: String,
                                    at date: Date = Date()) async throws {
        guard !predictions.isEmpty else { return }
        try await write { db in
            for (tweetID, prediction) in predictions {
                try ClassificationRecord(tweetID: tweetID, modelID: modelID, prediction: prediction, classifiedAt: date)
                    .insert(db, onConflict: .replace)
            }
        }
    }

    /// How many classifications are stored, for one model or in all.
    public func classificationCount(modelID: String? = nil) async throws -> Int {
        try await read { db in
            if let modelID {
                return try ClassificationRecord.filter(Column("model_id") == modelID).fetchCount(db)
            }
            return try ClassificationRecord.fetchCount(db)
        }
    }

    // MARK: - Search history

    /// Records a search: the username moves to the top (no duplicates, compared
    /// case-insensitively), and entries beyond `limit` are dropped.
    public func recordSearch(username: String, at date: Date = Date(), limit: Int) async throws {
        var name = Substring(username.trimmingCharacters(in: .whitespacesAndNewlines))
        if name.hasPrefix("@") { name = name.dropFirst() }
        let record = SearchHistoryRecord(usernameKey: User.key(for: username), username: String(name), searchedAt: date)
        try await write { db in
            try record.insert(db, onConflict: .replace)
            try db.execute(
                sql: """
                    DELETE FROM search_history WHERE username_key NOT IN
                    (SELECT username_key FROM search_history ORDER BY searched_at DESC, rowid DESC LIMIT ?)
                    """,
                arguments: [max(0, limit)])
        }
    }

    /// The searched usernames, most recent first.
    public func searchHistory(limit: Int = .max) async throws -> [SearchHistoryEntry] {
        try await read { db in
            try SearchHistoryRecord
                .fetchAll(db, sql: "SELECT * FROM search_history ORDER BY searched_at DESC, rowid DESC LIMIT ?",
                          arguments: [limit])
                .map { SearchHistoryEntry(username: $0.username, searchedAt: $0.searchedAt) }
        }
    }

    /// Deletes the whole search history.
    public func clearSearchHistory() async throws {
        try await write { db in _ = try SearchHistoryRecord.deleteAll(db) }
    }

    // MARK: - Helpers

    static func likeEscaped(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if character == "%" || character == "_" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }
}

/// Why a ``TweetStore`` refuses a database file.
public enum TweetStoreError: Sendable, Hashable, DescribedError {
    /// The file was migrated by a newer version of swift-sentiment: it has
    /// these migrations, which this version does not know, so its schema may
    /// not be the one this version reads and writes.
    case newerSchema(unknownMigrations: [String])
    /// The file's folder is missing and cannot be made (`path`): the
    /// system's `reason`, such as "Permission denied" or "Not a directory".
    case cannotCreateFolder(path: String, reason: String)
    /// The file, opened read-only, was made by an older version and lacks
    /// these migrations, which a read-only store cannot apply.
    case olderSchema(pendingMigrations: [String])
    /// The file, opened for writing, is one this process may not write, or
    /// in a folder it may not write (a shared or archived snapshot, a
    /// read-only mount).
    case readOnly(ReadOnlyReason)
    /// The file is missing and cannot be made: its folder may not be written
    /// by this process, or is on a read-only file system.
    case cannotCreateFile(ReadOnlyReason)
    /// The file is another program's SQLite database: it has these tables and
    /// none of this program's migrations (another GRDB program's have a
    /// `grdb_migrations` among them). It is left as it was.
    case foreignDatabase(tables: [String])
    /// The path is one of SQLite's names for something other than a file:
    /// empty (a temporary database), `:memory:`, or a `file:` URI. A store
    /// keeps its data in the file its path names; a file of such a name is
    /// reached as `./:memory:` or `./file:…`.
    case notAFilePath(String)
    /// The path names something that is not a regular file (or a link to
    /// one): a folder, a named pipe, a device or a socket. SQLite fails on a
    /// folder with a misleading "disk I/O error", waits forever on a named
    /// pipe, and leaves a `-journal` beside a device.
    case notAFile(NonFileKind)
    /// The path names another file than the one the store opened (moved or
    /// copied over it), or none (`removed`): the store neither reads nor
    /// writes it any more, so as not to damage the file now there.
    case replacedWhileOpen(removed: Bool)

    /// A one-line reason.
    public var description: String {
        switch self {
        case .readOnly(let reason):
            "it is read-only (\(reason))"
        case .olderSchema(let names):
            "it is read-only and was made by an older version of sentiment (migration \(names.joined(separator: ", ")) not applied)"
        case .newerSchema(let names):
            "it was made by a newer version of sentiment (migration \(names.joined(separator: ", ")) unknown to this one)"
        case .cannotCreateFolder(let path, let reason):
            "its folder \(path) cannot be created: \(reason)"
        case .cannotCreateFile(let reason):
            "it cannot be created (\(reason))"
        case .foreignDatabase(let tables):
            "it is another program's SQLite database (its tables: \(Self.list(tables))); "
                + "sentiment keeps tweets in a database of its own: choose another file"
        case .replacedWhileOpen(let removed):
            (removed ? "it was removed" : "it was replaced by another file")
                + " since it was opened, so it is no longer read or written: start again to use the file now at its path"
        case .notAFile(.folder(let path)):
            "it is a folder, not a database file: give the path of a file, such as \(path.escapingControlCharacters)/tweets.sqlite"
        case .notAFile(let kind):
            "it is \(kind), not a database file: give the path of a regular file"
        case .notAFilePath(let path) where path.isEmpty:
            "an empty path names no file (SQLite would keep the tweets in a temporary database)"
        case .notAFilePath(let path):
            (path == ":memory:" ? "\":memory:\" is SQLite's name for a database in memory" : "a path that starts with \"file:\" is an SQLite URI")
                + ", not a file name: write ./\(path.escapingControlCharacters) for a file of that name"
        }
    }

    /// The first names of `names`, escaped to stay on one line, and how many more there are.
    private static func list(_ names: [String]) -> String {
        let shown = names.prefix(5).map(\.escapingControlCharacters).joined(separator: ", ")
        return names.count > 5 ? "\(shown) and \(names.count - 5) more" : shown
    }
}

/// A stored tweet and, when there is one, its stored prediction by the model asked for.
public struct StoredTweet: Sendable, Hashable {
    /// The tweet.
    public var tweet: Tweet
    /// The prediction, or `nil` when this model has not classified the tweet yet.
    public var prediction: Prediction?

    /// Creates a stored tweet.
    public init(tweet: Tweet, prediction: Prediction?) {
        self.tweet = tweet
        self.prediction = prediction
    }
}
