/// Realistic Twitter API v1.1 tweet objects (streaming / statuses format) around
/// the corpus texts: the full user object, entities with indices, `source`
/// HTML, `extended_tweet.full_text` with a truncated `text` for long tweets,
/// and a quarter of them retweets wrapping the original in `retweeted_status`.
/// Strings are escaped as the v1.1 API did: non-ASCII as `\uXXXX` (surrogate
/// pairs for emoji) and `/` as `\/`. The text `sentiment classify` reads from
/// each object is exactly the corpus text, so predictions match the plain dump.
struct TweetObjectGenerator {
    let corpus: Corpus
    private var random = SplitMix64(state: 0x7EE7_2026)
    private var out: [UInt8] = []

    init(corpus: Corpus) {
        self.corpus = corpus
        out.reserveCapacity(16 << 10)
    }

    static let names = ["Ana Lima", "Ben Carter", "Chloé Martin", "Dev Patel", "Emma 🌸", "Finn O'Neil", "Grace Kim",
                        "Hugo Weiß", "Isla Brown", "Jay-Z Fan Club", "Kofi Mensah", "Lena Novak", "Mia ✨", "Noah Smith"]
    static let locations = ["London, England", "New York, NY", "São Paulo", "", "Lagos", "Toronto, Ontario",
                            "Los Angeles, CA", "Dublin", "Sydney", "Manchester", "somewhere over the rainbow 🌈"]
    static let sources = [
        "<a href=\"http://twitter.com/download/iphone\" rel=\"nofollow\">Twitter for iPhone</a>",
        "<a href=\"http://twitter.com/download/android\" rel=\"nofollow\">Twitter for Android</a>",
        "<a href=\"https://mobile.twitter.com\" rel=\"nofollow\">Twitter Web App</a>",
        "<a href=\"https://about.twitter.com/products/tweetdeck\" rel=\"nofollow\">TweetDeck</a>",
    ]
    static let days = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The object for the `index`th tweet (`corpus.texts[index % count]`).
    mutating func object(index: Int) -> [UInt8] {
        out.removeAll(keepingCapacity: true)
        let text = String(decoding: corpus.texts[index % corpus.texts.count], as: UTF8.self)
        let id = 1_050_118_621_198_921_728 + UInt64(index) * 7919
        if random.next() % 4 == 0 {
            // A retweet: the classifier must read the original's full text.
            let originalID = id - 1_000_000 - random.next() % 1_000_000
            let author = user(seed: random.next())
            var retweetText = "RT @\(author.screenName): " + text
            if retweetText.unicodeScalars.count > 140 {
                retweetText = String(String.UnicodeScalarView(retweetText.unicodeScalars.prefix(139))) + "…"
            }
            open(id: id, text: retweetText, fullText: nil, author: user(seed: random.next()))
            raw(",\"retweeted_status\":")
            open(id: originalID, text: text, fullText: text, author: author)
            close(retweetCount: Int(random.next() % 5000))
            close(retweetCount: Int(random.next() % 5000))
        } else {
            open(id: id, text: text, fullText: text, author: user(seed: random.next()))
            close(retweetCount: Int(random.next() % 50))
        }
        return out
    }

    private struct User {
        var id: UInt64, name: String, screenName: String, location: String, description: String
        var followers: Int, friends: Int, statuses: Int, favourites: Int, listed: Int, createdAt: String
        var verified: Bool
    }

    private mutating func user(seed: UInt64) -> User {
        var r = SplitMix64(state: seed)
        let name = Self.names[Int(r.next() % UInt64(Self.names.count))]
        let screenName = name.lowercased().filter { $0.isASCII && ($0.isLetter || $0.isNumber) } + "_\(r.next() % 10_000)"
        let description = String(decoding: corpus.texts[Int(r.next() % UInt64(corpus.texts.count))], as: UTF8.self)
        return User(
            id: 10_000_000 + r.next() % 1_000_000_000_000, name: name, screenName: screenName,
            location: Self.locations[Int(r.next() % UInt64(Self.locations.count))], description: description,
            followers: Int(r.next() % 100_000), friends: Int(r.next() % 5_000), statuses: Int(r.next() % 200_000),
            favourites: Int(r.next() % 50_000), listed: Int(r.next() % 300), createdAt: date(&r, yearFrom: 2008),
            verified: r.next() % 50 == 0)
    }

