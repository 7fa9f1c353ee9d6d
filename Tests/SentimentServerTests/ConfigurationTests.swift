import Foundation
import Testing
import Tweets
@testable import SentimentServer

@Suite("Configuration and profiles")
struct ConfigurationTests {
    @Test("Flags win over the environment, which wins over the profile's defaults")
    func flagsThenEnvironmentThenProfile() throws {
        let environment = ["SENTIMENT_PROFILE": "stage", "SENTIMENT_PORT": "9000", "SENTIMENT_HOST": "127.0.0.2",
                           "SENTIMENT_DB": "/tmp/env.sqlite", "SENTIMENT_LOG_LEVEL": "warning", "SENTIMENT_API_KEY": "k"]
        let fromEnvironment = try ServerConfiguration.resolve(flags: .init(), environment: environment)
        #expect(fromEnvironment.profile == .stage)
        #expect(fromEnvironment.port == 9000)
        #expect(fromEnvironment.host == "127.0.0.2")
        #expect(fromEnvironment.databasePath == "/tmp/env.sqlite")
        #expect(fromEnvironment.logLevel == .warning)
        #expect(fromEnvironment.apiKey == "k")
        #expect(fromEnvironment.upstreamBaseURL == XAPIConfiguration.defaultBaseURL)

        let fromFlags = try ServerConfiguration.resolve(
            flags: .init(profile: .dev, host: "localhost", port: 1234, databasePath: "/tmp/flag.sqlite"), environment: environment)
        #expect(fromFlags.profile == .dev)
        #expect(fromFlags.port == 1234)
        #expect(fromFlags.host == "localhost")
        #expect(fromFlags.databasePath == "/tmp/flag.sqlite")
        #expect(fromFlags.upstreamBaseURL == Profile.developmentUpstream)
    }

    @Test("Without a profile, the defaults are production's", arguments: [[String: String](), ["HOME": "/home/x"]])
    func defaultProfileIsProduction(environment: [String: String]) throws {
        let configuration = try ServerConfiguration.resolve(flags: .init(), environment: environment)
        #expect(configuration.profile == .prod)
        #expect(configuration.host == "127.0.0.1")
        #expect(configuration.port == 8080)
        #expect(configuration.logLevel == .notice)
        #expect(configuration.retryPolicy == .standard)
        #expect(configuration.upstreamBaseURL.absoluteString == "https://api.x.com")
        try configuration.validate()
    }

    @Test("Production and staging refuse a development upstream", arguments: [Profile.prod, .stage])
    func productionRefusesDevelopmentUpstream(profile: Profile) throws {
        for url in ["http://127.0.0.1:8089", "https://localhost:9999", "http://api.example.com"] {
            let configuration = try ServerConfiguration.resolve(
                flags: .init(profile: profile, databasePath: "/tmp/x.sqlite", upstreamBaseURL: url), environment: [:])
            #expect(throws: ConfigurationError.self) { try configuration.validate() }
        }
        let offline = try ServerConfiguration.resolve(
            flags: .init(profile: profile, databasePath: "/tmp/x.sqlite", upstreamBaseURL: "http://127.0.0.1:1", offline: true),
            environment: [:])
        try offline.validate()
    }

    @Test("The dev profile listens on loopback only")
    func developmentIsLoopbackOnly() throws {
        let configuration = ServerConfiguration(profile: .dev, host: "0.0.0.0", databasePath: "/tmp/x.sqlite", apiKey: "k")
        #expect(throws: ConfigurationError.self) { try configuration.validate() }
        try ServerConfiguration(profile: .dev, host: "::1", databasePath: "/tmp/x.sqlite").validate()
    }

