import Foundation
import Testing
@testable import Bench

/// `Chart`'s SVG text: what its rows say, from the results recorded.
@Suite("Bench chart")
struct ChartTests {
    /// The chart of one VADER row timed on `timed` tweets of a `plainTweets`-tweet dump.
    private func vaderChart(timed: Int, plainTweets: Int) -> String {
        let recorder = Recorder(filters: [], skips: [])
        recorder.record(Peers.vaderName, group: "peer", items: timed, timings: Timings(seconds: [0.01], cpuSeconds: [0.01]))
        return Chart.svg(recorder, plainTweets: plainTweets, title: "title", subtitle: "subtitle")
    }

    @Test("VADER timed on the whole dump is not labelled a sample")
    func wholeDumpIsNoSample() {
        let svg = vaderChart(timed: 20, plainTweets: 20)
        #expect(svg.contains(">VADER polarity_scores</text>"), "\(svg)")
        #expect(!svg.contains("sample"), "\(svg)")
    }

    @Test("VADER timed on part of the dump is labelled a sample of the tweets it timed")
    func partOfTheDumpIsASample() {
        let svg = vaderChart(timed: 100_000, plainTweets: 1_000_000)
        #expect(svg.contains(">VADER polarity_scores (sample of 100000 tweets)</text>"), "\(svg)")
    }
}
