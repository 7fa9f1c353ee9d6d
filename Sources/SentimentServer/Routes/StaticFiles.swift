import Foundation
import Hummingbird

/// The web page: the files of `Public/` (a resource of this module), read once
/// at start-up and served from memory.
///
/// `/` and `/users/{username}` both answer `index.html` (the page routes on the
/// client). Each file has an `ETag`; an `If-None-Match` that holds it (weak or
/// strong, alone or in a list, or `*`) gets a 304. HTML carries a
/// `Content-Security-Policy` that allows nothing but this server, so the page
/// can never fetch from the internet.
struct StaticFiles {
    struct File: Sendable {
        var bytes: ByteBuffer
        var contentType: String
        var etag: String
    }

    let files: [String: File]

    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
        + "manifest-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

    /// Reads every file of a folder (not recursively).
    init(directory: URL) throws {
        var files: [String: File] = [:]
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        for name in names where !name.hasPrefix(".") {
            let data = try Data(contentsOf: directory.appendingPathComponent(name))
            files[name] = File(bytes: ByteBuffer(bytes: data), contentType: Self.contentType(of: name),
                               etag: "\"\(Self.fingerprint(data))\"")
        }
        self.files = files
    }

    /// The page's files shipped with this module.
    static func bundled() throws -> StaticFiles {
        guard let url = Bundle.module.url(forResource: "Public", withExtension: nil) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "SentimentServer resources: Public"])
        }
        return try StaticFiles(directory: url)
    }

    func register(on router: Router<ServerRequestContext>) {
        for name in files.keys.sorted() {
            router.get(RouterPath("/\(name)")) { request, _ in try serve(name, request) }
        }
        router.get("/") { request, _ in try serve("index.html", request) }
        router.get("/users/{username}") { request, _ in try serve("index.html", request) }
    }

    func serve(_ name: String, _ request: Request) throws -> Response {
        guard let file = files[name] else { throw Problem.notFound(request.uri.path) }
        var headers = HTTPFields()
        headers[.contentType] = file.contentType
        headers[.eTag] = file.etag
        headers[.cacheControl] = "no-cache"
        headers[.contentTypeOptions] = "nosniff"
        if file.contentType.hasPrefix("text/html") {
            headers[.contentSecurityPolicy] = Self.contentSecurityPolicy
            headers[.referrerPolicy] = "no-referrer"
        }
        if Self.ifNoneMatch(request.headers[values: .ifNoneMatch], matches: file.etag) {
            return Response(status: .notModified, headers: headers)
        }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: file.bytes))
    }

    /// Whether `If-None-Match` fields match `etag` by RFC 9110's weak comparison:
    /// `*`, or a comma-separated list of tags, `W/"…"` as `"…"`.
    static func ifNoneMatch(_ fields: [String], matches etag: String) -> Bool {
        headerListItems(fields).contains { tag in
            tag == "*" || (tag.hasPrefix("W/") ? String(tag.dropFirst(2)) : tag) == etag
        }
    }

    static func contentType(of name: String) -> String {
        switch (name as NSString).pathExtension.lowercased() {
        case "html": "text/html; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "json": "application/json"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "ico": "image/x-icon"
        case "webmanifest": "application/manifest+json"
        default: "application/octet-stream"
        }
    }

    /// A 64-bit FNV-1a of the bytes, in hex.
    static func fingerprint(_ data: Data) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in data {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}