    @Test("A blank API key is refused: no request could present it")
    func blankAPIKeyIsRefused() throws {
        let blank = ServerConfiguration(profile: .prod, host: "0.0.0.0", databasePath: "/tmp/x.sqlite", apiKey: "   ")
        #expect(throws: ConfigurationError.invalidValue(name: "SENTIMENT_API_KEY", value: "   ", expected: "a key that is not blank")) {
            try blank.validate()
        }
    }

    @Test("An API key from the environment loses the whitespace and newline at its ends, as a key file's last newline")
    func environmentAPIKeyIsTrimmed() throws {
        for given in ["s3cret\n", " s3cret", "\ts3cret \r\n"] {
            let configuration = try ServerConfiguration.resolve(
                flags: .init(host: "0.0.0.0", databasePath: "/tmp/x.sqlite"), environment: ["SENTIMENT_API_KEY": given])
            #expect(configuration.apiKey == "s3cret")
            try configuration.validate()
        }
        let blank = try ServerConfiguration.resolve(flags: .init(databasePath: "/tmp/x.sqlite"), environment: ["SENTIMENT_API_KEY": " \n"])
        #expect(throws: ConfigurationError.invalidValue(name: "SENTIMENT_API_KEY", value: " \n", expected: "a key that is not blank")) {
            try blank.validate()
        }
    }

    @Test("An API key set with whitespace at either end is refused: no trimmed header could present it")
    func untrimmedAPIKeyIsRefused() throws {
        for key in ["s3cret\n", " s3cret"] {
            let configuration = ServerConfiguration(profile: .prod, host: "0.0.0.0", databasePath: "/tmp/x.sqlite", apiKey: key)
            #expect(throws: ConfigurationError.invalidValue(
                name: "SENTIMENT_API_KEY", value: key, expected: "a key without whitespace at either end")) {
                try configuration.validate()
            }
        }
        try ServerConfiguration(profile: .prod, host: "0.0.0.0", databasePath: "/tmp/x.sqlite", apiKey: "two words").validate()
    }

    @Test("An https upstream on this machine is refused for being local, not for its scheme")
    func localHTTPSUpstreamSaysWhy() throws {
        let local = ServerConfiguration(profile: .prod, databasePath: "/tmp/x.sqlite", upstreamBaseURL: URL(string: "https://127.0.0.1")!)
        #expect {
            try local.validate()
        } throws: { error in
            "\(error)".contains("https://127.0.0.1 points at this machine")
        }
    }

    @Test("A name under .localhost listens on loopback")
    func localhostNameListens() async throws {
        try await TestServer.with(configure: { $0.host = "app.localhost" }) { server in
            let answer = try await server.request(.GET, "/healthz")
            #expect(answer.status == 200)
        }
    }

    @Test("Listening beyond loopback requires an API key")
    func publicHostNeedsAnAPIKey() throws {
        let open = ServerConfiguration(profile: .prod, host: "0.0.0.0", databasePath: "/tmp/x.sqlite")
        #expect(throws: ConfigurationError.apiKeyRequired(host: "0.0.0.0")) { try open.validate() }
        var keyed = open
        keyed.apiKey = "s3cret"
        try keyed.validate()
        #expect(keyed.requiresAPIKey)
    }

    @Test("Unreadable environment values are errors that name the variable", arguments: [
        ("SENTIMENT_PROFILE", "production"), ("SENTIMENT_PORT", "eighty"), ("SENTIMENT_LOG_LEVEL", "loud"),
        ("X_API_URL", "ftp://x"),
    ])
    func badEnvironmentValues(name: String, value: String) {
        #expect {
            _ = try ServerConfiguration.resolve(flags: .init(), environment: [name: value])
        } throws: { error in
            (error as? ConfigurationError)?.description.contains(name) == true
        }
    }

    @Test("Loopback hosts", arguments: [("127.0.0.1", true), ("127.1.2.3", true), ("localhost", true), ("::1", true),
                                        ("[::1]", true), ("0.0.0.0", false), ("192.168.1.2", false), ("::", false)])
    func loopbackHosts(host: String, loopback: Bool) {
        #expect(ServerConfiguration.isLoopback(host) == loopback)
    }

    @Test("Loopback is read from the address, not the spelling", arguments: [
        ("2130706433", true), ("127.1", true), ("0x7f.0.0.1", true), ("0177.0.0.1", true), ("::ffff:127.0.0.1", true),
        ("[::ffff:7f00:1]", true), ("0:0:0:0:0:0:0:1", true), ("LocalHost", true), ("app.localhost", true),
        ("127.example.com", false), ("127.0.0.1.nip.io", false), ("1.2.3.4", false), ("::ffff:10.0.0.1", false),
        ("localhost.example.com", false), ("", false),
    ])
    func loopbackIsParsed(host: String, loopback: Bool) {
        #expect(ServerConfiguration.isLoopback(host) == loopback)
    }

    @Test("A host name that only looks like loopback cannot serve the dev profile or skip the API key")
    func lookalikeHostIsNotLoopback() throws {
        let dev = ServerConfiguration(profile: .dev, host: "127.example.com", databasePath: "/tmp/x.sqlite", apiKey: "k")
        #expect(throws: ConfigurationError.self) { try dev.validate() }
        let open = ServerConfiguration(profile: .prod, host: "127.example.com", databasePath: "/tmp/x.sqlite")
        #expect(throws: ConfigurationError.apiKeyRequired(host: "127.example.com")) { try open.validate() }
        try ServerConfiguration(profile: .dev, host: "2130706433", databasePath: "/tmp/x.sqlite").validate()
    }

    @Test("Production and staging refuse an upstream that reaches this machine, however it is spelled", arguments: [
        "https://0.0.0.0:1", "https://2130706433", "https://127.1", "https://[::1]:8443", "https://[::ffff:127.0.0.1]",
        "https://0x7f000001", "https://[::]:1", "https://0:443", "https://api.localhost",
    ])
    func productionRefusesLocalUpstreams(url: String) throws {
        for profile in [Profile.prod, .stage] {
            let configuration = try ServerConfiguration.resolve(
                flags: .init(profile: profile, databasePath: "/tmp/x.sqlite", upstreamBaseURL: url), environment: [:])
            #expect(throws: ConfigurationError.self, "\(url) with \(profile)") { try configuration.validate() }
        }
        let publicUpstream = try ServerConfiguration.resolve(
            flags: .init(profile: .prod, databasePath: "/tmp/x.sqlite", upstreamBaseURL: "https://127.example.com"),
            environment: [:])
        try publicUpstream.validate()
    }
}

