#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Sentiment

/// One output record's worth of input: the text to classify and the fields
/// that identify it, taken from one line, or the reason the line cannot be used.
///
/// A line is JSON when its first visible character is `{` (invisible ones
/// before it, such as a byte order mark where files were joined or a
/// zero-width space, are passed over), or `[` with `{` or `]` as the next
/// character but blanks (an array of tweets), plain text otherwise.
/// `TweetRecord.extract(line:lineNumber:scratch:into:)` reads it:
///
/// - Plain text: the whole line is the text (a trailing `\r` is already gone).
///   Invalid UTF-8 is kept (the model reads it as U+FFFD) and flagged.
/// - Twitter API v1.1 tweet. For a retweet (`retweeted_status` is an object)
///   the text is the retweeted tweet's full text:
///   `retweeted_status.extended_tweet.full_text` > `retweeted_status.full_text`
///   > `retweeted_status.text`, because v1.1 truncates the retweet's own
///   `text` ("RT @user: …"). Otherwise `extended_tweet.full_text` > `full_text`
///   > `text`. The id and user stay the retweet's own.
/// - Twitter API v2 tweet: `note_tweet.text` (long posts) > `text`.
/// - id: `id_str` > `id`, a number's digits kept as text (64-bit ids never go
///   through a `Double`). `user.screen_name` (v1.1) and `author_id` (v2) too.
/// - v2 page `{"data":[…]}`: one record per element, each with its `index`.
///   `{"data":{…}}` is a single tweet. An empty page (`{"data":[]}`, or
///   `{"meta":{"result_count":0}}`, as the API answers when no tweet matched),
///   or one with only `errors`, is one error record.
/// - JSON array `[{…},…]`, as the v1.1 timeline and search endpoints answer
///   and `import` reads: one record per element, each with its `index`, as a
///   page's; an empty array (`[]`) is one error record.
struct TweetRecord {
    /// The input line, from 1.
    var line: Int
    /// The position in a v2 page's `data` array, or in an array of tweets, from 0;
    /// -1 when the line is neither.
    var index = -1
    /// The text to classify.
    var text = ByteRef.absent
    /// `id_str`, or `id` (string or number).
    var id = ByteRef.absent
    /// v1.1 `user.screen_name`.
    var user = ByteRef.absent
    /// v2 `author_id` (string or number).
    var authorID = ByteRef.absent
    /// Why the record could not be classified; nil when it can be.
    var problem: RecordProblem?
    /// The text, or its id, user or author id, is not well-formed UTF-8 (it
    /// is classified anyway, and shown with U+FFFD).
    var invalidUTF8 = false
    /// A plain line holds NUL bytes, as UTF-16 read as UTF-8 does (it is classified anyway).
    var nulBytes = false
    /// A JSON text (or id, user or author id) has a `\uD800`–`\uDFFF` escape
    /// without its other half, as a tool that cuts text at a UTF-16 length
    /// leaves of an emoji; read as U+FFFD (it is classified anyway).
    var loneSurrogate = false

    /// The output's `warning`, if any: each problem the text has, "; "-separated.
    var warning: StaticString? {
        switch (invalidUTF8, nulBytes, loneSurrogate) {
        case (false, false, false): nil
        case (true, false, false): "invalid UTF-8"
        case (false, true, false): "NUL bytes"
        case (true, true, false): "invalid UTF-8; NUL bytes"
        case (false, false, true): "lone surrogate"
        case (true, false, true): "invalid UTF-8; lone surrogate"
        // NUL bytes are flagged in plain lines only, lone surrogates in JSON
        // texts only: the two never meet.
        case (false, true, true): "NUL bytes; lone surrogate"
        case (true, true, true): "invalid UTF-8; NUL bytes; lone surrogate"
        }
    }
    /// For `apiError`: the first error's message, when the response has one.
    var message = ByteRef.absent

    init(line: Int, index: Int = -1) {
        self.line = line
        self.index = index
    }

