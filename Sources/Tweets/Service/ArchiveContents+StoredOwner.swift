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
}
