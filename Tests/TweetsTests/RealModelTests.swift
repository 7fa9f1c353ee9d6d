import Foundation
import Sentiment
import Testing
@testable import Tweets

@Suite("Real model")
struct RealModelTests {
    @Test("The shipped model classifies a timeline once and themes clear tweets")
    func shippedModel() async throws {
        let model = try SentimentModel.loadDefault()
        #expect(model.modelID == model.id)
        try await withStore { store, _ async throws in
            let tweets = [
                Tweet(id: "3", authorID: alice.id, text: "I love this, best day ever!!! 😍", createdAt: referenceDate),
                Tweet(id: "2", authorID: alice.id, text: "This is awful, I hate it so much :(", createdAt: referenceDate - 60),
                Tweet(id: "1", authorID: alice.id, text: "¡Hola! ¿Qué tal estáis todos hoy en la playa?", createdAt: referenceDate - 120,
                      language: "es"),
            ]
            let service = TweetService(store: store, source: FakeSource(users: [alice], tweets: tweets), classifier: model,
                                       logger: testLogger)
            let timeline = try await service.timeline(username: "alice")
            #expect(timeline.tweets.map(\.theme) == [.happy, .sad, nil])
            #expect(try await store.classificationCount(modelID: model.id) == 3)
            _ = try await service.timeline(username: "alice")
            #expect(try await store.classificationCount() == 3)
        }
    }
}