@Suite("The id of an over-long NDJSON line")
struct LeadingIDTests {
    @Test("An id written whole before the cut is kept, whatever its kind", arguments: [
        (#"{"id": 7, "text": "aaaa"#, JSONValue.integer(7)),
        (#"{"id":"a\"b,c","text":"aaaa"#, .string("a\"b,c")),
        (#"{"meta":{"id":"inner","n":[1,2]},"id":"outer","text":"aaaa"#, .string("outer")),
        (#"  {"lang":"en", "id": 12.5, "text": "aaaa"#, .number(12.5)),
    ])
    func keepsAWholeID(prefix: String, id: JSONValue) {
        #expect(ClassifyItem.leadingID(in: Array(prefix.utf8)) == id)
    }

    @Test("An id after the text, cut by the limit, nested, of another kind, or a number that would come back as another gives none", arguments: [
        #"{"text": "aaaa", "id": 7"#,
        #"{"id": 12345"#,
        #"{"meta": {"id": 5, "x": 1}, "text": "aaaa"#,
        #"{"id": [1, 2], "text": "aaaa"#,
        #"{"id": 12345678901234567.5, "text": "aaaa"#,
        #"{"id": 1e-400, "text": "aaaa"#,
        #"{"\u0069d": 1.5e-400, "text": "aaaa"#,
        #"not json, "id": 5, more"#,
        #""just a long string, with commas"#,
    ])
    func findsNoID(prefix: String) {
        #expect(ClassifyItem.leadingID(in: Array(prefix.utf8)) == .null)
    }
}

@Suite("NDJSON line splitting")
struct LineSplitterTests {
    @Test("Lines split on LF and CRLF across chunks; an over-long line is flagged and skipped")
    func splitsAcrossChunks() {
        var splitter = LineSplitter(maximumLineBytes: 8)
        var lines: [LineSplitter.Line] = []
        for chunk in ["ab", "c\r\nde", "f\n0123456789", "ABCDEF\nlast"] {
            splitter.append(Array(chunk.utf8))
            while let line = splitter.next() { lines.append(line) }
        }
        if let line = splitter.finish() { lines.append(line) }
        #expect(lines == [.text(Array("abc".utf8)), .text(Array("def".utf8)), .tooLong(prefix: Array("0123456789".utf8)),
                          .text(Array("last".utf8))])
    }
}
