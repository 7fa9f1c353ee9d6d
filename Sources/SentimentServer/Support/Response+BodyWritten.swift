import Hummingbird

extension Response {
    /// Calls `done` once the body has been written, with the error that broke
    /// it off if one did; for a `HEAD` answer, whose body is never written, now.
    /// What the access log and the metrics time a request by.
    mutating func whenBodyWritten(for request: Request, _ done: @escaping @Sendable ((any Error)?) -> Void) {
        guard request.method != .head else {
            done(nil)
            return
        }
        let body = self.body
        self.body = ResponseBody(contentLength: body.contentLength) { writer in
            do {
                try await body.write(writer)
            } catch {
                done(error)
                throw error
            }
            done(nil)
        }
    }
}