    private func date(_ r: inout SplitMix64, yearFrom: Int) -> String {
        func two(_ n: UInt64) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(Self.days[Int(r.next() % 7)]) \(Self.months[Int(r.next() % 12)]) \(two(1 + r.next() % 28)) "
            + "\(two(r.next() % 24)):\(two(r.next() % 60)):\(two(r.next() % 60)) +0000 \(yearFrom + Int(r.next() % 10))"
    }

    /// Writes a tweet object up to (not including) its closing brace.
    private mutating func open(id: UInt64, text: String, fullText: String?, author: User) {
        let scalars = Array(text.unicodeScalars)
        let truncated = scalars.count > 140 && fullText != nil
        let shownText = truncated
            ? String(String.UnicodeScalarView(scalars.prefix(116))) + "… https://t.co/" + shortCode(id)
            : text
        raw("{\"created_at\":\"\(date(&random, yearFrom: 2012))\",\"id\":\(id),\"id_str\":\"\(id)\",\"text\":")
        string(shownText)
        raw(",\"display_text_range\":[0,\(min(scalars.count, 140))],\"source\":")
        string(Self.sources[Int(random.next() % UInt64(Self.sources.count))])
        raw(",\"truncated\":\(truncated),\"in_reply_to_status_id\":null,\"in_reply_to_status_id_str\":null,"
            + "\"in_reply_to_user_id\":null,\"in_reply_to_user_id_str\":null,\"in_reply_to_screen_name\":null,\"user\":")
        userObject(author)
        raw(",\"geo\":null,\"coordinates\":null,\"place\":null,\"contributors\":null,\"is_quote_status\":false,")
        if truncated {
            raw("\"extended_tweet\":{\"full_text\":")
            string(text)
            raw(",\"display_text_range\":[0,\(scalars.count)],\"entities\":")
            entities(scalars)
            raw("},")
        }
        raw("\"quote_count\":\(random.next() % 20),\"reply_count\":\(random.next() % 40),")
        raw("\"favorite_count\":\(random.next() % 500),\"entities\":")
        entities(truncated ? Array(shownText.unicodeScalars) : scalars)
        raw(",\"favorited\":false,\"retweeted\":false,\"filter_level\":\"low\",\"lang\":\"en\"")
    }

    private mutating func close(retweetCount: Int) {
        raw(",\"retweet_count\":\(retweetCount),\"timestamp_ms\":\"\(1_539_202_764_000 + random.next() % 100_000_000)\"}")
    }

    private mutating func userObject(_ u: User) {
        raw("{\"id\":\(u.id),\"id_str\":\"\(u.id)\",\"name\":")
        string(u.name)
        raw(",\"screen_name\":\"\(u.screenName)\",\"location\":")
        string(u.location)
        raw(",\"url\":\"https://t.co/\(shortCode(u.id))\",\"description\":")
        string(u.description)
        raw(",\"translator_type\":\"none\",\"protected\":false,\"verified\":\(u.verified),"
            + "\"followers_count\":\(u.followers),\"friends_count\":\(u.friends),\"listed_count\":\(u.listed),"
            + "\"favourites_count\":\(u.favourites),\"statuses_count\":\(u.statuses),\"created_at\":\"\(u.createdAt)\","
            + "\"utc_offset\":null,\"time_zone\":null,\"geo_enabled\":\(u.followers % 3 == 0),\"lang\":null,"
            + "\"contributors_enabled\":false,\"is_translator\":false,\"profile_background_color\":\"C0DEED\",")
        string("http://abs.twimg.com/images/themes/theme1/bg.png", key: "profile_background_image_url")
        string("https://abs.twimg.com/images/themes/theme1/bg.png", key: "profile_background_image_url_https")
        raw("\"profile_background_tile\":false,")
        string("http://pbs.twimg.com/profile_images/\(u.id)/\(shortCode(u.id))_normal.jpg", key: "profile_image_url")
        string("https://pbs.twimg.com/profile_images/\(u.id)/\(shortCode(u.id))_normal.jpg", key: "profile_image_url_https")
        string("https://pbs.twimg.com/profile_banners/\(u.id)/1539202764", key: "profile_banner_url")
        raw("\"profile_link_color\":\"1DA1F2\",\"profile_sidebar_border_color\":\"C0DEED\","
            + "\"profile_sidebar_fill_color\":\"DDEEF6\",\"profile_text_color\":\"333333\","
            + "\"profile_use_background_image\":true,\"default_profile\":true,\"default_profile_image\":false,"
            + "\"following\":null,\"follow_request_sent\":null,\"notifications\":null}")
    }

