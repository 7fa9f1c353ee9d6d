import Foundation
import Sentiment
import Testing
import Tweets
@testable import SentimentServer

@Suite("The real model behind the API")
struct RealModelTests {
    @Test("Many parallel classify calls give the same answers as one by one, with the shipped model")
    func parallelCallsMatchSequentialOnes() async throws {
        let model = try SentimentModel.loadDefault()
        try await TestServer.with(classifier: model) { server in
            try await assertParallelMatchesSequential(server)
        }
    }

    @Test("The API answers what the model answers")
    func answersMatchTheModel() async throws {
        let model = try SentimentModel.loadDefault()
        let texts = ["I love this, best day ever!!! 😍", "This is awful, I hate it so much :(", "The bus leaves at 9."]
        try await TestServer.with(classifier: model) { server in
            let answer = try await server.post("/v1/classify", json: ["texts": texts])
            let results = try #require(try answer.object()["results"] as? [[String: Any]])
            let predictions = model.classify(texts)
            #expect(results.map { $0["label"] as? String } == predictions.map(\.label.rawValue))
            #expect(zip(results, predictions).allSatisfy { abs(($0["score"] as? Double ?? 9) - $1.score) < 1e-9 })
            #expect(try answer.object()["model"] as? String == model.id)
        }
    }
}
