import Foundation
import Sentiment
import Testing
@testable import Tweets

@Suite("Domain")
struct DomainTests {
    // MARK: - Themes

    @Test("Theme colours and emoji are the named constants")
    func themeConstants() {
        #expect(Theme.happy.color.hex == "#FFD60A")
        #expect(Theme.neutral.color.hex == "#8E8E93")
        #expect(Theme.sad.color.hex == "#0A84FF")
        #expect(Theme.happy.emoji == "😃")
        #expect(Theme.neutral.emoji == "😐")
        #expect(Theme.sad.emoji == "😔")
        #expect(RGBColor(hex: "#0a84ff") == Theme.sadColor)
        #expect(RGBColor(hex: "#12345") == nil)
    }

    @Test("A colour is six hex digits: a sign, a space or other letters are not one", arguments: [
        "#+FFFFF", "+FFFFF", "#-00000", "-00000", "# FFFFF", "#FFFFFG", "#FFD60A0", "##FFD60",
    ])
    func malformedHexColours(text: String) throws {
        #expect(RGBColor(hex: text) == nil)
        let json = Data(#"{"color":"\#(text)"}"#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(RGBColorHolder.self, from: json) }
    }

    private struct RGBColorHolder: Decodable {
        var color: RGBColor
    }

    @Test("The label decides the theme unless its margin is weak", arguments: [
        // label, p(neg), p(neu), p(pos), expected
        (SentimentLabel.positive, 0.05, 0.15, 0.80, Theme.happy),
        (.positive, 0.24, 0.31, 0.45, .happy),   // score 0.21: just above the margin
        (.positive, 0.30, 0.30, 0.40, .neutral), // score 0.10: too weak
        (.negative, 0.80, 0.10, 0.10, .sad),
        (.negative, 0.36, 0.30, 0.34, .neutral), // near tie
        (.neutral, 0.20, 0.45, 0.35, .neutral),  // score +0.15 but the model says neutral
    ])
    func themeRule(label: SentimentLabel, negative: Double, neutral: Double, positive: Double, expected: Theme) {
        let prediction = Prediction(label: label, probabilities: .init(negative: negative, neutral: neutral, positive: positive),
                                    language: .english)
        #expect(ThemeThresholds.default.theme(for: prediction) == expected)
    }

    @Test("A score exactly at the margin keeps the colour, though its difference in floating point falls a hair short", arguments: [
        // p(neg), p(pos): p(pos) − p(neg) is 0.19999999999999996 or 0.19999999999999998 in binary floating point
        (SentimentLabel.positive, 0.40, 0.60, Theme.happy),
        (.positive, 0.50, 0.70, .happy),
        (.positive, 0.10, 0.30, .happy),
        (.negative, 0.60, 0.40, .sad),
        (.negative, 0.70, 0.50, .sad),
        (.positive, 0.41, 0.60, .neutral),  // 0.19: below
        (.negative, 0.59, 0.40, .neutral),  // −0.19: below
    ])
    func themeAtTheMargin(label: SentimentLabel, negative: Double, positive: Double, expected: Theme) {
        let prediction = Prediction(label: label, probabilities: .init(negative: negative, neutral: 1 - negative - positive,
                                                                       positive: positive), language: .english)
        #expect(ThemeThresholds.default.theme(for: prediction) == expected)
    }

    @Test("Thresholds are configurable")
    func configurableThresholds() {
        let weak = Prediction(label: .positive, probabilities: .init(negative: 0.3, neutral: 0.3, positive: 0.4), language: .english)
        #expect(ThemeThresholds(happyMinimumScore: 0, sadMinimumScore: 0).theme(for: weak) == .happy)
        #expect(ThemeThresholds(happyMinimumScore: 0.5, sadMinimumScore: 0.5).theme(for: weak) == .neutral)
    }

    @Test("A non-English tweet gets no theme but an unsupported-language mood")
    func unsupportedLanguage() {
        let english = CountingClassifier.predict("I love this")
        let byModel = Mood(prediction: CountingClassifier.predict("hola"), sourceLanguage: nil, thresholds: .default)
        let bySource = Mood(prediction: english, sourceLanguage: "fr", thresholds: .default)
        let mediaOnly = Mood(prediction: english, sourceLanguage: "qme", thresholds: .default)
        #expect(byModel == .unsupportedLanguage("es"))
        #expect(bySource == .unsupportedLanguage("fr"))
        #expect(bySource.theme == nil)
        #expect(mediaOnly == .themed(.happy))
        #expect(Mood(prediction: english, sourceLanguage: "en-GB", thresholds: .default) == .themed(.happy))
    }

    // MARK: - JSON

    @Test("A classified tweet encodes the jsonl field names")
    func classifiedTweetJSON() throws {
        let tweet = Tweet(id: "1", authorID: "7", text: "What a great day", createdAt: referenceDate, language: "en")
        let classified = ClassifiedTweet(tweet: tweet, prediction: CountingClassifier.predict(tweet.text), modelID: "m@1")
        let object = try #require(JSONSerialization.jsonObject(with: JSONEncoder().encode(classified)) as? [String: Any])
        #expect(object["id"] as? String == "1")
        #expect(object["text"] as? String == "What a great day")
        #expect(object["created_at"] as? String == "2024-05-01T12:00:00.000Z")
        #expect(object["label"] as? String == "positive")
        #expect((object["score"] as? Double).map { abs($0 - 0.75) < 1e-9 } == true)
        let probabilities = try #require(object["probabilities"] as? [String: Double])
        #expect(probabilities["positive"] == 0.8)
        let theme = try #require(object["theme"] as? [String: String])
        #expect(theme == ["name": "happy", "emoji": "😃", "color": "#FFD60A"])
        #expect(object["mood"] as? String == "happy")

        let decoded = try JSONDecoder().decode(ClassifiedTweet.self, from: JSONEncoder().encode(classified))
        #expect(decoded == classified)
    }

    @Test("An unsupported-language tweet encodes a null label and a null theme, and decodes back equal", arguments: [
        // The model's language test says Spanish; its label is not the most probable class.
        (Tweet(id: "2", authorID: "7", text: "hola amigos", createdAt: referenceDate, language: "es"),
         Prediction(label: .positive, probabilities: .init(negative: 0.2, neutral: 0.6, positive: 0.2),
                    language: .unsupported(code: "es"))),
        // The source tags it French; the model took it for English.
        (Tweet(id: "3", authorID: "7", text: "I love this", createdAt: referenceDate, language: "fr"),
         CountingClassifier.predict("I love this")),
        // The source's tag in capitals, with a region: the mood holds it lowercased.
        (Tweet(id: "4", authorID: "7", text: "I love this", createdAt: referenceDate, language: "PT-BR"),
         CountingClassifier.predict("I love this")),
    ])
    func unsupportedJSON(tweet: Tweet, prediction: Prediction) throws {
        let classified = ClassifiedTweet(tweet: tweet, prediction: prediction, modelID: "m@1")
        #expect(classified.label == nil)
        let object = try #require(JSONSerialization.jsonObject(with: JSONEncoder().encode(classified)) as? [String: Any])
        #expect(object["label"] is NSNull)
        #expect(object["theme"] is NSNull)
        #expect(object["mood"] as? String == "unsupported_language")
        let decoded = try JSONDecoder().decode(ClassifiedTweet.self, from: JSONEncoder().encode(classified))
        #expect(decoded == classified)
        #expect(decoded.hashValue == classified.hashValue)
        #expect(decoded.label == nil)
    }

    @Test("A stale timeline encodes its failure kind")
    func timelineJSON() throws {
        let timeline = Timeline(user: alice, tweets: [], nextCursor: nil, failure: .upstream(status: 503, problem: nil))
        let object = try #require(JSONSerialization.jsonObject(with: JSONEncoder().encode(timeline)) as? [String: Any])
        #expect(object["stale"] as? Bool == true)
        #expect(object["next_cursor"] is NSNull)
        let failure = try #require(object["failure"] as? [String: Any])
        #expect(failure["kind"] as? String == "upstream")
        #expect(failure["status"] as? Int == 503)
        #expect((object["user"] as? [String: Any])?["display_name"] as? String == "Alice Example")
        #expect(try JSONDecoder().decode(Timeline.self, from: JSONEncoder().encode(timeline)) == timeline)
    }

    @Test("A timeline that classified tweets equals its JSON decoded, and hashes alike, though the count is not in the JSON")
    func timelineEqualityLeavesOutTheClassifiedCount() throws {
        let tweet = Tweet(id: "1", authorID: "7", text: "what a lovely day", createdAt: referenceDate)
        let classified = ClassifiedTweet(tweet: tweet, prediction: CountingClassifier.predict(tweet.text), modelID: "m@1")
        let timeline = Timeline(user: alice, tweets: [classified], nextCursor: "c1", newlyClassified: 1)
        let decoded = try JSONDecoder().decode(Timeline.self, from: JSONEncoder().encode(timeline))
        #expect(decoded.newlyClassified == 0)
        #expect(decoded == timeline)
        #expect(Set([decoded, timeline]).count == 1)
        var otherPage = timeline
        otherPage.nextCursor = "c2"
        #expect(otherPage != timeline)
    }

    // MARK: - Dates and names

    @Test("Both tweet date formats parse", arguments: [
        ("Wed Oct 10 20:19:24 +0000 2018", 1_539_202_764.0),
        ("2018-10-10T20:19:24.000Z", 1_539_202_764.0),
        ("2018-10-10T20:19:24Z", 1_539_202_764.0),
        ("2018-10-10T22:19:24+02:00", 1_539_202_764.0),
        ("Wed Oct 10 22:19:24 +0200 2018", 1_539_202_764.0),
    ])
    func dates(text: String, expected: Double) {
        #expect(TweetDate.parse(text)?.timeIntervalSince1970 == expected)
    }

    @Test("Invalid dates do not parse", arguments: ["", "yesterday", "2018-13-10T20:19:24Z", "Wed Foo 10 20:19:24 +0000 2018"])
    func invalidDates(text: String) {
        #expect(TweetDate.parse(text) == nil)
    }

    @Test("A day past the end of its month does not parse, in either format, instead of counting on into the next month", arguments: [
        "2024-02-30T00:00:00Z", "2023-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2024-04-31T12:00:00.000Z",
        "Sat Feb 30 10:00:00 +0000 2024", "Wed Apr 31 10:00:00 +0000 2024",
    ])
    func daysPastTheMonth(text: String) {
        #expect(TweetDate.parse(text) == nil)
    }

    @Test("A decimal point with no fraction digits, or a UTC offset with hours past 23 or minutes past 59, is no date", arguments: [
        "2018-10-10T20:19:24.Z", "2018-10-10T20:19:24.", "2018-10-10T20:19:24.+02:00",
        "2018-10-10T20:19:24+24:00", "2018-10-10T20:19:24+9900", "2018-10-10T20:19:24-00:60", "2018-10-10T20:19:24+0099",
        "2018-10-10T20:19:24+0:200", "2018-10-10T20:19:24+02:0:0",
        "Wed Oct 10 20:19:24 +2400 2018", "Wed Oct 10 20:19:24 -9999 2018", "Wed Oct 10 20:19:24 +0060 2018",
    ])
    func invalidFractionsAndOffsets(text: String) {
        #expect(TweetDate.parse(text) == nil)
    }

    @Test("The widest real UTC offsets parse, with or without a colon", arguments: [
        ("2018-10-10T20:19:24.5-23:59", 1_539_202_764.5 + 86_340), ("2018-10-11T20:18:24+2359", 1_539_202_764.0),
        ("Wed Oct 10 20:19:24 -2359 2018", 1_539_202_764.0 + 86_340),
    ])
    func widestOffsets(text: String, expected: Double) {
        #expect(TweetDate.parse(text)?.timeIntervalSince1970 == expected)
    }

    @Test("February 29 parses in leap years", arguments: ["2024-02-29T00:00:00Z", "2000-02-29T00:00:00Z", "Thu Feb 29 10:00:00 +0000 2024"])
    func leapDays(text: String) {
        #expect(TweetDate.parse(text) != nil)
    }

    @Test("A v1.1 date whose year is outside 0–9999 does not parse, and its tweet is an issue", arguments: [
        "Wed Oct 10 20:19:24 +0000 10000",
        "Wed Oct 10 20:19:24 +0000 300000000",
        "Wed Oct 10 20:19:24 +0000 99999999999999",
        "Wed Oct 10 20:19:24 +0000 -2018",
    ])
    func outOfRangeYears(text: String) {
        #expect(TweetDate.parse(text) == nil)
        let line = #"{"id":"1","text":"far future","author_id":"5","created_at":"\#(text)"}"#
        let contents = ArchiveParser.parse(Data(line.utf8), file: "dump.jsonl")
        #expect(contents.tweets.isEmpty)
        #expect(contents.issues.map(\.reason) == ["tweet 1: invalid created_at"])
    }

    @Test("Dates print as ISO 8601 with milliseconds")
    func printDates() {
        #expect(TweetDate.iso8601String(Date(timeIntervalSince1970: 1_539_202_764.25)) == "2018-10-10T20:19:24.250Z")
        #expect(TweetDate.iso8601String(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00.000Z")
    }

    @Test("A date outside years 0–9999, or not a number, prints as the nearest end of that range instead of trapping", arguments: [
        (1e16, "9999-12-31T23:59:59.999Z"), (1e12, "9999-12-31T23:59:59.999Z"), (.infinity, "9999-12-31T23:59:59.999Z"),
        (-1e16, "0000-01-01T00:00:00.000Z"), (-.infinity, "0000-01-01T00:00:00.000Z"), (.nan, "0000-01-01T00:00:00.000Z"),
    ])
    func printFarDates(seconds: Double, expected: String) throws {
        let text = TweetDate.iso8601String(Date(timeIntervalSince1970: seconds))
        #expect(text == expected)
        #expect(TweetDate.parse(text) != nil)
        let tweet = Tweet(id: "1", authorID: "7", text: "far", createdAt: Date(timeIntervalSince1970: seconds))
        let decoded = try JSONDecoder().decode(Tweet.self, from: JSONEncoder().encode(tweet))
        #expect(decoded == tweet)
    }

    @Test("A tweet keeps its date to the millisecond, so it equals its JSON decoded, and dates after 2038 lose nothing on each round", arguments: [
        1_539_202_764.123_456_7, 1_700_000_000.000_4, 2_524_608_000.001, 4_102_444_800.999, 253_402_300_799.999,
    ])
    func millisecondDates(seconds: Double) throws {
        var tweet = Tweet(id: "1", authorID: "7", text: "now", createdAt: Date(timeIntervalSince1970: seconds))
        #expect(abs(tweet.createdAt.timeIntervalSince1970 - seconds) <= 0.0005 * (1 + 1e-9))
        for _ in 0..<3 {
            let decoded = try JSONDecoder().decode(Tweet.self, from: JSONEncoder().encode(tweet))
            #expect(decoded == tweet)
            tweet = decoded
        }
        var changed = tweet
        changed.createdAt = Date(timeIntervalSince1970: seconds + 0.000_1)
        #expect(changed.createdAt == TweetDate.normalized(changed.createdAt))
        #expect(TweetDate.iso8601String(tweet.createdAt) == TweetDate.iso8601String(Date(timeIntervalSince1970: seconds)))
    }

    @Test("Usernames are compared without @ and case")
    func usernames() {
        #expect(User.key(for: " @Alice ") == "alice")
        #expect(User.isValidUsername("@bob_builder"))
        #expect(!User.isValidUsername("bob builder"))
        #expect(!User.isValidUsername("../etc"))
        #expect(!User.isValidUsername(""))
    }

    @Test("A name that only lowercases to ASCII is not a username", arguments: ["\u{212A}", "sunnyda\u{212A}s", "@\u{212A}elvin"])
    func kelvinSignIsNoLetter(_ name: String) {
        let keyIsASCII = User.key(for: name).unicodeScalars.allSatisfy { $0.isASCII }
        #expect(keyIsASCII, "the key alone looks like a username")
        #expect(!User.isValidUsername(name))
    }

    @Test("The bearer token never shows in descriptions")
    func bearerTokenRedacted() throws {
        let token = try #require(BearerToken("s3cr3t"))
        #expect("\(token)" == "<redacted>")
        #expect(String(reflecting: token).contains("s3cr3t") == false)
        #expect(BearerToken("  ") == nil)
        #expect(BearerToken.resolve(environment: ["X_BEARER_TOKEN": "abc", "HOME": "/nonexistent"])?.value == "abc")
    }

    @Test("The database location follows flag, environment, then XDG")
    func databaseLocation() {
        #expect(DatabaseLocation.resolve(flag: "/tmp/a.sqlite", environment: ["SENTIMENT_DB": "/tmp/b"]) == "/tmp/a.sqlite")
        #expect(DatabaseLocation.resolve(flag: nil, environment: ["SENTIMENT_DB": "/tmp/b"]) == "/tmp/b")
        #expect(DatabaseLocation.resolve(environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/u"])
            == "/data/swift-sentiment/tweets.sqlite")
        #expect(DatabaseLocation.resolve(environment: ["HOME": "/home/u"]) == "/home/u/.local/share/swift-sentiment/tweets.sqlite")
    }

