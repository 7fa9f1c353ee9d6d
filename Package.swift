// swift-tools-version:6.1
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

let package = Package(
    name: "swift-sentiment",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "Sentiment", targets: ["Sentiment"]),
        .library(name: "Tweets", targets: ["Tweets"]),
        .executable(name: "sentiment", targets: ["SentimentCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
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
            swiftSettings: swiftSettings
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

        // MARK: - Executables

        /// The `sentiment` command line.
        .executableTarget(
            name: "SentimentCLI",
            dependencies: [
                "Sentiment",
                "Tweets",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),

        // MARK: - Tests

        .testTarget(
            name: "CTokenizerTests",
            dependencies: ["CTokenizer"],
            resources: [.copy("Cases")]
        ),
        .testTarget(
            name: "SentimentTests",
            dependencies: ["Sentiment"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TweetsTests",
            dependencies: [
                "Tweets",
                // A fake X API server on 127.0.0.1.
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SentimentCLITests",
            dependencies: ["Sentiment"],
            swiftSettings: swiftSettings
        ),
    ]
)
