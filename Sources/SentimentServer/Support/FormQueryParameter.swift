import Foundation
import Hummingbird

extension Request {
    /// The query parameter `name` read as an HTML form writes it: `+` is a
    /// space (`%2B` a plus), then percent-escapes are decoded; `nil` when the
    /// query does not have it. Hummingbird's `queryParameters` leaves `+` as
    /// it is, so `?query=Sunny+D` from a form or Python's `requests` would
    /// search for "Sunny+D".
    func formQueryParameter(_ name: String) -> String? {
        guard let query = uri.query else { return nil }
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts[0] == name else { continue }
            guard parts.count == 2 else { return "" }
            let spaced = parts[1].replacingOccurrences(of: "+", with: " ")
            return spaced.removingPercentEncoding ?? spaced
        }
        return nil
    }
}
