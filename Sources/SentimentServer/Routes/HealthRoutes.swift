import Hummingbird
import Tweets

/// `GET /healthz` (the model and the database answer) and `GET /metrics` (Prometheus text).
struct HealthRoutes {
    let services: ServerServices
    let profile: Profile

    func register(on router: Router<ServerRequestContext>) {
        router.get("/healthz") { _, context in
            var database = "ok"
            do {
                _ = try await services.store.journalMode()
            } catch {
                context.logger.error("health check: the database does not answer", metadata: ["error": "\(error)"])
                database = "failing"
            }
            let health = Health(status: database == "ok" ? "ok" : "failing", model: services.classifier.modelID,
                                database: database, profile: profile.rawValue)
            return try UserRoutes.json(health, status: database == "ok" ? .ok : .serviceUnavailable)
        }
        router.get("/metrics") { _, _ in
            var headers = HTTPFields()
            headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: services.metrics.exposition())))
        }
    }
}

/// `{"status": "ok", "model": "…", "database": "ok", "profile": "prod"}`.
struct Health: Encodable {
    var status: String
    var model: String
    var database: String
    var profile: String
}