    /// `entities` of a text: hashtags, mentions and URLs with code-point indices.
    private mutating func entities(_ scalars: [Unicode.Scalar]) {
        var hashtags: [(String, Int, Int)] = [], mentions: [(String, Int, Int)] = [], urls: [(String, Int, Int)] = []
        var i = 0
        func isWord(_ s: Unicode.Scalar) -> Bool { s.properties.isAlphabetic || ("0"..."9").contains(s) || s == "_" }
        while i < scalars.count {
            let s = scalars[i]
            let atStart = i == 0 || !isWord(scalars[i - 1])
            if (s == "#" || s == "@"), atStart, i + 1 < scalars.count, isWord(scalars[i + 1]) {
                var j = i + 1
                while j < scalars.count, isWord(scalars[j]) { j += 1 }
                let word = String(String.UnicodeScalarView(scalars[(i + 1)..<j]))
                if s == "#" { hashtags.append((word, i, j)) } else { mentions.append((word, i, j)) }
                i = j
            } else if s == "h", atStart, scalars[i...].starts(with: "http".unicodeScalars) {
                var j = i
                while j < scalars.count, scalars[j] != " " { j += 1 }
                urls.append((String(String.UnicodeScalarView(scalars[i..<j])), i, j))
                i = j
            } else {
                i += 1
            }
        }
        raw("{\"hashtags\":[")
        for (k, tag) in hashtags.enumerated() {
            raw(k == 0 ? "{\"text\":" : ",{\"text\":")
            string(tag.0)
            raw(",\"indices\":[\(tag.1),\(tag.2)]}")
        }
        raw("],\"urls\":[")
        for (k, url) in urls.enumerated() {
            raw(k == 0 ? "{" : ",{")
            string(url.0, key: "url")
            string("https://example.com/" + shortCode(UInt64(url.1 * 31 + url.2)), key: "expanded_url")
            string("example.com/…", key: "display_url")
            raw("\"indices\":[\(url.1),\(url.2)]}")
        }
        raw("],\"user_mentions\":[")
        for (k, mention) in mentions.enumerated() {
            raw(k == 0 ? "{\"screen_name\":" : ",{\"screen_name\":")
            string(mention.0)
            raw(",\"name\":")
            string(mention.0.capitalized)
            let id = 10_000 + UInt64(mention.0.utf8.reduce(0) { $0 &* 31 &+ Int($1) } & 0xFFFF_FFFF)
            raw(",\"id\":\(id),\"id_str\":\"\(id)\",\"indices\":[\(mention.1),\(mention.2)]}")
        }
        raw("],\"symbols\":[]}")
    }

    private func shortCode(_ n: UInt64) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".utf8)
        var n = n &* 0x9E37_79B9_7F4A_7C15, code: [UInt8] = []
        for _ in 0..<10 { code.append(alphabet[Int(n % 62)]); n /= 62 }
        return String(decoding: code, as: UTF8.self)
    }

    private mutating func raw(_ text: String) {
        out.append(contentsOf: text.utf8)
    }

    /// `"key":"value",`
    private mutating func string(_ value: String, key: String) {
        raw("\"\(key)\":")
        string(value)
        out.append(UInt8(ascii: ","))
    }

    /// A JSON string as the v1.1 API wrote it.
    private mutating func string(_ value: String) {
        let hex = Array("0123456789abcdef".utf8)
        out.append(UInt8(ascii: "\""))
        for unit in value.utf16 {
            switch unit {
            case 0x22: out.append(contentsOf: [0x5C, 0x22])
            case 0x5C: out.append(contentsOf: [0x5C, 0x5C])
            case 0x2F: out.append(contentsOf: [0x5C, 0x2F])
            case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x20..<0x7F: out.append(UInt8(unit))
            default:
                out.append(contentsOf: [0x5C, UInt8(ascii: "u"),
                                        hex[Int(unit >> 12)], hex[Int(unit >> 8 & 0xF)],
                                        hex[Int(unit >> 4 & 0xF)], hex[Int(unit & 0xF)]])
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
