extension ArchiveContents {
    /// These contents with the account stored under `username` as their
    /// owner (``assigning(owner:)``), or `nil` when no account of that name is
    /// stored.
    ///
    /// Both ``TweetService/importArchive(_:owner:progress:)`` and
    /// ``ArchiveSource/init(contents:owner:store:)`` give an archive that does
    /// not name its owner to the stored account this way: a made-up
    /// `local:name` one, newer, would hide that account's stored tweets from
    /// every later lookup.
    func assigningStoredOwner(_ username: String, from store: TweetStore) async throws -> ArchiveContents? {
        guard let stored = try await store.user(username: username) else { return nil }
        return assigning(owner: stored)
    }

    /// These contents with each user they know by a screen name alone
    /// (`local:name`, a v1.1 `user` object with no id) replaced by the stored
    /// account of that name, when one is stored: its tweets become the
    /// account's. Stored after the account, the made-up user would be the
    /// newer of the name and split its tweets from the account's.
    func resolvingMadeUpUsers(from store: TweetStore) async throws -> ArchiveContents {
        var accounts: [User] = []
        for user in users where user.id.hasPrefix(User.localIDPrefix) {
            if let stored = try await store.user(username: user.username), !stored.id.hasPrefix(User.localIDPrefix) {
                accounts.append(stored)
            }
        }
        return adding(users: accounts)
    }

    /// The stored accounts of the authors these contents name by id alone
    /// (``unnamedAuthorIDs``: a v2 dump without `includes.users`), in id
    /// order. An id says whose a tweet is; a name given for the input
    /// (`--user`) is a guess, so those tweets are the accounts', and the
    /// accounts keep their stored names.
    func storedAuthors(in store: TweetStore) async throws -> [User] {
        var accounts: [User] = []
        for id in unnamedAuthorIDs.sorted() {
            if let stored = try await store.user(id: id) { accounts.append(stored) }
        }
        return accounts
    }

    /// These contents with `added` among their ``users``.
    func adding(users added: [User]) -> ArchiveContents {
        guard !added.isEmpty else { return self }
        return ArchiveContents(users: users + added, tweets: tweets, issues: issues, repeatedTweets: repeatedTweets)
    }
}
