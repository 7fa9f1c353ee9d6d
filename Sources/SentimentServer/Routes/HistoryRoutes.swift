import Hummingbird
import Tweets

/// `GET /v1/history` (the searched usernames, most recent first) and
/// `DELETE /v1/history` (forget them; a write, so it needs the API key when one is set,
/// and is refused with 409 when the server reads a database it may not write).
struct HistoryRoutes {
    let services: ServerServices
    let apiKey: String?

    func register(on router: Router<ServerRequestContext>) {
        router.get("/v1/history") { _, _ in
            try UserRoutes.json(HistoryAnswer(history: try await services.store.searchHistory(limit: 50)))
        }
        router.group("/v1/history")
            .add(middleware: APIKeyMiddleware(apiKey: apiKey))
            .delete { _, context in
                // An offline server may read a database it may not write (`Server.openStore`).
                guard !services.store.isReadOnly else { throw Problem.readOnlyDatabase }
                try await services.store.clearSearchHistory()
                context.logger.info("search history cleared")
                return Response(status: .noContent)
            }
    }
}

/// `{"history": [{"username", "searched_at"}…]}`.
struct HistoryAnswer: Encodable {
    var history: [SearchHistoryEntry]
}
