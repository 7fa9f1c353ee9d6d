import Foundation
import Testing
@testable import Tweets

@Suite("Archive parser")
struct ArchiveParserTests {
    static func entry(_ id: String, _ text: String, _ date: String = "Wed Oct 10 20:19:24 +0000 2018") -> String {
        """
          {
            "tweet" : {
              "retweeted" : false,
              "entities" : { "hashtags" : [ ], "user_mentions" : [ { "name" : "X", "id_str" : "1" } ] },
              "id_str" : "\(id)",
              "id" : "\(id)",
              "created_at" : "\(date)",
              "full_text" : "\(text)",
              "lang" : "en"
            }
          }
        """
    }

    // MARK: - Archive folders

    @Test("An archive folder reads the owner, tweets.js and its parts; malformed entries are reported and skipped")
    func archiveFolder() async throws {
        try await withTemporaryDirectory { directory async throws in
            try directory.write("archive/data/account.js", """
                window.YTD.account.part0 = [ { "account" : { "email" : "a@example.com", "username" : "sunny",
                  "accountId" : "42", "createdAt" : "2015-01-01T00:00:00.000Z", "accountDisplayName" : "Sunny D" } } ]
                """)
            try directory.write("archive/data/profile.js", """
                window.YTD.profile.part0 = [ { "profile" : { "description" : { "bio" : "Made up", "website" : "" },
                  "avatarMediaUrl" : "https://example.com/a.png" } } ]
                """)
            try directory.write("archive/data/tweets.js", "window.YTD.tweets.part0 = [\n"
                + [Self.entry("1001", "I love mornings &amp; tea"), Self.entry("1002", "no date", "yesterday"),
                   Self.entry("1003", "a plain note")].joined(separator: ",\n") + "\n]")
            // Part 1: entry 2 lacks a closing brace, entry 3 is not JSON at all.
            let broken = Self.entry("2002", "broken").replacingOccurrences(of: "\"lang\" : \"en\"\n    }", with: "\"lang\" : \"en\"\n")
            try directory.write("archive/data/tweets-part1.js", "window.YTD.tweets.part1 = [\n"
                + [Self.entry("2001", "part one tweet"), broken, "  {\"tweet\" : {\"id_str\": \"2003\", \"full_text\" oops}}",
                   Self.entry("2004", "after the damage")].joined(separator: ",\n") + "\n]")

            let contents = try ArchiveParser.load(from: directory.url.appendingPathComponent("archive"))
            #expect(contents.users.map(\.username) == ["sunny"])
            #expect(contents.users.first?.description == "Made up")
            #expect(Set(contents.tweets.map(\.id)) == ["1001", "1003", "2001", "2004"])
            #expect(contents.tweets.allSatisfy { $0.authorID == "42" })
            #expect(contents.tweets.first { $0.id == "1001" }?.text == "I love mornings & tea")
            #expect(contents.issues.map(\.description) == [
                "data/tweets.js, entry 2: tweet 1002: invalid created_at",
                "data/tweets-part1.js, entry 2: unterminated entry",
                "data/tweets-part1.js, entry 3: invalid JSON",
            ])
        }
    }

    @Test("A tweet one part repeats from another is kept once; a changed repeat is reported with both places")
    func repeatsAcrossParts() async throws {
        try await withTemporaryDirectory { directory async throws in
            try directory.write("archive/data/tweets.js", "window.YTD.tweets.part0 = [\n"
                + [Self.entry("1001", "first"), Self.entry("1002", "second")].joined(separator: ",\n") + "\n]")
            try directory.write("archive/data/tweets-part1.js", "window.YTD.tweets.part1 = [\n"
                + [Self.entry("1002", "second"), Self.entry("1001", "first, edited"), Self.entry("1003", "third"),
                   Self.entry("1003", "third again")].joined(separator: ",\n") + "\n]")
            let contents = try ArchiveParser.load(from: directory.url.appendingPathComponent("archive"))
            #expect(contents.tweets.map(\.id).sorted() == ["1001", "1002", "1003"])
            #expect(contents.tweets.first { $0.id == "1001" }?.text == "first")
            #expect(contents.repeatedTweets == 3)
            #expect(contents.issues.map(\.description) == [
                "data/tweets-part1.js, entry 2: tweet 1001 repeats data/tweets.js, entry 1 with another text, author or date; the first is kept",
                "data/tweets-part1.js, entry 4: tweet 1003 repeats entry 3 with another text, author or date; the first is kept",
            ])
        }
    }

    @Test("An account.js that names no account is reported, and the tweets are still read", arguments: [
        "window.YTD.account.part0 = []",
        "window.YTD.account.part0 = [ { \"account\" : { \"username\" : \"sunny\" } } ]",
        "window.YTD.account.part0 = [ { \"account\" : { \"accountId\" : \"42\", \"username\" : \"\" } } ]",
        "window.YTD.account.part0 = [ { \"acc",
    ])
    func malformedAccount(account: String) async throws {
        try await withTemporaryDirectory { directory async throws in
            try directory.write("archive/data/account.js", account)
            try directory.write("archive/data/tweets.js", "window.YTD.tweets.part0 = [\n" + Self.entry("1001", "hello") + "\n]")
            let contents = try ArchiveParser.load(from: directory.url.appendingPathComponent("archive"))
            #expect(contents.tweets.map(\.id) == ["1001"])
            #expect(contents.users.isEmpty)
            #expect(contents.issues.map(\.description) == [
                "data/account.js, entry 1: no account with an accountId and a username: the archive's owner is unknown",
            ])
        }
    }

    @Test("An account.js whose username is not one is reported, and names no owner")
    func accountWithInvalidUsername() async throws {
        try await withTemporaryDirectory { directory async throws in
            try directory.write("archive/data/account.js", """
                window.YTD.account.part0 = [ { "account" : { "accountId" : "42", "username" : "sunny-d" } } ]
                """)
            try directory.write("archive/data/tweets.js", "window.YTD.tweets.part0 = [\n" + Self.entry("1001", "hello") + "\n]")
            let contents = try ArchiveParser.load(from: directory.url.appendingPathComponent("archive"))
            #expect(contents.tweets.map(\.authorID) == [""])
            #expect(contents.users.isEmpty)
            #expect(contents.issues.map(\.description) == [
                #"data/account.js, entry 1: account 42: "sunny-d" is not a username (1 to 50 letters, digits or _): the archive's owner is unknown"#,
            ])
        }
    }

    @Test("An older tweet.js without the tweet wrapper is read")
    func olderArchive() async throws {
        try await withTemporaryDirectory { directory async throws in
            try directory.write("old/data/tweet.js", """
                window.YTD.tweet.part0 = [ {
                  "id_str" : "11", "full_text" : "old style", "created_at" : "Mon Jan 05 10:00:00 +0000 2015"
                }, {
                  "id_str" : "12", "full_text" : "older style", "created_at" : "Sun Jan 04 10:00:00 +0000 2015"
                } ]
                """)
            let contents = try ArchiveParser.load(from: directory.url.appendingPathComponent("old"))
            #expect(contents.tweets.map(\.id) == ["11", "12"])
            #expect(contents.tweets.allSatisfy { $0.authorID.isEmpty })
            #expect(contents.owner(username: "@Old")?.id == "local:old")
        }
    }

    @Test("A truncated archive file keeps every complete entry")
    func truncated() {
        let text = "window.YTD.tweets.part0 = [\n" + Self.entry("1", "one") + ",\n" + Self.entry("2", "two") + ",\n"
            + String(Self.entry("3", "three").prefix(80))
        let contents = ArchiveParser.parse(Data(text.utf8), file: "tweets.js")
        #expect(contents.tweets.map(\.id) == ["2", "1"])
        #expect(contents.issues.map(\.position) == ["entry 3"])
    }

    @Test("An archive file cut short between two entries, or before the first, keeps every whole entry and reports the missing ']' where the file ends")
    func cutShortBetweenEntries() {
        let whole = "window.YTD.tweets.part0 = [\n" + Self.entry("1", "one") + ",\n" + Self.entry("2", "two")
        for cut in [whole + ",\n", whole + "\n", whole] {
            let contents = ArchiveParser.parse(Data(cut.utf8), file: "tweets.js")
            #expect(contents.tweets.map(\.id) == ["2", "1"])
            #expect(contents.issues.map(\.description) == [
                "tweets.js, entry 3: the file ends here, before the array's closing ']': it was cut short, and any entries after entry 2 are missing",
            ])
        }
        for cut in ["window.YTD.tweets.part0 = [", "window.YTD.tweets.part0 = [\n  ", "[\n"] {
            let contents = ArchiveParser.parse(Data(cut.utf8), file: "tweets.js")
            #expect(contents.tweets.isEmpty)
            #expect(contents.issues.map(\.description) == [
                "tweets.js, entry 1: the file ends before the array's closing ']', with no entry: it was cut short",
            ], "\(cut)")
        }
        // Whole arrays, empty or not, and a file cut inside an entry (which that entry's issue reports) say nothing more.
        #expect(ArchiveParser.parse(Data((whole + "\n]\n").utf8), file: "tweets.js").issues.isEmpty)
        #expect(ArchiveParser.parse(Data("window.YTD.tweets.part0 = [ ]".utf8), file: "tweets.js").issues.isEmpty)
        let inside = ArchiveParser.parse(Data(String((whole + ",\n" + Self.entry("3", "three")).dropLast(20)).utf8), file: "tweets.js")
        #expect(inside.issues.map(\.description) == ["tweets.js, entry 3: unterminated entry"])
    }

    @Test("One damaged archive entry costs only itself, whichever of its bytes is lost or doubled")
    func oneDamagedEntryCostsOnlyItself() {
        let entries = (1...4).map { Self.entry("10\($0)", #"tweet \#($0) {in braces} [and brackets] \"quoted\""#) }
        let damaged = Array(entries[1].utf8)
        var failures: [String] = []
        for position in damaged.indices {
            for doubled in [false, true] {
                var bytes = damaged
                if doubled { bytes.insert(bytes[position], at: position) } else { bytes.remove(at: position) }
                var parts = entries
                parts[1] = String(decoding: bytes, as: UTF8.self)
                let text = "window.YTD.tweets.part0 = [\n" + parts.joined(separator: ",\n") + "\n]"
                let contents = ArchiveParser.parse(Data(text.utf8), file: "tweets.js")
                let ids = Set(contents.tweets.map(\.id))
                let others: Set = ["101", "103", "104"]
                // Entry 2 is kept (under a damaged id, if its digits were hit) or reported.
                let kept = ids.subtracting(others).count == 1
                let reported = contents.issues.contains { $0.position == "entry 2" }
                if !ids.isSuperset(of: others) || !(kept || reported) {
                    failures.append("\(doubled ? "doubled" : "lost") byte \(position): kept \(ids.sorted()), issues \(contents.issues.map(\.description))")
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.count) damages lost more than entry 2, e.g. \(failures.prefix(3))")
    }

    @Test("A damaged or cut v1.1 tweet that quotes or retweets another costs only itself: the tweet inside it is not read as one of the array's", arguments: [
        #"{"created_at":"Wed Oct 10 20:20:24 +0000 2018","id_str":"902","full_text":"bad \q escape","quoted_status":{"created_at":"Wed Oct 10 19:00:00 +0000 2018","id_str":"850","full_text":"someone else's"},"lang":"en"}"#,
        #"{"created_at":"Wed Oct 10 20:20:24 +0000 2018","id_str":"902","full_text":"cut","retweeted_status":{"created_at":"Wed Oct 10 19:00:00 +0000 2018","id_str":"850","full_text":"someone else's"},"lang":"en","#,
    ])
    func embeddedTweetOfADamagedEntryIsNotAnEntry(damaged: String) {
        let first = #"{"created_at":"Wed Oct 10 20:19:24 +0000 2018","id_str":"901","full_text":"first fine tweet"}"#
        let last = #"{"created_at":"Wed Oct 10 20:21:24 +0000 2018","id_str":"903","full_text":"third fine tweet"}"#
        let contents = ArchiveParser.parse(Data("[\n\(first),\n\(damaged)\n\(damaged.hasSuffix(",") ? "" : ",")\(last)\n]".utf8),
                                           file: "tweets.json")
        #expect(contents.tweets.map(\.id).sorted() == ["901", "903"])
        #expect(contents.issues.map(\.position) == ["entry 2"], "\(contents.issues.map(\.description))")
    }

    @Test("A folder without tweet files is an error; a missing path too")
    func folderErrors() async throws {
        try await withTemporaryDirectory { directory async throws in
            try directory.write("empty/data/account.js", "window.YTD.account.part0 = []")
            #expect(throws: ArchiveError.self) { try ArchiveParser.load(from: directory.url.appendingPathComponent("empty")) }
            #expect(throws: ArchiveError.notFound(directory.path("nope"))) {
                try ArchiveParser.load(from: directory.url.appendingPathComponent("nope"))
            }
        }
    }

    // MARK: - Dumps

    @Test("JSON Lines of v1.1 tweets, with a bad line reported by number")
    func jsonLinesV1() {
        let text = """
            {"id_str":"5","full_text":"v1 &lt;3","created_at":"Wed Oct 10 20:19:24 +0000 2018","lang":"en","user":{"id_str":"9","screen_name":"nine","name":"Nine"}}
            {"id":6,"text":"numeric id","created_at":"Wed Oct 10 20:20:24 +0000 2018","user":{"id_str":"9","screen_name":"nine"}}
            {"id_str":"7","full_text":"no closing brace"

            {"id_str":"8","created_at":"Wed Oct 10 20:20:24 +0000 2018"}
            """
        let contents = ArchiveParser.parse(Data(text.utf8), file: "dump.jsonl")
        #expect(contents.tweets.map(\.id) == ["6", "5"])
        #expect(contents.tweets.last?.text == "v1 <3")
        #expect(contents.users.map(\.username) == ["nine"])
        #expect(contents.tweets.allSatisfy { $0.authorID == "9" })
        #expect(contents.issues.map(\.description) == [
            "dump.jsonl, line 3: invalid JSON", "dump.jsonl, line 5: tweet 8: missing text",
        ])
    }

    @Test("A file in UTF-16 with a byte order mark (Windows Notepad's \"Unicode\") is read whole, little- or big-endian", arguments: [true, false])
    func utf16WithByteOrderMarkIsRead(littleEndian: Bool) {
        let text = #"{"id_str":"5","full_text":"café 😀","created_at":"Wed Oct 10 20:19:24 +0000 2018","user":{"id_str":"9","screen_name":"nine"}}"#
            + "\r\n" + #"{"id_str":"6","full_text":"second","created_at":"Wed Oct 10 20:20:24 +0000 2018","user":{"id_str":"9","screen_name":"nine"}}"#
        var data = Data(littleEndian ? [0xFF, 0xFE] : [0xFE, 0xFF])
        for unit in text.utf16 {
            data += littleEndian ? [UInt8(unit & 0xFF), UInt8(unit >> 8)] : [UInt8(unit >> 8), UInt8(unit & 0xFF)]
        }
        let contents = ArchiveParser.parse(data, file: "dump.jsonl")
        #expect(contents.issues.isEmpty, "\(contents.issues)")
        #expect(contents.tweets.map(\.id) == ["6", "5"])
        #expect(contents.tweets.last?.text == "café 😀")
    }

    @Test("An emoji cut in half (a lone surrogate escape) reads as U+FFFD, in JSON Lines and in an archive file, not as a malformed entry")
    func loneSurrogateIsKept() {
        let line = #"{"id_str":"5","full_text":"so happy \ud83d","created_at":"Wed Oct 10 20:19:24 +0000 2018","lang":"en"}"#
        let lines = ArchiveParser.parse(Data((line + "\n").utf8), file: "dump.jsonl")
        #expect(lines.issues.isEmpty, "\(lines.issues)")
        #expect(lines.tweets.map(\.text) == ["so happy \u{FFFD}"])

        let archive = "window.YTD.tweets.part0 = [\n" + [Self.entry("1", #"cut \ude00 here"#), Self.entry("2", "whole")]
            .joined(separator: ",\n") + "\n]"
        let contents = ArchiveParser.parse(Data(archive.utf8), file: "tweets.js")
        #expect(contents.issues.isEmpty, "\(contents.issues)")
        #expect(contents.tweets.map(\.text).sorted() == ["cut \u{FFFD} here", "whole"])
    }

    @Test("An archive file's array is found after any JavaScript assignment", arguments: [
        "window.YTD.tweets.part0 = ", "Grailbird.data.tweets_2013_01 =\n ", "var tweets=",
    ])
    func assignedArchiveArray(assignment: String) {
        let text = assignment + "[\n" + Self.entry("1", "one") + ",\n" + Self.entry("2", "two") + "\n]"
        let contents = ArchiveParser.parse(Data(text.utf8), file: "tweets.js")
        #expect(contents.tweets.map(\.id) == ["2", "1"])
        #expect(contents.issues.isEmpty)
    }

    @Test("JSON Lines whose first line is not an object keep every later line", arguments: [
        "not json at all",
        #""full_text":"cut off at the front"}"#,
        "null",
        "[1, 2]",
        "[]",
    ])
    func jsonLinesWithBadFirstLine(firstLine: String) {
        let text = firstLine + "\n" + """
            {"id":"1","text":"one","created_at":"2021-10-06T22:38:10.000Z","author_id":"5"}
            {"id":"2","text":"two = three","created_at":"2021-10-06T22:38:11.000Z","author_id":"5"}
            """
        let contents = ArchiveParser.parse(Data(text.utf8), file: "dump.jsonl")
        #expect(contents.tweets.map(\.id) == ["2", "1"])
        #expect(contents.issues.map(\.position) == ["line 1"])
    }

    @Test("A boolean id is a missing id, not tweet 1 or 0", arguments: ["true", "false"])
    func booleanIDIsMissing(value: String) {
        let text = """
            {"id":"1","text":"the real tweet 1","created_at":"2021-10-06T22:38:10.000Z","author_id":"5"}
            {"id":\(value),"text":"a boolean id","created_at":"2021-10-06T22:38:11.000Z","author_id":"5"}
            {"id_str":\(value),"full_text":"a boolean id_str","created_at":"Wed Oct 06 22:38:12 +0000 2021"}
            """
        let contents = ArchiveParser.parse(Data(text.utf8), file: "dump.jsonl")
        #expect(contents.tweets.map(\.text) == ["the real tweet 1"])
        #expect(contents.issues.map(\.description) == ["dump.jsonl, line 2: missing id", "dump.jsonl, line 3: missing id"])
    }

    @Test("An id that is not digits, or has a leading zero, is no tweet's: its entry is reported and skipped, so tweets of a time sort by id as a number")
    func idThatIsNoTweetID() {
        let ids = ["11", "9", "010", "-5", "abc", "1.5", " 7", "0"]
        let text = ids.enumerated().map { line, id in
            #"{"id":"\#(id)","text":"tweet \#(line + 1)","created_at":"2021-10-06T22:38:10.000Z","author_id":"5"}"#
        }.joined(separator: "\n")
        let contents = ArchiveParser.parse(Data(text.utf8), file: "dump.jsonl")
        #expect(Set(contents.tweets.map(\.id)) == ["11", "9", "0"])
        #expect(contents.issues.map(\.description) == [3, 4, 5, 6, 7].map { line in
            "dump.jsonl, line \(line): id \"\(ids[line - 1])\" is not a tweet id (digits, with no leading zero)"
        })
    }

    @Test("A negative integer id is no tweet's or user's id: its entry is skipped as a missing id")
    func negativeIDIsMissing() {
        let text = """
            {"id":-3,"text":"a negative id","created_at":"2021-10-06T22:38:10.000Z","author_id":"5"}
            {"id_str":-4,"full_text":"a negative id_str","created_at":"Wed Oct 06 22:38:12 +0000 2021"}
            {"id":6,"text":"a tweet of a negative author","created_at":"2021-10-06T22:38:11.000Z","author_id":-5}
            {"id":7,"text":"a fine tweet","created_at":"2021-10-06T22:38:13.000Z","author_id":5}
            """
        let contents = ArchiveParser.parse(Data(text.utf8), file: "dump.jsonl")
        #expect(contents.tweets.map(\.id) == ["7", "6"])
        #expect(contents.tweets.map(\.authorID) == ["5", ""], "an author id of -5 is no author")
        #expect(contents.issues.map(\.description) == ["dump.jsonl, line 1: missing id", "dump.jsonl, line 2: missing id"])
    }

    @Test("Valid JSON that is not an object is reported as what it is, not as invalid JSON")
    func nonObjectJSONIsNamed() {
        let text = """
            {"id":"1","text":"the real tweet","created_at":"2021-10-06T22:38:10.000Z","author_id":"5"}
            42
            null
            "text"
            true
            [1, 2]
            {"id": oops}
            """
        let contents = ArchiveParser.parse(Data(text.utf8), file: "dump.jsonl")
        #expect(contents.tweets.map(\.id) == ["1"])
        #expect(contents.issues.map(\.description) == [
            "dump.jsonl, line 2: not a JSON object (a number)",
            "dump.jsonl, line 3: not a JSON object (null)",
            "dump.jsonl, line 4: not a JSON object (a string)",
            "dump.jsonl, line 5: not a JSON object (a boolean)",
            "dump.jsonl, line 6: not a JSON object (an array)",
            "dump.jsonl, line 7: invalid JSON",
        ])
        let nested = ArchiveParser.parse(Data(#"[{"id":"1","text":"t","created_at":"2021-10-06T22:38:10.000Z"}, [3]]"#.utf8),
                                         file: "tweets.js")
        #expect(nested.issues.map(\.description) == ["tweets.js, entry 2: not a JSON object (an array)"])
    }

    @Test("A v1.1 streaming tweet over 140 characters keeps its full text, not the truncated one")
    func extendedTweetKeepsFullText() {
        let full = "Finally finished the marathon training plan, sixteen weeks of early mornings and sore legs. So proud of everyone who ran with me, what a day!"
        let line = #"{"id_str":"9","text":"Finally finished the marathon training plan, sixteen weeks of early mornings and sore legs. So proud of everyone who… https://t.co/abc","truncated":true,"extended_tweet":{"full_text":"\#(full)"},"created_at":"Wed Oct 10 20:19:24 +0000 2018","user":{"id_str":"7","screen_name":"runner"}}"#
        let contents = ArchiveParser.parse(Data(line.utf8), file: "stream.jsonl")
        #expect(contents.tweets.map(\.text) == [full])
        #expect(contents.issues.isEmpty)
    }

    @Test("A v1.1 user with a screen name and no id makes the tweet that user's, under the id another line gives the name")
    func nameOnlyUsers() {
        let text = """
            {"id_str":"5","text":"mine","created_at":"Wed Oct 10 20:19:24 +0000 2018","user":{"screen_name":"Gus"}}
            {"id_str":"6","text":"hers","created_at":"Wed Oct 10 20:20:24 +0000 2018","user":{"screen_name":"rita","name":"Rita"}}
            {"id_str":"7","text":"his again","created_at":"Wed Oct 10 20:21:24 +0000 2018","user":{"id_str":"42","screen_name":"gus"}}
            """
        let contents = ArchiveParser.parse(Data(text.utf8), file: "names.jsonl")
        #expect(contents.users.map(\.id).sorted() == ["42", "local:rita"])
        #expect(contents.tweets.map(\.authorID) == ["42", "local:rita", "42"])
        #expect(contents.user(username: "RITA")?.displayName == "Rita")
        #expect(contents.owner(username: "someone") == nil, "every tweet has its author, so no one else's can be shown as someone's")
        let assigned = contents.assigning(owner: User(id: "local:someone", username: "someone", displayName: "someone"))
        #expect(assigned.tweets.allSatisfy { $0.authorID != "local:someone" })
    }

    @Test("A user whose username is not one is skipped with their tweets, each reported where it is, wherever the user is named")
    func usersWithInvalidUsernamesAreSkipped() {
        let long = String(repeating: "x", count: 57)
        let page = { (tweet: String, author: String, username: String) in
            #"{"data":[{"id":"\#(tweet)","text":"a happy day","created_at":"2024-01-01T00:00:00.000Z","author_id":"\#(author)"}],"#
                + #""includes":{"users":[{"id":"\#(author)","username":"\#(username)","name":"N"}]}}"#
        }
        let text = [
            page("31", "44", "dash-name"),
            page("32", "45", long),
            page("33", "46", ""),
            #"{"id_str":"34","text":"v1","created_at":"Wed Oct 10 20:19:24 +0000 2018","user":{"id_str":"47","screen_name":"a b"}}"#,
            #"{"id":"35","text":"before its author's page","created_at":"2024-01-02T00:00:00.000Z","author_id":"48"}"#,
            #"{"includes":{"users":[{"id":"48","username":"x.y"}]}}"#,
            page("36", "49", "fine_name"),
        ].joined(separator: "\n")
        let contents = ArchiveParser.parse(Data(text.utf8), file: "odd.jsonl")
        #expect(contents.tweets.map(\.id) == ["36"])
        #expect(contents.users.map(\.username) == ["fine_name"])
        let rule = "is not a username (1 to 50 letters, digits or _)"
        #expect(contents.issues.map(\.description) == [
            #"odd.jsonl, line 1 includes.users[0]: user 44: "dash-name" \#(rule)"#,
            #"odd.jsonl, line 1 data[0]: tweet 31: its author, user 44, is skipped ("dash-name" \#(rule))"#,
            #"odd.jsonl, line 2 includes.users[0]: user 45: "\#(long)" \#(rule)"#,
            #"odd.jsonl, line 2 data[0]: tweet 32: its author, user 45, is skipped ("\#(long)" \#(rule))"#,
            #"odd.jsonl, line 3 includes.users[0]: user 46: "" \#(rule)"#,
            #"odd.jsonl, line 3 data[0]: tweet 33: its author, user 46, is skipped ("" \#(rule))"#,
            #"odd.jsonl, line 4: tweet 34: its user's screen_name "a b" \#(rule)"#,
            #"odd.jsonl, line 6 includes.users[0]: user 48: "x.y" \#(rule)"#,
            #"odd.jsonl, line 5: tweet 35: its author, user 48, is skipped ("x.y" \#(rule))"#,
        ])
    }

    @Test("A username that is not one is repeated on one line, its control characters escaped after it is cut to 60 characters")
    func invalidUsernamesAreEscaped() {
        let long = String(repeating: "x", count: 59)
        let text = [
            #"{"id_str":"34","text":"v1","created_at":"Wed Oct 10 20:19:24 +0000 2018","user":{"id_str":"47","screen_name":"bob\nERROR forged\u001b[2J"}}"#,
            #"{"id_str":"35","text":"v1","created_at":"Wed Oct 10 20:19:24 +0000 2018","user":{"id_str":"48","screen_name":"\#(long)\u001b[2J"}}"#,
        ].joined(separator: "\n")
        let contents = ArchiveParser.parse(Data(text.utf8), file: "odd.jsonl")
        let rule = "is not a username (1 to 50 letters, digits or _)"
        #expect(contents.issues.map(\.description) == [
            #"odd.jsonl, line 1: tweet 34: its user's screen_name "bob\nERROR forged\u{1B}[2J" \#(rule)"#,
            #"odd.jsonl, line 2: tweet 35: its user's screen_name "\#(long)\u{1B}…" \#(rule)"#,
        ])
    }

    @Test("Tweets that name several authors by id alone are given to no owner, and one such author is the owner")
    func authorsByIDAlone() {
        let tweet = { (id: String, author: String) in
            #"{"id":"\#(id)","text":"t","created_at":"2021-10-06T22:38:10.000Z","author_id":"\#(author)"}"#
        }
        let zed = User(id: "local:zed", username: "zed", displayName: "zed")
        let two = ArchiveParser.parse(Data([tweet("1", "77"), tweet("2", "88"), #"{"id":"3","text":"t","created_at":"2021-10-06T22:38:10.000Z"}"#]
            .joined(separator: "\n").utf8), file: "two.jsonl")
        #expect(two.unnamedAuthorIDs == ["77", "88"])
        #expect(two.owner(username: "zed") == nil)
        #expect(two.assigning(owner: zed).tweets.map(\.authorID) == ["local:zed", "88", "77"],
                "only the tweet with no author id is the owner's")
        let one = ArchiveParser.parse(Data([tweet("1", "77"), tweet("2", "77")].joined(separator: "\n").utf8), file: "one.jsonl")
        #expect(one.owner(username: "zed")?.id == "77")
        #expect(one.assigning(owner: zed).tweets.allSatisfy { $0.authorID == "local:zed" })
    }

    @Test("An input with no tweet, empty or wholly malformed, makes up no owner, but names the users it holds")
    func noTweetsNoOwner() {
        for text in ["", "{not json\n"] {
            let contents = ArchiveParser.parse(Data(text.utf8), file: "empty.jsonl")
            #expect(contents.owner(username: "q") == nil, "\(text)")
        }
        let named = User(id: "7", username: "q", displayName: "Q")
        #expect(ArchiveContents(users: [named]).owner(username: "Q") == named)
    }

    @Test("Bytes that are not UTF-8 read as U+FFFD and their entry is kept, in JSON Lines and in an archive file")
    func invalidUTF8IsRepaired() {
        let line = Data(#"{"id":"1","text":"caf"#.utf8) + Data([0xE9]) + Data(#" was lovely","created_at":"2021-10-06T22:38:10.000Z"}"#.utf8)
        let lines = ArchiveParser.parse(line + Data("\n".utf8) + line, file: "latin1.jsonl")
        #expect(lines.issues.isEmpty, "\(lines.issues)")
        #expect(lines.tweets.map(\.text) == ["caf\u{FFFD} was lovely"])
        #expect(lines.repeatedTweets == 1)
        let archive = ArchiveParser.parse(Data("window.YTD.tweets.part0 = [".utf8) + line + Data("]".utf8), file: "tweets.js")
        #expect(archive.tweets.map(\.text) == ["caf\u{FFFD} was lovely"])
    }

    @Test("A tweet with nothing visible in its text is skipped as empty, as classify refuses it", arguments: ["", "   ", "\u{200B}\u{2060}"])
    func blankTextIsAnIssue(text: String) throws {
        let object: [String: Any] = ["id": "5", "text": text, "created_at": "2021-10-06T22:38:10.000Z"]
        let data = try JSONSerialization.data(withJSONObject: object)
        let contents = ArchiveParser.parse(data, file: "blank.json")
        #expect(contents.tweets.isEmpty)
        #expect(contents.issues.map(\.description) == ["blank.json, document: tweet 5: empty text"])
    }

    @Test("JSON Lines of v2 tweets and v2 pages")
    func jsonLinesV2() {
        let text = """
            {"id":"1445880548472328192","text":"v2 tweet","created_at":"2021-10-06T22:38:10.000Z","author_id":"77","lang":"en"}
            {"data":[{"id":"1445880548472328193","text":"in a page","author_id":"77","created_at":"2021-10-06T22:39:10.000Z"},{"id":"9"}],"includes":{"users":[{"id":"77","username":"seventy","name":"Seventy Seven"}]},"meta":{"result_count":2}}
            """
        let contents = ArchiveParser.parse(Data(text.utf8), file: "v2.jsonl")
        #expect(contents.tweets.map(\.text) == ["in a page", "v2 tweet"])
        #expect(contents.users == [User(id: "77", username: "seventy", displayName: "Seventy Seven")])
        #expect(contents.issues.map(\.description) == ["v2.jsonl, line 2 data[1]: tweet 9: missing text"])
    }

    @Test("A pretty-printed v2 page and a JSON array are read")
    func v2Page() {
        let page = """
            {
              "data": [
                {"id": "1", "text": "first", "created_at": "2021-10-06T22:38:10.000Z", "author_id": "5"}
              ],
              "meta": {"result_count": 1, "next_token": "abc"}
            }
            """
        #expect(ArchiveParser.parse(Data(page.utf8), file: "page.json").tweets.map(\.id) == ["1"])
        let array = "[" + #"{"id":"2","text":"a","created_at":"2021-10-06T22:38:10Z"}, 17, {"id":"3","text":"b","created_at":"2021-10-06T22:38:11Z"}"# + "]"
        let contents = ArchiveParser.parse(Data(array.utf8), file: "array.json")
        #expect(contents.tweets.map(\.id) == ["3", "2"])
        #expect(contents.issues.map(\.position) == ["entry 2"])
    }

    @Test("Tweets of the same time are read newest first by id as a number, as the store orders them")
    func sameTimeOrderedByNumericID() {
        let lines = ["9", "100", "11"].map { #"{"id":"\#($0)","text":"t","created_at":"2021-10-06T22:38:10.000Z","author_id":"5"}"# }
        let contents = ArchiveParser.parse(Data(lines.joined(separator: "\n").utf8), file: "same-second.jsonl")
        #expect(contents.tweets.map(\.id) == ["100", "11", "9"])
    }

    // MARK: - Archive source

    @Test("An archive source pages a user's tweets and knows its owner")
    func archiveSource() async throws {
        let tweets = (1...5).map { Tweet(id: "\($0)", authorID: "", text: "t\($0)", createdAt: referenceDate + Double($0)) }
        let source = ArchiveSource(contents: ArchiveContents(tweets: tweets), owner: "someone")
        let user = try await source.user(username: "@SOMEONE")
        let first = try await source.tweets(of: user, maxResults: 3, cursor: nil)
        #expect(first.items.map(\.id) == ["5", "4", "3"])
        let second = try await source.tweets(of: user, maxResults: 3, cursor: first.nextCursor)
        #expect(second.items.map(\.id) == ["2", "1"])
        #expect(second.nextCursor == nil)
        await #expect(throws: TweetSourceFailure.unknownUser("other")) { try await source.user(username: "other") }
    }

    @Test("An archive cursor past the end, or a page size up to Int.max, gives the rest or nothing instead of overflowing", arguments: [
        (String(Int.max), 20, [String]()), ("5", Int.max, []), ("9", 1, []), ("3", Int.max, ["2", "1"]), ("0", Int.max, ["5", "4", "3", "2", "1"]),
    ])
    func archiveCursorBounds(cursor: String, maxResults: Int, expected: [String]) async throws {
        let tweets = (1...5).map { Tweet(id: "\($0)", authorID: "", text: "t\($0)", createdAt: referenceDate + Double($0)) }
        let source = ArchiveSource(contents: ArchiveContents(tweets: tweets), owner: "someone")
        let user = try await source.user(username: "someone")
        let page = try await source.tweets(of: user, maxResults: maxResults, cursor: cursor)
        #expect(page.items.map(\.id) == expected)
        #expect(page.nextCursor == nil)
    }
}