    init(line: Int, problem: RecordProblem) {
        self.line = line
        self.problem = problem
    }
}

/// Why a record could not be classified. `description` is the output's `error`
/// (for `apiError`, followed by ": " and the record's `message` when it has one).
///
/// Plain data without references, so that records copy as bytes.
enum RecordProblem: Equatable, Sendable, CustomStringConvertible {
    /// The line is empty or only invisible characters (`BlankText`).
    case emptyLine
    /// The text field is empty or only invisible characters (`BlankText`).
    case emptyText
    /// A JSON object with none of the text fields.
    case noTextField
    /// The text field holds another kind of value than a string.
    case textNotAString(field: TextField, kind: JSONSpan.Kind)
    /// The text field is null (and no other text field is a string).
    case textIsNull(field: TextField)
    /// The line is longer than the limit (only its first bytes were kept, for
    /// its id); `carriageReturns` when those bytes hold a `\r`, as a file
    /// whose lines end in `\r` alone (classic Mac OS, Excel's "CSV
    /// (Macintosh)") does: read as one line, it is why the line is so long.
    case lineTooLong(limit: Int, carriageReturns: Bool)
    /// The line starts with `{` but is not valid JSON.
    case malformedJSON(JSONError)
    /// A v2 page whose `data` array is empty, or absent beside its `meta` (and that has no `errors`).
    case emptyPage
    /// An element of a v2 page's `data` that is not an object.
    case notAnObject
    /// An array of tweets with no element.
    case emptyArray
    /// An element of an array of tweets that is not an object.
    case arrayElementNotAnObject
    /// A response with `errors` and no data.
    case apiError

    var description: String {
        switch self {
        case .emptyLine: "empty line"
        case .emptyText: "empty text"
        case .noTextField: "no text field"
        case .textNotAString(let field, let kind): "\(field.name) is \(kind.withArticle), not a string"
        case .textIsNull(let field): "\(field.name) is null"
        case .lineTooLong(let limit, false): "line longer than \(limit) bytes"
        case .lineTooLong(let limit, true):
            "line longer than \(limit) bytes; it holds carriage returns, and lines end at \\n, not at \\r alone (tr '\\r' '\\n' converts such a file)"
        case .malformedJSON(let error): error.description
        case .emptyPage: "empty page"
        case .notAnObject: "page element is not an object"
        case .emptyArray: "empty array"
        case .arrayElementNotAnObject: "array element is not an object"
        case .apiError: "API error"
        }
    }
}

/// The fields a tweet's text is read from, named as in the JSON, in the order
/// they are tried (`TweetFields.chosenText`).
enum TextField: UInt8, Sendable, CaseIterable {
    case retweetExtendedFullText, retweetFullText, retweetText, extendedFullText, fullText, noteText, text

    var name: String {
        switch self {
        case .retweetExtendedFullText: "retweeted_status.extended_tweet.full_text"
        case .retweetFullText: "retweeted_status.full_text"
        case .retweetText: "retweeted_status.text"
        case .extendedFullText: "extended_tweet.full_text"
        case .fullText: "full_text"
        case .noteText: "note_tweet.text"
        case .text: "text"
        }
    }
}

/// Bytes of a record's field: either in the input (which outlives the record's
/// batch) or in the worker's scratch buffer of decoded strings (which may move
/// while it grows, hence an offset).
struct ByteRef {
    /// No such field.
    static var absent: ByteRef { ByteRef(pointer: nil, offset: 0, count: -1) }

    var pointer: UnsafeRawPointer?
    var offset: Int
    var count: Int

    var isPresent: Bool { count >= 0 }

    /// The bytes, or nil when absent.
    @inline(__always)
    func resolve(scratch: ByteBuffer) -> UnsafeRawBufferPointer? {
        guard count >= 0 else { return nil }
        if let pointer { return UnsafeRawBufferPointer(start: pointer, count: count) }
        return UnsafeRawBufferPointer(start: scratch.base + offset, count: count)
    }
}