    @Test("A database path starting with ~ is in the home directory, from the flag or the environment")
    func databaseLocationExpandsTilde() {
        let home = ["HOME": "/home/u"]
        #expect(DatabaseLocation.resolve(flag: "~/x.sqlite", environment: home) == "/home/u/x.sqlite")
        #expect(DatabaseLocation.resolve(environment: home.merging(["SENTIMENT_DB": "~/db/t.sqlite"]) { $1 })
            == "/home/u/db/t.sqlite")
        #expect(DatabaseLocation.resolve(flag: "~", environment: home) == "/home/u")
        #expect(DatabaseLocation.resolve(flag: "~bob/x.sqlite", environment: home) == "~bob/x.sqlite")
        #expect(DatabaseLocation.resolve(flag: "a/~/x.sqlite", environment: home) == "a/~/x.sqlite")
    }

    @Test("Without the environment variable, the bearer token is the first line of the XDG config file")
    func bearerTokenFromFile() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("sentiment-token-tests-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let environment = ["HOME": home.path]
        let file = BearerToken.configFile(environment: environment)
        #expect(file.path == home.path + "/.config/swift-sentiment/x-bearer-token")
        #expect(BearerToken.configFile(environment: ["XDG_CONFIG_HOME": "/etc/xdg", "HOME": home.path]).path
            == "/etc/xdg/swift-sentiment/x-bearer-token")
        #expect(BearerToken.resolve(environment: environment) == nil, "no variable, no file")

        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "from-file\nsecond line\n".write(to: file, atomically: false, encoding: .utf8)
        #expect(BearerToken.resolve(environment: environment)?.value == "from-file")
        #expect(BearerToken.resolve(environment: environment.merging(["X_BEARER_TOKEN": "from-env"]) { $1 })?.value == "from-env")
    }

    @Test("The X API base URL comes from the flag, then X_API_URL, then api.x.com, and must be http(s) with a host")
    func apiBaseURL() {
        #expect(XAPIConfiguration.baseURL(flag: nil, environment: [:]) == XAPIConfiguration.defaultBaseURL)
        #expect(XAPIConfiguration.baseURL(flag: nil, environment: ["X_API_URL": "http://127.0.0.1:8080"])?.absoluteString
            == "http://127.0.0.1:8080")
        #expect(XAPIConfiguration.baseURL(flag: "https://example.test", environment: ["X_API_URL": "http://other"])?.absoluteString
            == "https://example.test")
        for bad in ["ftp://example.test", "example.test", "http://", "file:///etc/passwd"] {
            #expect(XAPIConfiguration.baseURL(flag: bad, environment: [:]) == nil, "\(bad)")
        }
    }
}
