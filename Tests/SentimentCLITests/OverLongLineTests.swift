import Testing

/// A line over the length limit is one error record, and keeps the id, user
/// and author id that its first bytes hold, so it can be matched to its tweet.
/// These run the reader's source directly (see `Linked/`).
@Suite("Over-long lines")
struct OverLongLineTests {
    /// The id, user and author id of the error record made from `prefix`.
    private func fields(_ prefix: String) -> (id: String?, user: String?, authorID: String?, error: String?) {
        let scratch = ByteBuffer()
        let bytes = Array(prefix.utf8)
        return bytes.withUnsafeBytes { raw in
            let record = TweetRecord.tooLong(prefix: raw, lineNumber: 3, limit: 100, scratch: scratch)
            func string(_ ref: ByteRef) -> String? {
                ref.resolve(scratch: scratch).map { String(decoding: $0, as: UTF8.self) }
            }
            return (string(record.id), string(record.user), string(record.authorID), record.errorMessage(scratch: scratch))
        }
    }

    @Test("The fields read before the cut are kept, escapes decoded, and the error says the line was too long", arguments: [
        (#"{"id_str":"42","user":{"screen_name":"bob"},"text":"aaaa"#, "42", "bob", nil),
        (#"{"id":1234567890123456789,"author_id":"7","text":"aaaa"#, "1234567890123456789", nil, "7"),
        (#"  {"id":"a\"b","text":"aaaa"#, "a\"b", nil, nil),
        ("\u{FEFF}{\"id\":\"9\",\"text\":\"aaaa", "9", nil, nil),
        // A v2 single tweet: its fields are inside "data", which the cut leaves open.
        (#"{"data":{"id":"7","author_id":"8","text":"aaaa"#, "7", nil, "8"),
        (#"{"includes":{"users":[]},"data":{"id":"7","text":"aaaa"#, "7", nil, nil),
    ] as [(String, String?, String?, String?)])
    func keptFields(prefix: String, id: String?, user: String?, authorID: String?) {
        let found = fields(prefix)
        #expect(found.id == id)
        #expect(found.user == user)
        #expect(found.authorID == authorID)
        #expect(found.error == "line longer than 100 bytes")
    }

    @Test("A value cut by the limit, plain text and fields after the cut give no id", arguments: [
        #"{"text":"aaaa","id":12345"#,  // a number that may go on past the cut
        #"{"text":"aaaa","id":"12"#,  // a string without its end
        #"{"text":"aaaaaaaa"#,  // the id after the cut
        #"I love this so much, and the id is "id":"5""#,  // plain text
        #"{"data":[{"id":"1","text":"aaaa"#,  // a page: its tweets' ids are inside
        #"{"data":{"text":"aaaa","id":"12"#,  // a single tweet whose id is cut
        #"{"retweeted_status":{"id":"8","text":"aaaa"#,  // the retweeted tweet's id is not the retweet's
    ])
    func noID(prefix: String) {
        #expect(fields(prefix).id == nil)
    }
}