// MARK: - Extraction

extension TweetRecord {
    /// Appends the records of one input line to `records`: one for plain text
    /// or a tweet object, one per element for a v2 page or an array of tweets,
    /// one error record for a line that cannot be used.
    ///
    /// - Parameters:
    ///   - line: the line without its `\n` and trailing `\r`. Its memory must
    ///     outlive the records, which point into it.
    ///   - scratch: where decoded (unescaped) strings are appended.
    static func extract(
        line: UnsafeRawBufferPointer, lineNumber: Int, scratch: ByteBuffer, into records: inout [TweetRecord]
    ) {
        guard let first = firstVisible(line) else {
            records.append(TweetRecord(line: lineNumber, problem: .emptyLine))
            return
        }
        if line[first] == UInt8(ascii: "["), startsArrayOfObjects(line, at: first) {
            extractArray(UnsafeRawBufferPointer(rebasing: line[first...]), startingAt: first, lineNumber: lineNumber,
                         scratch: scratch, into: &records)
            return
        }
        guard line[first] == UInt8(ascii: "{") else {
            var record = TweetRecord(line: lineNumber)
            record.text = ByteRef(pointer: line.baseAddress!, offset: 0, count: line.count)
            let check = UTF8Validation.check(line)
            record.invalidUTF8 = !check.isValid
            record.nulBytes = check.hasNUL
            records.append(record)
            return
        }
        // The JSON from its `{`; offsets in errors still count from the line's start.
        let json = UnsafeRawBufferPointer(rebasing: line[first...])
        extractJSON(json, startingAt: first, lineNumber: lineNumber, scratch: scratch, into: &records)
    }

    /// The error record of a line over the length limit, from the `prefix` of
    /// it that was kept: when the line is a JSON object, with the id, user and
    /// author id that the prefix holds whole (the values read before the cut,
    /// so that a tweet can still be matched to its error).
    static func tooLong(prefix: UnsafeRawBufferPointer, lineNumber: Int, limit: Int, scratch: ByteBuffer) -> TweetRecord {
        let carriageReturns = prefix.count > 0 && memchr(prefix.baseAddress!, 0x0D, prefix.count) != nil
        var record = TweetRecord(line: lineNumber, problem: .lineTooLong(limit: limit, carriageReturns: carriageReturns))
        guard let first = firstVisible(prefix), prefix[first] == UInt8(ascii: "{") else { return record }
        let json = UnsafeRawBufferPointer(rebasing: prefix[first...])
        var fields = TweetFields()
        // The scan stops at the cut; what it captured before stays in `fields`.
        _ = try? JSONScanner.scanDocument(json, context: TweetFields.Context.cutTweet, visitor: &fields)
        // A value that runs to the cut (a number) may be cut short: not used.
        fields.identify(&record, bytes: json, scratch: scratch, endingBefore: json.count)
        return record
    }

    /// The offset of the line's first visible character, nil for a blank
    /// line. A visible ASCII character settles it; anything else asks
    /// BlankText, which also finds a `{` behind an invisible prefix (a byte
    /// order mark, a zero-width or no-break space).
    @inline(__always)
    private static func firstVisible(_ line: UnsafeRawBufferPointer) -> Int? {
        guard let first = firstNonBlank(line) else { return nil }
        if (0x21...0x7E).contains(line[first]) { return first }
        return BlankText.firstVisible(utf8: UnsafeRawBufferPointer(rebasing: line[first...])).map { first + $0 }
    }

