/// A slice of a longer list and the cursor that continues it.
///
/// Cursors are opaque strings: pass ``nextCursor`` back to the call that
/// produced the page to get the next one. `nil` means there is no more.
/// JSON: `{"items": […], "next_cursor": "…" | null}`.
public struct Page<Element: Sendable>: Sendable {
    /// The items, in the list's order (newest first for tweets).
    public var items: [Element]
    /// The cursor of the following page, or `nil` at the end.
    public var nextCursor: String?

    /// Creates a page.
    public init(items: [Element], nextCursor: String? = nil) {
        self.items = items
        self.nextCursor = nextCursor
    }
}

extension Page: Equatable where Element: Equatable {}

extension Page: Codable where Element: Codable {
    enum CodingKeys: String, CodingKey {
        case items
        case nextCursor = "next_cursor"
    }

    /// Encodes `items` and `next_cursor` (`null` at the end).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(items, forKey: .items)
        try container.encode(nextCursor, forKey: .nextCursor)
    }

    /// Decodes `items` and an optional `next_cursor`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        items = try container.decode([Element].self, forKey: .items)
        nextCursor = try container.decodeIfPresent(String.self, forKey: .nextCursor)
    }
}
