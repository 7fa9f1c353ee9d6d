import GRDB
import Sentiment

/// The store's schema, as named migrations applied in order on open.
///
/// Never edit a shipped migration: add a new one. Names are stable, they are
/// recorded in the database's `grdb_migrations` table.
enum Migrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()

        // Users, by X id. Usernames can move between accounts, so the
        // lowercased username is indexed but not unique.
        migrator.registerMigration("v1-createUser") { db in
            try db.create(table: "user") { t in
                t.primaryKey("id", .text)
                t.column("username", .text).notNull()
                t.column("username_key", .text).notNull().indexed()
                t.column("display_name", .text).notNull()
                t.column("description", .text)
                t.column("avatar_url", .text)
                t.column("updated_at", .datetime).notNull()
            }
        }

        // Tweets, read newest first per author: (author_id, created_at, id) index.
        migrator.registerMigration("v1-createTweet") { db in
            try db.create(table: "tweet") { t in
                t.primaryKey("id", .text)
                t.column("author_id", .text).notNull().references("user", onDelete: .cascade)
                t.column("text", .text).notNull()
                t.column("created_at", .datetime).notNull()
                t.column("language", .text)
                t.column("stored_at", .datetime).notNull()
            }
            try db.create(index: "tweet_on_author_created", on: "tweet", columns: ["author_id", "created_at", "id"])
        }

        // One classification per tweet and model identity (name, version and
        // weights checksum in one `model_id`), so a new model version
        // classifies again while the old results stay.
        migrator.registerMigration("v1-createClassification") { db in
            try db.create(table: "classification") { t in
                t.column("tweet_id", .text).notNull().references("tweet", onDelete: .cascade)
                t.column("model_id", .text).notNull()
                t.column("label", .text).notNull()
                t.column("p_negative", .double).notNull()
                t.column("p_neutral", .double).notNull()
                t.column("p_positive", .double).notNull()
                t.column("score", .double).notNull()
                t.column("language", .text).notNull()
                t.column("classified_at", .datetime).notNull()
                t.primaryKey(["tweet_id", "model_id"])
            }
        }

        // Searched usernames, one row each, most recent first.
        migrator.registerMigration("v1-createSearchHistory") { db in
            try db.create(table: "search_history") { t in
                t.primaryKey("username_key", .text)
                t.column("username", .text).notNull()
                t.column("searched_at", .datetime).notNull().indexed()
            }
        }

        // Texts over `TextSegments.wholeLimit` bytes (X's long posts) have
        // been read in tweet-sized segments since the library began to cut
        // them; before, they were read whole, which made a long text sure of
        // itself by its length alone. The model's identity did not change,
        // so their stored classifications are dropped here, once, and the
        // next timeline classifies those tweets again.
        migrator.registerMigration("v2-reclassifyLongTexts") { db in
            try db.execute(
                sql: "DELETE FROM classification WHERE tweet_id IN (SELECT id FROM tweet WHERE length(CAST(text AS BLOB)) > ?)",
                arguments: [TextSegments.wholeLimit])
        }

        return migrator
    }
}