    /// `extract`'s JSON lines: `line` starts at the `{`, `offset` bytes into the input line.
    private static func extractJSON(
        _ line: UnsafeRawBufferPointer, startingAt offset: Int, lineNumber: Int, scratch: ByteBuffer,
        into records: inout [TweetRecord]
    ) {
        var fields = TweetFields()
        do {
            _ = try JSONScanner.scanDocument(line, context: TweetFields.Context.tweet, visitor: &fields)
        } catch {
            records.append(TweetRecord(line: lineNumber, problem: .malformedJSON(error.shifted(by: offset))))
            return
        }
        if fields.hasText {
            records.append(fields.record(line: lineNumber, index: -1, bytes: line, scratch: scratch))
            return
        }
        if let data = fields.data, data.kind == .array {
            let elements: [JSONSpan]
            do { elements = try JSONScanner.elements(of: data, in: line) } catch {
                records.append(TweetRecord(line: lineNumber, problem: .malformedJSON(error.shifted(by: offset))))
                return
            }
            guard !elements.isEmpty else {
                records.append(fields.errors != nil
                    ? apiError(fields, lineNumber, line, scratch)
                    : TweetRecord(line: lineNumber, problem: .emptyPage))
                return
            }
            appendTweets(elements, notAnObject: .notAnObject, line: line, lineNumber: lineNumber, scratch: scratch,
                         into: &records)
            return
        }
        if let data = fields.data, data.kind == .object {
            var tweet = TweetFields()
            try? JSONScanner.scanObject(data, in: line, context: TweetFields.Context.tweet, visitor: &tweet)
            records.append(tweet.record(line: lineNumber, index: -1, bytes: line, scratch: scratch))
            return
        }
        if fields.errors != nil {
            records.append(apiError(fields, lineNumber, line, scratch))
            return
        }
        // A v2 timeline or search that found no tweets leaves `data` out: {"meta":{"result_count":0}}.
        if fields.isPageWithoutTweets(in: line) {
            records.append(TweetRecord(line: lineNumber, problem: .emptyPage))
            return
        }
        records.append(fields.record(line: lineNumber, index: -1, bytes: line, scratch: scratch))
    }

    /// Whether the `[` at `offset` of `line` opens an array of tweets: the next
    /// character but spaces and tabs is `{` or `]`. A plain text that starts
    /// with a bracket ("[VIDEO] …", "[1/3] …") does not.
    private static func startsArrayOfObjects(_ line: UnsafeRawBufferPointer, at offset: Int) -> Bool {
        guard let next = firstNonBlank(UnsafeRawBufferPointer(rebasing: line[(offset + 1)...])) else { return false }
        let byte = line[offset + 1 + next]
        return byte == UInt8(ascii: "{") || byte == UInt8(ascii: "]")
    }

    /// `extract`'s arrays of tweets: `line` starts at the `[`, `offset` bytes into the input line.
    private static func extractArray(
        _ line: UnsafeRawBufferPointer, startingAt offset: Int, lineNumber: Int, scratch: ByteBuffer,
        into records: inout [TweetRecord]
    ) {
        var ignored = JSONIgnoringVisitor()
        let elements: [JSONSpan]
        do {
            let array = try JSONScanner.scanDocument(line, context: nil, visitor: &ignored)
            elements = try JSONScanner.elements(of: array, in: line)
        } catch {
            records.append(TweetRecord(line: lineNumber, problem: .malformedJSON(error.shifted(by: offset))))
            return
        }
        guard !elements.isEmpty else {
            records.append(TweetRecord(line: lineNumber, problem: .emptyArray))
            return
        }
        appendTweets(elements, notAnObject: .arrayElementNotAnObject, line: line, lineNumber: lineNumber,
                     scratch: scratch, into: &records)
    }

    /// One record per element of a page's `data` or of an array of tweets, each
    /// with its index: the tweet's, or `notAnObject` for an element that is no object.
    private static func appendTweets(
        _ elements: [JSONSpan], notAnObject: RecordProblem, line: UnsafeRawBufferPointer, lineNumber: Int,
        scratch: ByteBuffer, into records: inout [TweetRecord]
    ) {
        for (index, element) in elements.enumerated() {
            guard element.kind == .object else {
                var record = TweetRecord(line: lineNumber, problem: notAnObject)
                record.index = index
                records.append(record)
                continue
            }
            var tweet = TweetFields()
            try? JSONScanner.scanObject(element, in: line, context: TweetFields.Context.tweet, visitor: &tweet)
            records.append(tweet.record(line: lineNumber, index: index, bytes: line, scratch: scratch))
        }
    }

