import ArgumentParser
import Foundation
import Logging
import SentimentServer

/// `sentiment serve`: the HTTP API and the web page.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the classification API, the tweet API and the web page over HTTP.",
        discussion: """
            Routes: POST /v1/classify, GET /v1/users?query=, \
            GET /v1/users/{username}/tweets, GET|DELETE /v1/history, GET /healthz, \
            GET /metrics, GET /openapi.json, and the web page at / and /users/{username}.

            Settings come from flags, then the environment (SENTIMENT_PROFILE, \
            SENTIMENT_HOST, SENTIMENT_PORT, SENTIMENT_DB, SENTIMENT_MODEL, \
            SENTIMENT_LOG_LEVEL, X_API_URL, SENTIMENT_API_KEY, X_BEARER_TOKEN), then \
            the profile: dev (upstream http://127.0.0.1:8089, debug logs, no \
            retries, loopback only), stage and prod (https://api.x.com by default; the X API URL must be \
            https and not loopback). The \
            default profile is prod. Listening beyond loopback requires \
            SENTIMENT_API_KEY, which DELETE /v1/history then needs.

            Logs go to standard error, one line per request with its request id. \
            SIGTERM or SIGINT stops the server after the requests in flight; \
            before it listens (while the model loads), at once, saying no request \
            was served, with the same exit status, 0.

            Exit status: 0 stopped by a signal; 64 usage error or a setting the \
            profile refuses; 65 a malformed model; 66 a missing model; 69 the \
            address cannot be listened on (a port in use, a host that is not this \
            machine's, a port below 1024 without the privilege); 73 the database \
            cannot be opened, or may not be written and the server is not offline; 66 \
            no database at --db and the server is offline; 1 the server failed after it started.

            Examples:
              sentiment serve --profile dev --port 8080
              SENTIMENT_API_KEY=… sentiment serve --host 0.0.0.0 --db /var/lib/tweets.db
            """
    )

    @Option(help: ArgumentHelp("dev, stage or prod, in any case (default: $SENTIMENT_PROFILE, then prod).", valueName: "profile"))
    var profile: Profile?

    @Option(help: ArgumentHelp("The address to listen on (default: $SENTIMENT_HOST, then 127.0.0.1).", valueName: "host"))
    var host: String?

    @Option(help: ArgumentHelp("The port; 0 picks a free one (default: $SENTIMENT_PORT, then 8080).", valueName: "port"))
    var port: Int?

    @Option(name: .customLong("log-level"),
            help: ArgumentHelp("trace, debug, info, notice, warning, error or critical, in any case (default: $SENTIMENT_LOG_LEVEL, then the profile's).",
                               valueName: "level"))
    var logLevel: Logger.Level?

    @Option(name: .customLong("log-format"), help: "Log lines as text or json.")
    var logFormat: LogFormat = .text

    @Option(name: .customLong("api-url"),
            help: ArgumentHelp("The X API base URL (default: $X_API_URL, then the profile's).", valueName: "url"))
    var apiURL: String?

    @Flag(help: "Answer timelines from the database alone, without touching the network; a database that may not be written is then read as it is.")
    var offline = false

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var modelOptions: ModelOptions

    func run() async throws {
        let flags = ServerConfiguration.Flags(
            profile: profile, host: host, port: port, databasePath: database.path, modelDirectory: modelOptions.directory,
            logLevel: logLevel, upstreamBaseURL: apiURL, offline: offline)
        let configuration: ServerConfiguration
        do {
            configuration = try ServerConfiguration.resolve(flags: flags)
            try configuration.validate()
        } catch {
            printError(error.description)
            throw ExitCode.usage
        }
        let format = logFormat
        LoggingSystem.bootstrap { label in
            switch format {
            case .text: StreamLogHandler.standardError(label: label)
            case .json: JSONLogHandler(label: label)
            }
        }
        var logger = Logger(label: "sentiment.serve")
        logger.logLevel = configuration.logLevel
        // SIGTERM or SIGINT before the server takes them: a service manager that
        // stops a server still loading its model (or opening the database) gets
        // the status a stopped server exits with, 0, and a line saying so,
        // instead of a process killed by the signal. The server's own signal
        // handling (ServiceLifecycle's, set up just before it listens) takes
        // the signals over from this one.
        InterruptSignals.watch { signal in
            printError("stopped by \(Summary.signalName(signal)) before the server was listening: no request was served")
            _exit(0)
        }
        let model = try modelOptions.loadModel()
        let metrics = ServerMetrics.bootstrappingMetricsSystem()
        do {
            try await Server.run(configuration: configuration, classifier: model, metrics: metrics, logger: logger)
        } catch let error as DatabaseOpenError {
            printError(error.description)
            throw error.isMissing ? ExitCode.noInput : ExitCode.cannotCreate
        } catch let error as ListenError {
            printError(error.description)
            throw ExitCode.unavailable
        } catch {
            printError("the server stopped: \(error)")
            throw ExitCode.failure
        }
    }
}

/// How log lines are written.
enum LogFormat: String, ExpressibleByArgument, CaseIterable {
    /// swift-log's `StreamLogHandler`: `2024-05-01T09:30:00+0000 info sentiment.serve: request_id=… [SentimentServer] request`.
    case text
    /// One JSON object per line: `{"ts", "level", "label", "message", …metadata}`.
    case json
}

// Read in any case, as the environment's SENTIMENT_PROFILE and SENTIMENT_LOG_LEVEL are.
extension Profile: ExpressibleByArgument {
    public init?(argument: String) { self.init(name: argument) }
}

extension Logger.Level: @retroactive ExpressibleByArgument {
    public init?(argument: String) {
        guard let level = ServerConfiguration.logLevel(named: argument) else { return nil }
        self = level
    }
}
