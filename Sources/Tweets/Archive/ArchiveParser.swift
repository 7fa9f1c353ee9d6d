import Foundation
import Sentiment

/// Reads tweets from an X account archive or a dump.
///
/// Accepted inputs:
///
/// - **An unpacked archive folder** (or its `data/` folder): `account.js` and
///   `profile.js` give the owner; tweets come from `tweets.js` (older archives:
///   `tweet.js`) and its parts `tweets-part1.js`, `tweets-part2.js`… Each file is
///   `window.YTD.tweets.part0 = [ {"tweet": {…}}, … ]` (older: entries without
///   the `tweet` wrapper) with v1.1 fields `id_str`, `full_text`, `created_at`.
/// - **A single archive file** of that form.
/// - **JSON Lines**: one v1.1 tweet (`id_str`, `extended_tweet.full_text`/`full_text`/`text`,
///   `created_at` like `Wed Oct 10 20:19:24 +0000 2018`, `user`), one v2 tweet
///   (`id`, `text`, ISO 8601 `created_at`, `author_id`) or one v2 page
///   (`{"data": […], "includes": {"users": […]}, "meta": {…}}`) per line.
/// - **A JSON array** of such objects, or **a single v2 page**.
///
/// A malformed entry — invalid JSON, a missing id, text or date, a text with
/// nothing visible in it, a user whose username is not one
/// (``User/isValidUsername(_:)``, which every lookup of a user asks), and that
/// user's tweets — is recorded
/// in ``ArchiveContents/issues`` with its file and position and skipped; the
/// other entries are kept. Text is unescaped (`&amp;` → `&`) as X escapes it;
/// an escape of half a surrogate pair (`\uD83D` alone: an emoji cut in two)
/// is read as U+FFFD, not as a malformed entry (`LoneSurrogateEscapes`), and
/// so are bytes that are not UTF-8. A file that starts with a UTF-16 byte
/// order mark is read as UTF-16.
public enum ArchiveParser {
    /// Reads a folder or a file.
    ///
    /// - Throws: ``ArchiveError`` when the path does not exist, cannot be read,
    ///   or is a folder without tweet files. Malformed entries do not throw.
    public static func load(from url: URL) throws -> ArchiveContents {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw ArchiveError.notFound(url.path)
        }
        return isDirectory.boolValue ? try loadFolder(url) : parse(try read(url), file: url.lastPathComponent)
    }

    /// Parses one file's bytes, detecting its format. `file` names it in issues.
    public static func parse(_ data: Data, file: String) -> ArchiveContents {
        var builder = Builder(file: file)
        builder.addFile(data)
        return builder.contents
    }

    /// The index of the `[` in `name.path = [` (or `var name = [`) at `start`,
    /// an archive file's JavaScript assignment, or nil when the first line is
    /// not of that form.
    private static func assignedArray(_ bytes: [UInt8], from start: Int) -> Int? {
        func isNameByte(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "$"),
                UInt8(ascii: " "), UInt8(ascii: "\t"):
                true
            default:
                false
            }
        }
        var index = start
        while index < bytes.count, isNameByte(bytes[index]) { index += 1 }
        guard index > start else { return nil }
        while index < bytes.count, JSONEntryScanner.isSpace(bytes[index]) { index += 1 }
        guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else { return nil }
        index += 1
        while index < bytes.count, JSONEntryScanner.isSpace(bytes[index]) { index += 1 }
        return index < bytes.count && bytes[index] == UInt8(ascii: "[") ? index : nil
    }

    // MARK: - Folders

    private static func loadFolder(_ folder: URL) throws -> ArchiveContents {
        let fileManager = FileManager.default
        let data = folder.appendingPathComponent("data", isDirectory: true)
        var isDirectory: ObjCBool = false
        let root = fileManager.fileExists(atPath: data.path, isDirectory: &isDirectory) && isDirectory.boolValue ? data : folder
        let prefix = root == data ? "data/" : ""
        let names = (try? fileManager.contentsOfDirectory(atPath: root.path)) ?? []
        let tweetFiles = names.compactMap { name -> (Int, String)? in
            for stem in ["tweets", "tweet"] {
                if name == "\(stem).js" { return (0, name) }
                if name.hasPrefix("\(stem)-part"), name.hasSuffix(".js"),
                    let part = Int(name.dropFirst(stem.count + 5).dropLast(3))
                {
                    return (part, name)
                }
            }
            return nil
        }
        .sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 > $1.1 }
        guard !tweetFiles.isEmpty else { throw ArchiveError.noTweetFiles(folder.path) }

        // One builder for every part, so that a tweet one part repeats from
        // another is reported with both places.
        var builder = Builder(file: "")
        for (_, name) in tweetFiles {
            let data = try read(root.appendingPathComponent(name))
            builder.file = prefix + name
            builder.addFile(data)
        }
        var contents = builder.contents
        var accountIssues: [ArchiveIssue] = []
        if let owner = try accountOwner(in: root, prefix: prefix, issues: &accountIssues) {
            contents = contents.assigning(owner: owner)
        }
        contents.issues += accountIssues
        return contents
    }

    /// The owner from `account.js`, completed by `profile.js`; nil when there is
    /// no `account.js`, or (with an issue) when it names no account.
    private static func accountOwner(in root: URL, prefix: String, issues: inout [ArchiveIssue]) throws -> User? {
        let accountFile = root.appendingPathComponent("account.js")
        guard FileManager.default.fileExists(atPath: accountFile.path) else { return nil }
        guard let account = firstEntry(try read(accountFile))?["account"] as? [String: Any],
            let id = string(account["accountId"]), let username = account["username"] as? String,
            !username.isEmpty
        else {
            issues.append(ArchiveIssue(
                file: prefix + "account.js", position: "entry 1",
                reason: "no account with an accountId and a username: the archive's owner is unknown"))
            return nil
        }
        if let problem = usernameProblem(username) {
            issues.append(ArchiveIssue(file: prefix + "account.js", position: "entry 1",
                                       reason: "account \(id): \(problem): the archive's owner is unknown"))
            return nil
        }
        var user = User(id: id, username: username, displayName: (account["accountDisplayName"] as? String) ?? username)
        let profileFile = root.appendingPathComponent("profile.js")
        if FileManager.default.fileExists(atPath: profileFile.path),
            let profile = firstEntry(try read(profileFile))?["profile"] as? [String: Any]
        {
            if let bio = (profile["description"] as? [String: Any])?["bio"] as? String, !bio.isEmpty {
                user.description = bio
            }
            user.avatarURL = (profile["avatarMediaUrl"] as? String).flatMap(URL.init(string:))
        }
        return user
    }

    private static func firstEntry(_ data: Data) -> [String: Any]? {
        let bytes = [UInt8](data)
        let start = bytes.firstIndex(of: UInt8(ascii: "=")).map { $0 + 1 } ?? 0
        for case .element(_, let slice) in JSONEntryScanner(bytes: bytes).entries(from: start) {
            return LoneSurrogateEscapes.jsonObject(with: Data(slice)) as? [String: Any]
        }
        return nil
    }

    /// A file's bytes; a pipe or other stream (`<(…)`, `/dev/stdin`) is read
    /// to its end. A failure says the system's reason ("Is a directory").
    private static func read(_ url: URL) throws -> Data {
        do {
            return try FileBytes.read(url.path)
        } catch {
            throw ArchiveError.unreadable(url.path, reason: error.reason)
        }
    }

    // MARK: - Entries

    /// Accumulates the users, tweets and issues of one file, or of every part
    /// of an archive (`file` names the one being read).
    struct Builder {
        /// The file being read, as named in issues.
        var file: String
        var users: [User] = []
        var tweets: [Tweet] = []
        var issues: [ArchiveIssue] = []

        /// Where the first tweet of each id was, to name it when the id comes again.
        var firstOfID: [String: (tweet: Tweet, file: String, position: String)] = [:]
        var repeatedTweets = 0
        /// The users skipped for a username that is not one, by id: their
        /// tweets are skipped too, never given to another user.
        var refusedUsers: [String: String] = [:]

        /// What was read. A tweet read before the entry that refused its
        /// author (a later page's `includes.users`) is skipped here.
        var contents: ArchiveContents {
            var issues = issues
            let tweets = tweets.filter { tweet in
                guard let username = refusedUsers[tweet.authorID] else { return true }
                let first = firstOfID[tweet.id]
                issues.append(ArchiveIssue(file: first?.file ?? file, position: first?.position ?? "tweet \(tweet.id)",
                                           reason: Self.refusedAuthorReason(tweet, username: username)))
                return false
            }
            return ArchiveContents(users: users, tweets: tweets, issues: issues, repeatedTweets: repeatedTweets)
        }

        static func refusedAuthorReason(_ tweet: Tweet, username: String) -> String {
            "tweet \(tweet.id): its author, user \(tweet.authorID), is skipped (\(ArchiveParser.usernameProblem(username) ?? username))"
        }

        /// Reads one file's bytes, detecting its format. Bytes that are not
        /// UTF-8 (a Latin-1 "café") read as U+FFFD, as `classify` reads them,
        /// instead of making their entries invalid JSON.
        mutating func addFile(_ data: Data) {
            // UTF-16 with a byte order mark (Windows Notepad's "Unicode",
            // PowerShell's `>`) is read as its text, as `classify` reads it.
            var bytes = UTF16Transcoder.utf8(ofMarked: data) ?? [UInt8](data)
            if String(validating: bytes, as: UTF8.self) == nil {
                bytes = Array(String(decoding: bytes, as: UTF8.self).utf8)
            }
            var start = 0
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
            while start < bytes.count, bytes[start] == 0x20 || bytes[start] == 0x0A || bytes[start] == 0x0D || bytes[start] == 0x09 {
                start += 1
            }
            guard start < bytes.count else { return }
            switch bytes[start] {
            case UInt8(ascii: "["):
                // A JSON array, unless something follows its closing bracket: then
                // the `[` opened the first of several lines.
                if let end = JSONEntryScanner(bytes: bytes).end(ofValueAt: start),
                    bytes[(end + 1)...].contains(where: { !JSONEntryScanner.isSpace($0) })
                {
                    addLines(bytes, from: start)
                } else {
                    addArray(bytes, from: start)
                }
            case UInt8(ascii: "{"):
                if let whole = LoneSurrogateEscapes.jsonObject(with: Data(bytes[start...])) as? [String: Any] {
                    addObject(whole, position: "document")
                } else {
                    addLines(bytes, from: start)
                }
            default:
                // `window.YTD.tweets.part0 = [ … ]`: the array after the `=`.
                // Anything else is read line by line, each bad line an issue of its own.
                if let array = ArchiveParser.assignedArray(bytes, from: start) {
                    addArray(bytes, from: array)
                } else {
                    addLines(bytes, from: start)
                }
            }
        }

        mutating func addArray(_ bytes: [UInt8], from start: Int) {
            for entry in JSONEntryScanner(bytes: bytes).entries(from: start) {
                switch entry {
                case .broken(let position, let reason):
                    issues.append(ArchiveIssue(file: file, position: "entry \(position)", reason: reason))
                case .element(let position, let slice):
                    addJSON(Data(slice), position: "entry \(position)")
                }
            }
        }

        mutating func addLines(_ bytes: [UInt8], from start: Int) {
            var lineNumber = 1 + bytes[..<start].filter { $0 == 0x0A }.count
            for line in bytes[start...].split(separator: 0x0A, omittingEmptySubsequences: false) {
                defer { lineNumber += 1 }
                guard line.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { continue }
                addJSON(Data(line), position: "line \(lineNumber)")
            }
        }

        mutating func addJSON(_ data: Data, position: String) {
            guard let value = LoneSurrogateEscapes.jsonObject(with: data, options: .fragmentsAllowed) else {
                issues.append(ArchiveIssue(file: file, position: position, reason: "invalid JSON"))
                return
            }
            guard let object = value as? [String: Any] else {
                // Valid JSON, but a number, a string, null or an array where a tweet or page belongs.
                issues.append(ArchiveIssue(file: file, position: position,
                                           reason: "not a JSON object (\(ArchiveParser.kind(of: value)))"))
                return
            }
            addObject(object, position: position)
        }

        /// A v2 page, a wrapped archive entry, or a bare tweet.
        mutating func addObject(_ object: [String: Any], position: String) {
            if object["data"] != nil || object["meta"] != nil || object["includes"] != nil {
                addPage(object, position: position)
            } else if let tweet = object["tweet"] as? [String: Any] {
                addTweet(tweet, position: position)
            } else {
                addTweet(object, position: position)
            }
        }

        mutating func addPage(_ page: [String: Any], position: String) {
            if let includes = page["includes"] as? [String: Any], let list = includes["users"] as? [[String: Any]] {
                for (index, object) in list.enumerated() {
                    guard let user = ArchiveParser.v2User(object) else { continue }
                    if let problem = ArchiveParser.usernameProblem(user.username) {
                        refusedUsers[user.id] = user.username
                        issues.append(ArchiveIssue(file: file, position: "\(position) includes.users[\(index)]",
                                                   reason: "user \(user.id): \(problem)"))
                    } else {
                        users.append(user)
                    }
                }
            }
            switch page["data"] {
            case let list as [Any]:
                for (index, item) in list.enumerated() {
                    let where_ = "\(position) data[\(index)]"
                    guard let tweet = item as? [String: Any] else {
                        issues.append(ArchiveIssue(file: file, position: where_, reason: "not a JSON object"))
                        continue
                    }
                    addTweet(tweet, position: where_)
                }
            case let tweet as [String: Any]:
                addTweet(tweet, position: "\(position) data")
            default:
                break
            }
        }

        mutating func addTweet(_ object: [String: Any], position: String) {
            switch ArchiveParser.tweet(object) {
            case .success(let (tweet, user)):
                if let username = refusedUsers[tweet.authorID] {
                    issues.append(ArchiveIssue(file: file, position: position,
                                               reason: Self.refusedAuthorReason(tweet, username: username)))
                    return
                }
                if let user { users.append(user) }
                if let first = firstOfID[tweet.id] {
                    // Pages that overlap repeat a tweet: counted, and kept once.
                    repeatedTweets += 1
                    let tweetFirst = first.tweet
                    if tweetFirst.text != tweet.text || tweetFirst.authorID != tweet.authorID
                        || tweetFirst.createdAt != tweet.createdAt {
                        let place = first.file == file ? first.position : "\(first.file), \(first.position)"
                        issues.append(ArchiveIssue(
                            file: file, position: position,
                            reason: "tweet \(tweet.id) repeats \(place) with another text, author or date; the first is kept"))
                    }
                    return
                }
                firstOfID[tweet.id] = (tweet, file, position)
                tweets.append(tweet)
            case .failure(let reason):
                issues.append(ArchiveIssue(file: file, position: position, reason: reason.message))
            }
        }
    }

    struct EntryError: Error {
        var message: String
    }

    /// Whether `id` is written as a tweet id is: ASCII digits, with no leading
    /// zero ("010" would sort as another number than 10 does).
    static func isTweetID(_ id: String) -> Bool {
        let digits = id.utf8
        return !digits.isEmpty && digits.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
            && (digits.count == 1 || digits.first != UInt8(ascii: "0"))
    }

    /// A tweet from a v1.1 or v2 object, and its author when the object embeds one.
    static func tweet(_ object: [String: Any]) -> Result<(Tweet, User?), EntryError> {
        guard let id = string(object["id_str"]) ?? string(object["id"]) else {
            return .failure(EntryError(message: "missing id"))
        }
        // Tweets of the same time are listed by id as a number: an id that is none would sort anywhere.
        guard isTweetID(id) else {
            return .failure(EntryError(message: "id \"\(id)\" is not a tweet id (digits, with no leading zero)"))
        }
        // The longest form first: v2 long posts, then v1.1's extended tweet (whose
        // `text` is cut at 140 characters with "…" and a link), then the plain text.
        let noteText = (object["note_tweet"] as? [String: Any])?["text"] as? String
        let extendedText = (object["extended_tweet"] as? [String: Any])?["full_text"] as? String
        guard let text = noteText ?? extendedText ?? (object["full_text"] as? String) ?? (object["text"] as? String) else {
            return .failure(EntryError(message: "tweet \(id): missing text"))
        }
        guard !BlankText.isBlank(text) else {
            return .failure(EntryError(message: "tweet \(id): empty text"))
        }
        let createdAt: Date
        if let value = object["created_at"] {
            guard let text = value as? String, let date = TweetDate.parse(text) else {
                return .failure(EntryError(message: "tweet \(id): invalid created_at"))
            }
            createdAt = date
        } else if let date = Snowflake.date(ofID: id) {
            createdAt = date
        } else {
            return .failure(EntryError(message: "tweet \(id): missing created_at"))
        }
        if let user = object["user"] as? [String: Any], let name = user["screen_name"] as? String,
            let problem = usernameProblem(name)
        {
            return .failure(EntryError(message: "tweet \(id): its user's screen_name \(problem)"))
        }
        let embedded = (object["user"] as? [String: Any]).flatMap { v1User($0) ?? namedUser($0) }
        let authorID = string(object["author_id"]) ?? embedded?.id ?? string(object["user_id_str"]) ?? ""
        let language = (object["lang"] as? String).flatMap { $0.isEmpty ? nil : $0 }
        return .success((Tweet(id: id, authorID: authorID, text: HTMLEntities.decode(text), createdAt: createdAt,
                               language: language), embedded))
    }

    /// Why `username` cannot name a stored user (`nil` when it can): every
    /// lookup of a user refuses what ``User/isValidUsername(_:)`` refuses, so
    /// such a user's tweets could be listed but never reached. The username
    /// is cut to 60 characters, then its control characters and line
    /// separators are escaped, so that the reason stays on one line.
    static func usernameProblem(_ username: String) -> String? {
        guard !User.isValidUsername(username) else { return nil }
        let shown = username.unicodeScalars.count > 60 ? String(String.UnicodeScalarView(username.unicodeScalars.prefix(60))) + "…" : username
        return "\"\(shown.escapingControlCharacters)\" is not a username (1 to 50 letters, digits or _)"
    }

    static func v1User(_ object: [String: Any]) -> User? {
        guard let id = string(object["id_str"]) ?? string(object["id"]), let username = object["screen_name"] as? String
        else { return nil }
        let avatar = (object["profile_image_url_https"] as? String) ?? (object["profile_image_url"] as? String)
        return User(id: id, username: username, displayName: (object["name"] as? String) ?? username,
                    description: (object["description"] as? String).flatMap { $0.isEmpty ? nil : $0 },
                    avatarURL: avatar.flatMap(URL.init(string:)))
    }

    /// A v1.1 `user` object with a `screen_name` but no id: the user
    /// `local:name`, so that the tweet is known to be that person's (and never
    /// taken for the archive owner's). ``ArchiveContents`` gives such tweets the
    /// user's real id when another entry names it.
    static func namedUser(_ object: [String: Any]) -> User? {
        guard let username = object["screen_name"] as? String, !User.key(for: username).isEmpty else { return nil }
        return User(id: User.localIDPrefix + User.key(for: username), username: username,
                    displayName: (object["name"] as? String) ?? username)
    }

    static func v2User(_ object: [String: Any]) -> User? {
        guard let id = string(object["id"]), let username = object["username"] as? String else { return nil }
        return User(id: id, username: username, displayName: (object["name"] as? String) ?? username,
                    description: (object["description"] as? String).flatMap { $0.isEmpty ? nil : $0 },
                    avatarURL: (object["profile_image_url"] as? String).flatMap(URL.init(string:)))
    }

    /// What a JSON value that is not an object is, for an issue: "a number", "null".
    static func kind(of value: Any) -> String {
        if isBoolean(value) { return "a boolean" }
        switch value {
        case is NSNull: return "null"
        case is String: return "a string"
        case is [Any]: return "an array"
        case is NSNumber: return "a number"
        default: return "another value"
        }
    }

    /// Whether a JSON value is `true` or `false`, which Foundation hands over
    /// as an `NSNumber` (of Objective-C type `c`), like a number.
    static func isBoolean(_ value: Any?) -> Bool {
        guard let number = value as? NSNumber else { return false }
        return String(cString: number.objCType) == "c"
    }

    /// An id that may be a string or an integer (never a lossy floating-point
    /// number, nor a boolean, which Foundation also hands over as a number,
    /// nor a negative integer, which no tweet or user has).
    static func string(_ value: Any?) -> String? {
        if isBoolean(value) { return nil }
        switch value {
        case let text as String:
            return text.isEmpty ? nil : text
        case let number as Int:
            return number >= 0 ? String(number) : nil
        case let number as UInt64:
            return String(number)
        case let number as NSNumber:
            let text = number.stringValue
            return text.allSatisfy(\.isNumber) ? text : nil
        default:
            return nil
        }
    }
}