    /// The offset of the first byte that is not a space or a tab.
    @inline(__always)
    private static func firstNonBlank(_ line: UnsafeRawBufferPointer) -> Int? {
        var i = 0
        while i < line.count {
            let byte = line[i]
            if byte != UInt8(ascii: " ") && byte != UInt8(ascii: "\t") { return i }
            i += 1
        }
        return nil
    }

    /// An `apiError` record with the first error's `detail`, `message` or
    /// `title` from a response's `errors` array.
    private static func apiError(
        _ fields: TweetFields, _ lineNumber: Int, _ line: UnsafeRawBufferPointer, _ scratch: ByteBuffer
    ) -> TweetRecord {
        var record = TweetRecord(line: lineNumber, problem: .apiError)
        guard let errors = fields.errors, errors.kind == .array,
              let first = try? JSONScanner.elements(of: errors, in: line).first, first.kind == .object
        else { return record }
        var error = TweetFields()
        try? JSONScanner.scanObject(first, in: line, context: TweetFields.Context.apiError, visitor: &error)
        let chosen = error.errorDetail?.kind == .string ? error.errorDetail : error.errorMessage
        if let message = chosen, message.kind == .string {
            record.message = TweetFields.ref(message, line, scratch)
        }
        return record
    }
}

// MARK: - The fields of a tweet

/// The members of a tweet object that `TweetRecord` reads, found by one
/// `JSONScanner` pass.
struct TweetFields: JSONMemberVisitor {
    /// Where in a tweet the scanner is.
    enum Context {
        static let tweet: UInt8 = 0
        static let extendedTweet: UInt8 = 1
        static let retweet: UInt8 = 2
        static let retweetExtendedTweet: UInt8 = 3
        static let user: UInt8 = 4
        static let noteTweet: UInt8 = 5
        static let apiError: UInt8 = 6
        /// The top level of a line cut at the length limit: a tweet, whose
        /// `data`, when an object (a v2 single tweet), is read as a tweet too,
        /// since its end, and so its span, is past the cut.
        static let cutTweet: UInt8 = 7
        /// A v2 response's `meta`.
        static let meta: UInt8 = 8
    }

    /// Which field a captured span is.
    enum Slot {
        static let text: UInt8 = 0
        static let fullText: UInt8 = 1
        static let extendedFullText: UInt8 = 2
        static let noteText: UInt8 = 3
        static let retweetText: UInt8 = 4
        static let retweetFullText: UInt8 = 5
        static let retweetExtendedFullText: UInt8 = 6
        static let idString: UInt8 = 7
        static let id: UInt8 = 8
        static let authorID: UInt8 = 9
        static let screenName: UInt8 = 10
        static let data: UInt8 = 11
        static let errors: UInt8 = 12
        static let errorMessage: UInt8 = 13
        static let errorDetail: UInt8 = 14
        static let meta: UInt8 = 15
        static let resultCount: UInt8 = 16
    }

    var text: JSONSpan?
    var fullText: JSONSpan?
    var extendedFullText: JSONSpan?
    var noteText: JSONSpan?
    var retweetText: JSONSpan?
    var retweetFullText: JSONSpan?
    var retweetExtendedFullText: JSONSpan?
    var idString: JSONSpan?
    var id: JSONSpan?
    var authorID: JSONSpan?
    var screenName: JSONSpan?
    var data: JSONSpan?
    var errors: JSONSpan?
    var errorMessage: JSONSpan?
    var errorDetail: JSONSpan?
    /// A v2 response's `meta` (`result_count`, `next_token`), which a page with no tweets has alone.
    var meta: JSONSpan?
    /// `meta.result_count`, when `meta` was read in its own context.
    var resultCount: JSONSpan?

