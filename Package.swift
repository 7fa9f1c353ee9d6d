// swift-tools-version:6.2
//
// swift-sentiment: sentiment analysis for English tweets.
//
//   CTokenizer  (C, ICU4C)      tweet-aware tokenizer and English normalization
//       ↓
//   Sentiment   (Swift, BLAS)   features, logistic regression, model files, training
//       ↓
//   Tweets      (Swift, SQLite) users, timelines, sources, the mood of each tweet
//       ↓
//   sentiment   (executable)    the command line
//
import PackageDescription

// MARK: - Shared settings

/// System libraries, by the Debian package that provides them.
let icu: [LinkerSetting] = [.linkedLibrary("icuuc")]

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

/// The engine's release build skips the run-time exclusivity checks (measured
/// +3–4% on `sentiment classify`, Docs/performance.md); debug builds, and so
/// the tests, keep them.
let releaseHotPath: [SwiftSetting] = [
    .unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release)),
]

let package = Package(
    name: "swift-sentiment",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "Sentiment", targets: ["Sentiment"]),
        .library(name: "Tweets", targets: ["Tweets"]),
        .executable(name: "sentiment", targets: ["SentimentCLI"]),
        .executable(name: "Bench", targets: ["Bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    ],
    targets: [
        // MARK: - Core engine

        /// Tweet tokenizer and normalization in C over ICU4C (`libicu-dev`).
        .target(
            name: "CTokenizer",
            cSettings: [.unsafeFlags(["-O3"])],
            linkerSettings: icu
        ),
        /// The system CBLAS (`libblas-dev`; OpenBLAS when `libopenblas0-pthread` is installed).
        .systemLibrary(
            name: "CBLAS",
            providers: [.apt(["libblas-dev"])]
        ),
        /// Features, the logistic-regression model, model files, training and metrics.
        .target(
            name: "Sentiment",
            dependencies: [
                "CTokenizer",
                "CBLAS",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings + releaseHotPath
        ),

        // MARK: - Tweet service

        /// Users and their tweets with a mood each: X API v2 and archive sources, SQLite store.
        .target(
            name: "Tweets",
            dependencies: [
                "Sentiment",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),

        // MARK: - HTTP service

        /// `sentiment serve`: the classification API, the tweet API and the web page (Hummingbird 2).
        .target(
            name: "SentimentServer",
            dependencies: [
                "Sentiment",
                "Tweets",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            resources: [.copy("Public")],
            swiftSettings: swiftSettings
        ),

        // MARK: - Executables

        /// Standard input, output and error reserved on `/dev/null` when the process
        /// starts with them closed, so no file the command opens takes their place.
        .target(name: "CStandardStreams"),
        /// The `sentiment` command line.
        .executableTarget(
            name: "SentimentCLI",
            dependencies: [
                "Sentiment",
                "Tweets",
                "SentimentServer",
                "CStandardStreams",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings + releaseHotPath
        ),

        /// Throughput of every stage and of `sentiment classify`, against peers in the same run
        /// (`swift run -c release Bench --help`). Built by `make test` so it keeps compiling;
        /// its timings are never test assertions.
        .executableTarget(
            name: "Bench",
            dependencies: [
                "Sentiment",
                "CTokenizer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),

        // MARK: - Tests

        /// What several test targets share: slots that bound how many tests
        /// hold a process's or a server's file descriptors at once.
        .target(
            name: "TestSupport",
            path: "Tests/TestSupport",
            swiftSettings: swiftSettings
        ),

        .testTarget(
            name: "CTokenizerTests",
            dependencies: ["CTokenizer"],
            resources: [.copy("Cases")]
        ),
        .testTarget(
            name: "SentimentTests",
            // Every module a target imports is listed, CTokenizer too, though
            // Sentiment brings it: SwiftPM recompiles a target when a module it
            // lists changes, and only then (a struct of ctk.h or Sentiment that
            // grows a field, a private one included, changes a layout the
            // target's code holds compiled in). See TweetsTests.
            dependencies: ["Sentiment", "CTokenizer"],
            exclude: ["Fixtures"],  // read by path, beside the tests
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TweetsTests",
            dependencies: [
                "Tweets",
                // Imported, so listed, though Tweets brings it: unlisted, an
                // incremental build did not recompile RealModelTests when a
                // private field grew SentimentModel (LanguageDetector's phrases,
                // 848 bytes to 864), and the test crashed reading its model.
                "Sentiment",
                // Log lines kept in memory, to read what was logged.
                .product(name: "InMemoryLogging", package: "swift-log"),
                // A store file made as an older build left it.
                .product(name: "GRDB", package: "GRDB.swift"),
                // A fake X API server on 127.0.0.1.
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SentimentServerTests",
            dependencies: [
                "SentimentServer",
                "TestSupport",
                "Sentiment",
                "Tweets",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                // Log lines kept in memory, to read what the server logged.
                .product(name: "InMemoryLogging", package: "swift-log"),
                // A database whose write lock another connection holds.
                .product(name: "GRDB", package: "GRDB.swift"),
                // A fake X API server on 127.0.0.1.
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        /// Bench's own functions (its chart); Bench as a process is tested in SentimentCLITests.
        .testTarget(
            name: "BenchTests",
            dependencies: ["Bench"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SentimentCLITests",
            dependencies: ["Sentiment", "TestSupport"],
            exclude: ["Fixtures"],  // read by path, beside the tests
            swiftSettings: swiftSettings
        ),
    ]
)
