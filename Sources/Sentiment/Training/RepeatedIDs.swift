extension Sequence where Element == LabeledExample {
    /// How many examples carry a tweet id that an earlier one has: rows a
    /// data file holds twice (or more), each scored or learned from as a tweet
    /// of its own. 0 when no example has an id.
    public var repeatedIDCount: Int {
        var seen = Set<UInt64>()
        var repeated = 0
        for example in self {
            if let id = example.id, !seen.insert(id).inserted { repeated += 1 }
        }
        return repeated
    }
}