    func action(forKey key: UnsafeRawBufferPointer, in context: UInt8) -> JSONMemberAction {
        if context == Context.cutTweet {
            return Self.key(key, is: "data") ? .descend(Context.tweet) : action(forKey: key, in: Context.tweet)
        }
        switch context {
        case Context.tweet:
            switch key.count {
            case 2: if Self.key(key, is: "id") { return .capture(Slot.id) }
            case 4:
                if Self.key(key, is: "text") { return .capture(Slot.text) }
                if Self.key(key, is: "user") { return .descend(Context.user) }
                if Self.key(key, is: "data") { return .capture(Slot.data) }
                if Self.key(key, is: "meta") { return .capture(Slot.meta) }
            case 6:
                if Self.key(key, is: "id_str") { return .capture(Slot.idString) }
                if Self.key(key, is: "errors") { return .capture(Slot.errors) }
            case 9:
                if Self.key(key, is: "full_text") { return .capture(Slot.fullText) }
                if Self.key(key, is: "author_id") { return .capture(Slot.authorID) }
            case 10: if Self.key(key, is: "note_tweet") { return .descend(Context.noteTweet) }
            case 14: if Self.key(key, is: "extended_tweet") { return .descend(Context.extendedTweet) }
            case 16: if Self.key(key, is: "retweeted_status") { return .descend(Context.retweet) }
            default: break
            }
        case Context.extendedTweet:
            if Self.key(key, is: "full_text") { return .capture(Slot.extendedFullText) }
        case Context.retweet:
            if Self.key(key, is: "text") { return .capture(Slot.retweetText) }
            if Self.key(key, is: "full_text") { return .capture(Slot.retweetFullText) }
            if Self.key(key, is: "extended_tweet") { return .descend(Context.retweetExtendedTweet) }
        case Context.retweetExtendedTweet:
            if Self.key(key, is: "full_text") { return .capture(Slot.retweetExtendedFullText) }
        case Context.user:
            if Self.key(key, is: "screen_name") { return .capture(Slot.screenName) }
        case Context.noteTweet:
            if Self.key(key, is: "text") { return .capture(Slot.noteText) }
        case Context.meta:
            if Self.key(key, is: "result_count") { return .capture(Slot.resultCount) }
        case Context.apiError:
            if Self.key(key, is: "detail") { return .capture(Slot.errorDetail) }
            if Self.key(key, is: "message") || Self.key(key, is: "title") { return .capture(Slot.errorMessage) }
        default: break
        }
        return .skip
    }

    mutating func capture(_ span: JSONSpan, slot: UInt8) {
        switch slot {
        case Slot.text: text = span
        case Slot.fullText: fullText = span
        case Slot.extendedFullText: extendedFullText = span
        case Slot.noteText: noteText = span
        case Slot.retweetText: retweetText = span
        case Slot.retweetFullText: retweetFullText = span
        case Slot.retweetExtendedFullText: retweetExtendedFullText = span
        case Slot.idString: idString = span
        case Slot.id: id = span
        case Slot.authorID: authorID = span
        case Slot.screenName: screenName = span
        case Slot.data: data = span
        case Slot.errors: errors = span
        case Slot.errorMessage: if errorMessage?.kind != .string { errorMessage = span }
        case Slot.errorDetail: errorDetail = span
        case Slot.meta: meta = span
        case Slot.resultCount: resultCount = span
        default: break
        }
    }

    @inline(__always)
    private static func key(_ key: UnsafeRawBufferPointer, is name: StaticString) -> Bool {
        guard key.count == name.utf8CodeUnitCount else { return false }
        let expected = name.utf8Start
        for i in 0..<key.count where key[i] != expected[i] { return false }
        return true
    }

    /// The fields that can hold the text, in the order they are tried.
    private static let textFields = TextField.allCases

