import Foundation
import Testing
@testable import Bench

/// `ChunkedFile`: a dump's writes, whose failure must not go unseen.
@Suite("Bench chunked file")
struct ChunkedFileTests {
    @Test("Closing a file whose last chunk could not be written (a full disk) throws, instead of leaving a short dump taken for whole")
    func failedFinalFlushThrows() throws {
        let file = try ChunkedFile(URL(fileURLWithPath: "/dev/full"))
        file.append(Array("good morning :)\n".utf8))
        #expect(throws: BenchError.self) { try file.close() }
    }
}