    /// What was captured for `field`.
    @inline(__always)
    private func span(_ field: TextField) -> JSONSpan? {
        switch field {
        case .retweetExtendedFullText: retweetExtendedFullText
        case .retweetFullText: retweetFullText
        case .retweetText: retweetText
        case .extendedFullText: extendedFullText
        case .fullText: fullText
        case .noteText: noteText
        case .text: text
        }
    }

    /// The text to classify, by the precedence in `TweetRecord`'s documentation:
    /// the first of `TextField`'s fields that is a string.
    var chosenText: JSONSpan? {
        for field in Self.textFields {
            if let span = span(field), span.kind == .string { return span }
        }
        return nil
    }

    var hasText: Bool { chosenText != nil }

    /// A v2 response that found no tweets: `meta.result_count` 0, `data`
    /// absent or null (the API leaves it out of such a page), and nothing of a
    /// tweet (no text field, no id). `line` holds the spans.
    func isPageWithoutTweets(in line: UnsafeRawBufferPointer) -> Bool {
        guard let meta, meta.kind == .object, data == nil || data?.kind == .null,
              Self.textFields.allSatisfy({ span($0) == nil }), idString == nil, id == nil, authorID == nil, screenName == nil
        else { return false }
        var fields = TweetFields()
        guard (try? JSONScanner.scanObject(meta, in: line, context: Context.meta, visitor: &fields)) != nil,
              let count = fields.resultCount, count.kind == .number
        else { return false }
        return count.end - count.start == 1 && line[count.start] == UInt8(ascii: "0")
    }

    /// When no text field is a string: the first, in the same order, that
    /// holds something other than a string or null; else the first that is
    /// null (null counts as absent, but names the field the text was missing from).
    var misplacedText: (field: TextField, kind: JSONSpan.Kind)? {
        for field in Self.textFields {
            if let span = span(field), span.kind != .null, span.kind != .string { return (field, span.kind) }
        }
        for field in Self.textFields {
            if let span = span(field), span.kind == .null { return (field, .null) }
        }
        return nil
    }

    /// The record for these fields: the text and identifiers decoded, or
    /// `noTextField` / `emptyText`.
    func record(line: Int, index: Int, bytes: UnsafeRawBufferPointer, scratch: ByteBuffer) -> TweetRecord {
        var record = TweetRecord(line: line, index: index)
        identify(&record, bytes: bytes, scratch: scratch)
        guard let text = chosenText else {
            record.problem = misplacedText.map {
                $0.kind == .null ? .textIsNull(field: $0.field) : .textNotAString(field: $0.field, kind: $0.kind)
            } ?? .noTextField
            return record
        }
        record.text = Self.ref(text, bytes, scratch, loneSurrogate: &record.loneSurrogate)
        let resolved = record.text.resolve(scratch: scratch)!
        if BlankText.isBlank(utf8: resolved) {
            record.problem = .emptyText
            record.text = .absent
        } else if !UTF8Validation.isValid(resolved) {
            record.invalidUTF8 = true
        }
        return record
    }

    /// Sets `record`'s id (`id_str` > `id`, a string or a number), user
    /// (a string) and author id (a string or a number) from these fields,
    /// leaving out any value that does not end before `end`.
    func identify(_ record: inout TweetRecord, bytes: UnsafeRawBufferPointer, scratch: ByteBuffer, endingBefore end: Int = .max) {
        @inline(__always)
        func usable(_ span: JSONSpan?, numbers: Bool = true) -> JSONSpan? {
            guard let span, span.end < end, span.kind == .string || (numbers && span.kind == .number) else { return nil }
            return span
        }
        var loneSurrogate = false
        if let span = usable(idString) ?? usable(id) { record.id = Self.ref(span, bytes, scratch, loneSurrogate: &loneSurrogate) }
        if let span = usable(screenName, numbers: false) {
            record.user = Self.ref(span, bytes, scratch, loneSurrogate: &loneSurrogate)
        }
        if let span = usable(authorID) { record.authorID = Self.ref(span, bytes, scratch, loneSurrogate: &loneSurrogate) }
        // Shown with U+FFFD as the text is, and flagged alike, in error records too:
        // those are the ones a reader has to match back to their tweets.
        if loneSurrogate { record.loneSurrogate = true }
        if [record.id, record.user, record.authorID].contains(where: {
            $0.resolve(scratch: scratch).map { !UTF8Validation.isValid($0) } ?? false
        }) {
            record.invalidUTF8 = true
        }
    }

    /// A field's bytes: in the line when it has no escapes, else decoded into `scratch`.
    static func ref(_ span: JSONSpan, _ bytes: UnsafeRawBufferPointer, _ scratch: ByteBuffer) -> ByteRef {
        var loneSurrogate = false
        return ref(span, bytes, scratch, loneSurrogate: &loneSurrogate)
    }

    /// A field's bytes, as `ref(_:_:_:)` gives them; `loneSurrogate` is set when
    /// a lone surrogate escape was read as U+FFFD.
    static func ref(_ span: JSONSpan, _ bytes: UnsafeRawBufferPointer, _ scratch: ByteBuffer,
                    loneSurrogate: inout Bool) -> ByteRef {
        guard span.hasEscapes else {
            return ByteRef(pointer: bytes.baseAddress! + span.start, offset: 0, count: span.end - span.start)
        }
        let offset = scratch.count
        if JSONScanner.decodeString(span, in: bytes, into: scratch) { loneSurrogate = true }
        return ByteRef(pointer: nil, offset: offset, count: scratch.count - offset)
    }
}

extension TweetRecord {
    /// The output's `error`, or nil when the record can be classified.
    func errorMessage(scratch: ByteBuffer) -> String? {
        guard let problem else { return nil }
        guard let message = message.resolve(scratch: scratch) else { return problem.description }
        return "\(problem): \(String(decoding: message, as: UTF8.self))"
    }
}

// MARK: - For tests and debugging

extension TweetRecord {
    /// A record with its fields as `String`s.
    struct Decoded: Equatable, CustomStringConvertible {
        var line: Int
        var index: Int?
        var text: String?
        var id: String?
        var user: String?
        var authorID: String?
        var error: String?
        var invalidUTF8 = false
        var nulBytes = false
        var loneSurrogate = false

        var description: String {
            var parts = ["line \(line)"]
            if let index { parts.append("index \(index)") }
            if let id { parts.append("id \(id)") }
            if let user { parts.append("user \(user)") }
            if let authorID { parts.append("author_id \(authorID)") }
            if let text { parts.append("text \(text.debugDescription)") }
            if let error { parts.append("error \(error.debugDescription)") }
            if invalidUTF8 { parts.append("invalid UTF-8") }
            if nulBytes { parts.append("NUL bytes") }
            if loneSurrogate { parts.append("lone surrogate") }
            return parts.joined(separator: ", ")
        }
    }

    /// The records of one line, decoded. Slow; for tests.
    static func decoded(line: [UInt8], lineNumber: Int = 1) -> [Decoded] {
        let scratch = ByteBuffer()
        var records: [TweetRecord] = []
        return line.withUnsafeBytes { bytes in
            extract(line: bytes, lineNumber: lineNumber, scratch: scratch, into: &records)
            func string(_ ref: ByteRef) -> String? {
                ref.resolve(scratch: scratch).map { String(decoding: $0, as: UTF8.self) }
            }
            return records.map { record in
                Decoded(
                    line: record.line, index: record.index >= 0 ? record.index : nil,
                    text: string(record.text), id: string(record.id), user: string(record.user),
                    authorID: string(record.authorID), error: record.errorMessage(scratch: scratch),
                    invalidUTF8: record.invalidUTF8, nulBytes: record.nulBytes, loneSurrogate: record.loneSurrogate)
            }
        }
    }

    /// The records of one line given as a string, decoded. Slow; for tests.
    static func decoded(_ line: String, lineNumber: Int = 1) -> [Decoded] {
        decoded(line: Array(line.utf8), lineNumber: lineNumber)
    }
}
